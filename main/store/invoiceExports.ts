/**
 * The project's record of its invoices exports (migration 012, docs/invoices-export.md "Each invoice once"): which
 * invoice went out on which channel under which approval, so that an export sends each approved invoice once per
 * channel, and a re-approved one again as a correction of the export that sent it before.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { AuditChain } from './auditChain.js';
import { BundleRowError } from './transfer/bundleRows.js';

/** One file an export wrote, by its path inside the export folder and its SHA-256. */
export interface ExportedFile {
  file: string;
  sha256: string;
}

export interface InvoiceExportRecord {
  id: string;
  exportedAt: string;
  reviewer: string | null;
  osAccount: string | null;
  /** `invoices/<syntax>/<cius>`: `invoices/ubl/en16931`, `invoices/cii/xrechnung` (invoiceExportChannel). */
  channel: string;
  allApproved: boolean;
  outDir: string;
  files: ExportedFile[];
  items: { documentId: string; approval: string; correctionOf: string | null }[];
}

/** The latest export of a document on a channel: which export, when, and under which approval. */
export interface LastExport {
  exportId: string;
  exportedAt: string;
  approval: string;
}

/** The channel an export sends on: the format, the e-invoice syntax and the CIUS. */
export function invoiceExportChannel(syntax: string, xrechnung: boolean): string {
  return `invoices/${syntax}/${xrechnung ? 'xrechnung' : 'en16931'}`;
}

export class InvoiceExportsRepository {
  private readonly statements;
  private readonly chain: AuditChain;

  constructor(private readonly db: Database.Database) {
    this.chain = new AuditChain(db);
    this.statements = {
      insertExport: db.prepare(
        'INSERT INTO invoice_exports (id, exported_at, reviewer, os_account, channel, all_approved, out_dir, files) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertItem: db.prepare('INSERT INTO invoice_export_items (export_id, document_id, approval, correction_of) VALUES (?, ?, ?, ?)'),
      lastOnChannel: db.prepare(
        `SELECT e.id AS exportId, e.exported_at AS exportedAt, i.approval AS approval
           FROM invoice_export_items i JOIN invoice_exports e ON e.id = i.export_id
          WHERE i.document_id = ? AND e.channel = ?
          ORDER BY e.exported_at DESC, e.rowid DESC LIMIT 1`,
      ),
      list: db.prepare('SELECT * FROM invoice_exports ORDER BY exported_at, rowid'),
      itemsOf: db.prepare('SELECT document_id, approval, correction_of FROM invoice_export_items WHERE export_id = ? ORDER BY document_id'),
      taken: db.prepare('SELECT 1 FROM invoice_exports WHERE id = ?'),
      insertCarriedItem: db.prepare('INSERT OR IGNORE INTO invoice_export_items (export_id, document_id, approval, correction_of) VALUES (?, ?, ?, ?)'),
    };
  }

  /** The latest export that sent the document on the channel; null where none did. */
  lastOnChannel(documentId: string, channel: string): LastExport | null {
    return (this.statements.lastOnChannel.get(documentId, channel) as LastExport | undefined) ?? null;
  }

  /**
   * Records an export and the invoices it sent, all or nothing, chained in the audit trail (auditChain.ts: `recto
   * audit` finds an export or its invoices edited, removed or added outside Recto). Call only once its files are in place.
   */
  record(entry: InvoiceExportRecord): void {
    this.db.transaction(() => {
      this.statements.insertExport.run(entry.id, entry.exportedAt, entry.reviewer, entry.osAccount, entry.channel, entry.allApproved ? 1 : 0, entry.outDir, JSON.stringify(entry.files));
      for (const item of entry.items) this.statements.insertItem.run(entry.id, item.documentId, item.approval, item.correctionOf);
      this.chain.append('invoice_exports', entry.id);
    })();
  }

  /**
   * Adds another project's exports this one lacks (matched by id: merging back and forth adds each once), with the
   * invoices they sent named by this project's documents (`documentIdBySha`: the same file is the same invoice here;
   * an invoice this project does not hold keeps its id, as a removed document's history does), each chained in the
   * audit trail as a merged review event is. Call inside the merge's transaction. Returns how many were added.
   */
  carry(exports: readonly CarriedInvoiceExport[], documentIdBySha: (sha256: string) => string | undefined): number {
    let added = 0;
    for (const entry of exports) {
      if (this.statements.taken.get(entry.id) !== undefined) continue;
      this.statements.insertExport.run(entry.id, entry.exportedAt, entry.reviewer, entry.osAccount, entry.channel, entry.allApproved ? 1 : 0, entry.outDir, JSON.stringify(entry.files));
      for (const item of entry.items) {
        const documentId = (item.documentSha256 && documentIdBySha(item.documentSha256)) || item.documentId;
        this.statements.insertCarriedItem.run(entry.id, documentId, item.approval, item.correctionOf);
      }
      this.chain.append('invoice_exports', entry.id);
      added += 1;
    }
    return added;
  }

  /** Every export, oldest first, with what it sent. */
  list(): InvoiceExportRecord[] {
    const rows = this.statements.list.all() as { id: string; exported_at: string; reviewer: string | null; os_account: string | null; channel: string; all_approved: number; out_dir: string; files: string }[];
    return rows.map((r) => ({
      id: r.id,
      exportedAt: r.exported_at,
      reviewer: r.reviewer,
      osAccount: r.os_account,
      channel: r.channel,
      allApproved: r.all_approved === 1,
      outDir: r.out_dir,
      files: JSON.parse(r.files) as ExportedFile[],
      items: (this.statements.itemsOf.all(r.id) as { document_id: string; approval: string; correction_of: string | null }[]).map((i) => ({
        documentId: i.document_id,
        approval: i.approval,
        correctionOf: i.correction_of,
      })),
    }));
  }
}

/** An export as another project recorded it, each invoice also named by its file's SHA-256 (null: removed there). */
export interface CarriedInvoiceExport extends Omit<InvoiceExportRecord, 'items'> {
  items: { documentId: string; documentSha256: string | null; approval: string; correctionOf: string | null }[];
}

/** Another project's rows as they must be to be carried: its file is checked, never trusted (hostileRows.test.ts). */
const text = (max: number) => z.string().max(max);
const carriedRow = z.object({
  id: text(100).min(1),
  exported_at: text(100),
  reviewer: text(1000).nullable(),
  os_account: text(1000).nullable(),
  channel: z.string().regex(/^invoices\/[a-z]+\/[a-z0-9]+$/, 'not an export channel'),
  all_approved: z.union([z.literal(0), z.literal(1)]),
  out_dir: text(4096),
  files: z.array(z.object({ file: text(1000), sha256: z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256') })),
  items: z.array(z.object({ document_id: text(100).min(1), sha256: z.string().nullable(), approval: text(10_000), correction_of: text(100).nullable() })),
});

/**
 * Another project's exports, read from its database opened read-only (a merge's other side); none before migration 012.
 * A malformed row throws BundleRowError naming the export (the merge refuses, nothing merged).
 */
export function invoiceExportsToCarry(db: Database.Database): CarriedInvoiceExport[] {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'invoice_exports'").get() === undefined) return [];
  const items = db.prepare(
    `SELECT i.document_id, d.sha256, i.approval, i.correction_of FROM invoice_export_items i LEFT JOIN documents d ON d.id = i.document_id
      WHERE i.export_id = ? ORDER BY i.document_id`,
  );
  const rows = db.prepare('SELECT * FROM invoice_exports ORDER BY exported_at, rowid').all() as { id: unknown; files: unknown }[];
  return rows.map((raw) => {
    let files: unknown;
    try {
      files = JSON.parse(String(raw.files));
    } catch {
      throw new BundleRowError(`invoices export ${String(raw.id).slice(0, 100)}: its list of files is not JSON`);
    }
    const parsed = carriedRow.safeParse({ ...raw, files, items: items.all(raw.id) });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new BundleRowError(`invoices export ${String(raw.id).slice(0, 100)}: ${issue.path.join('.')}: ${issue.message}`);
    }
    const r = parsed.data;
    return {
      id: r.id,
      exportedAt: r.exported_at,
      reviewer: r.reviewer,
      osAccount: r.os_account,
      channel: r.channel,
      allApproved: r.all_approved === 1,
      outDir: r.out_dir,
      files: r.files,
      items: r.items.map((i) => ({ documentId: i.document_id, documentSha256: i.sha256, approval: i.approval, correctionOf: i.correction_of })),
    };
  });
}
