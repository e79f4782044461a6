/**
 * The duplicate check across a project: each document's invoice keys (app/invoices/duplicateKeys.ts) in one indexed
 * table, refreshed when its fields change (a reading saved, a field corrected), and looked up with a few index probes
 * — the cost does not grow with the project (docs/benchmarks.md, bench/invoices.ts).
 */
import type Database from 'better-sqlite3';
import { DUPLICATE_DATE_WINDOW_DAYS, type InvoiceKeys, type InvoiceMatch } from '../../app/invoices/duplicateKeys.js';
import type { DocumentsRepository } from './documents.js';
import { documentInvoiceKeys } from './documentInvoiceKeys.js';
import type { DocumentEInvoicesRepository } from './einvoices.js';
import type { FieldRevisionsRepository } from './fieldRevisions.js';

/** Where a document's keys come from: its first page's reviewed fields and its e-invoice XML. */
export interface InvoiceKeySources {
  documents: DocumentsRepository;
  fieldRevisions: FieldRevisionsRepository;
  einvoices: DocumentEInvoicesRepository;
}

/** At most this many matches of each kind are reported: one is enough to look, a handful to see a pattern. */
const MAX_MATCHES_PER_KIND = 5;

interface MatchRow {
  document_id: string;
  name: string;
}

export class InvoiceKeysRepository {
  private readonly statements;
  /**
   * The matches of each document's recorded keys, valid until any document's keys change (the only writes to
   * invoice_keys are put()'s): the queue asks for every document's after every save, a few index probes each — 23 ms
   * at 200 invoices of one supplier, on every correction — while most corrections change no key.
   */
  private readonly recordedMatchesCache = new Map<string, InvoiceMatch[]>();

  constructor(
    private readonly db: Database.Database,
    private readonly sources: InvoiceKeySources,
  ) {
    const bySupplier = (column: 'supplier_name' | 'supplier_vat', where: string) =>
      `SELECT k.document_id, d.name FROM invoice_keys k JOIN documents d ON d.id = k.document_id
       WHERE k.${column} = @${column === 'supplier_name' ? 'name' : 'vat'} AND ${where} AND k.document_id <> @self`;
    const union = (where: string) =>
      `${bySupplier('supplier_name', where)} UNION ${bySupplier('supplier_vat', where)} LIMIT ${MAX_MATCHES_PER_KIND}`;
    this.statements = {
      upsert: db.prepare(
        `INSERT INTO invoice_keys (document_id, supplier_name, supplier_vat, number, total_cents, issue_day, corrective, refs)
         VALUES (@documentId, @supplierName, @supplierVat, @number, @totalCents, @issueDay, @corrective, @references)
         ON CONFLICT (document_id) DO UPDATE SET supplier_name = excluded.supplier_name, supplier_vat = excluded.supplier_vat,
           number = excluded.number, total_cents = excluded.total_cents, issue_day = excluded.issue_day,
           corrective = excluded.corrective, refs = excluded.refs`,
      ),
      sameNumber: db.prepare(union('k.number = @number AND k.corrective = @corrective')),
      sameTotal: db.prepare(union('k.total_cents = @total AND k.issue_day BETWEEN @from AND @to AND k.corrective = @corrective')),
      corrects: db.prepare(union('k.number = @refs AND k.corrective = 0')),
      sameFile: db.prepare('SELECT id AS document_id, name FROM documents WHERE sha256 = ?'),
      keysOf: db.prepare('SELECT * FROM invoice_keys WHERE document_id = ?'),
    };
  }

  /** The document's keys as its fields are now, or null where it has no invoice fields. */
  private currentKeys(documentId: string): InvoiceKeys | null {
    const first = this.sources.documents.getDocument(documentId).pages[0];
    return first ? documentInvoiceKeys(first.id, documentId, this.sources.fieldRevisions, this.sources.einvoices) : null;
  }

  /** Re-derives the document's keys from its current fields (after a reading or a correction). */
  refresh(documentId: string): void {
    const keys = this.currentKeys(documentId);
    if (keys) this.put(documentId, keys);
  }

  /** The project's other invoices that look like this document's invoice as it is now, and the invoice a credit note corrects. */
  matchesOf(documentId: string): InvoiceMatch[] {
    const keys = this.currentKeys(documentId);
    return keys ? this.matches(documentId, keys) : [];
  }

  /** Records a document's keys (replacing what it had); keys equal to those recorded write nothing. */
  put(documentId: string, keys: InvoiceKeys): void {
    const recorded = this.keysOf(documentId);
    if (recorded && sameKeys(recorded, keys)) return;
    this.statements.upsert.run({ documentId, ...keys, corrective: keys.corrective ? 1 : 0 });
    this.recordedMatchesCache.clear();
  }

  /** The matches of the keys last recorded for a document (none where it has none). */
  recordedMatches(documentId: string): InvoiceMatch[] {
    const cached = this.recordedMatchesCache.get(documentId);
    if (cached) return cached;
    const keys = this.keysOf(documentId);
    const found = keys ? this.matches(documentId, keys) : [];
    this.recordedMatchesCache.set(documentId, found);
    return found;
  }

  /** The other invoices of the project that look like this one, and the invoice a credit note corrects. */
  matches(documentId: string, keys: InvoiceKeys): InvoiceMatch[] {
    if (keys.supplierName === null && keys.supplierVat === null) return [];
    const base = { self: documentId, name: keys.supplierName, vat: keys.supplierVat, corrective: keys.corrective ? 1 : 0 };
    const found: InvoiceMatch[] = [];
    const seen = new Set<string>();
    const add = (kind: InvoiceMatch['kind'], rows: MatchRow[]) => {
      for (const row of rows) {
        if (seen.has(row.document_id)) continue;
        seen.add(row.document_id);
        found.push({ kind, documentId: row.document_id, documentName: row.name });
      }
    };
    if (keys.number !== null) add('same-number', this.statements.sameNumber.all({ ...base, number: keys.number }) as MatchRow[]);
    if (keys.totalCents !== null && keys.issueDay !== null) {
      const window = { from: keys.issueDay - DUPLICATE_DATE_WINDOW_DAYS, to: keys.issueDay + DUPLICATE_DATE_WINDOW_DAYS };
      add('same-total-and-date', this.statements.sameTotal.all({ ...base, total: keys.totalCents, ...window }) as MatchRow[]);
    }
    if (keys.corrective && keys.references !== null) add('corrects', this.statements.corrects.all({ ...base, refs: keys.references }) as MatchRow[]);
    return found;
  }

  /** The keys last recorded for a document; null where it has none (no invoice fields). */
  keysOf(documentId: string): InvoiceKeys | null {
    const row = this.statements.keysOf.get(documentId) as
      | { supplier_name: string | null; supplier_vat: string | null; number: string | null; total_cents: number | null; issue_day: number | null; corrective: number; refs: string | null }
      | undefined;
    if (!row) return null;
    return {
      supplierName: row.supplier_name,
      supplierVat: row.supplier_vat,
      number: row.number,
      totalCents: row.total_cents,
      issueDay: row.issue_day,
      corrective: row.corrective === 1,
      references: row.refs,
    };
  }

  /** The document already in the project with these file bytes, if any (an import of the same file). */
  sameFile(sha256: string): InvoiceMatch | null {
    const row = this.statements.sameFile.get(sha256) as MatchRow | undefined;
    return row ? { kind: 'same-file', documentId: row.document_id, documentName: row.name } : null;
  }
}

/** Every key the same (whatever keys InvoiceKeys comes to have). */
function sameKeys(a: InvoiceKeys, b: InvoiceKeys): boolean {
  const names = Object.keys(b) as (keyof InvoiceKeys)[];
  return names.length === Object.keys(a).length && names.every((name) => a[name] === b[name]);
}
