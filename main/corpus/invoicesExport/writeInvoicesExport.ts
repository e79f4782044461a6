/**
 * `recto export P --format invoices` and the UI's "Export invoices": the approved invoices as tables an ERP or a
 * spreadsheet reads (invoices.csv, lines.csv, invoices.jsonl) and, for each, an EN 16931 e-invoice
 * (UBL 2.1 or CII): the document's own XML byte for byte where it is valid, uncorrected and of the syntax and CIUS
 * asked (originalEInvoice.ts), else generated from the reviewed fields and validated by the native engine before it
 * is written (app/invoices/einvoiceOut); either one also against its XSD (the schema layer). An invoice that cannot
 * become a valid e-invoice is listed with the BTs it lacks (`XSD` for a schema error).
 *
 * Each invoice once (docs/invoices-export.md): only approved invoices go out (an unreviewed, in-review or rejected
 * one never does), and of those only the ones this channel (syntax and CIUS) has not sent under their current
 * approval — `allApproved` sends every approved one again. An invoice sent before under an approval that has since
 * been reopened goes out again once re-approved, marked as a correction of the export that sent it. The export is
 * recorded in the project (invoiceExports.ts: who, when, the channel, each file's SHA-256, which invoices under which
 * approval) only after its files are in place: a crash in between leaves those invoices unrecorded, so the next
 * export sends them again — never an invoice recorded as sent that was not.
 *
 * The folder is handled as the corpus export handles its own: a folder holding a symbolic link or special file is
 * refused, a non-empty folder that is not an earlier invoices export is refused, every path is a fixed name or a
 * file name made from the document id (never from a value inside the project), everything is written under a
 * staging folder first and moved in with link-checked renames (main/util/containedPaths.ts), invoices-export.json last.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MissingTerm } from '../../../app/invoices/einvoiceOut/einvoicePlan.js';
import { generateEInvoice, type EInvoiceFormat, type GeneratedEInvoice } from '../../../app/invoices/einvoiceOut/generateEInvoice.js';
import { originalEInvoiceFor } from '../../../app/invoices/einvoiceOut/originalEInvoice.js';
import { invoiceJson, invoicesCsv, linesCsv, type EInvoiceOutcome } from '../../../app/invoices/invoiceTables.js';
import type { ReviewedInvoice } from '../../../app/invoices/reviewedInvoice.js';
import type { ProjectStore } from '../../store/projectStore.js';
import { checkSchemaNow } from '../../import/einvoiceSchemaCheck.js';
import { findUnsafeEntry, readFileInside, removeFileInside, renameInside, writeFileInside } from '../../util/containedPaths.js';
import { reviewedInvoiceOf } from './collectInvoices.js';
import { CodedError, errorCodes } from '../../../app/contract/wire.js';
import { poMatchColumnsOf } from '../../masterData/matchDocument.js';
import type { DocumentSummary } from '../../../app/model/page.js';
import { invoiceExportChannel, type ExportedFile } from '../../store/invoiceExports.js';
import { osAccountName } from '../../store/reviewEvents.js';
import { randomUUID } from 'node:crypto';

export const INVOICES_MANIFEST = 'invoices-export.json';
const STAGING = '.recto-invoices-staging';
const EINVOICE_FOLDER = 'einvoices';
/** The statuses that go out (tables and e-invoice): an invoice nobody approved, or whose approval no longer holds, is never sent. */
const EINVOICE_STATUSES = new Set(['approved', 'approved-with-exceptions']);
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The only names an invoices export writes; a previous manifest naming anything else is not followed. */
const OWN_FILE = /^(?:einvoices\/[A-Za-z0-9_-]{1,64}\.(?:ubl|cii)\.xml|invoices\.csv|lines\.csv|invoices\.jsonl)$/;

export class InvoicesExportRefusedError extends CodedError {
  override name = 'InvoicesExportRefusedError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

export interface InvoicesExportOptions {
  outDir: string;
  syntax: EInvoiceFormat;
  xrechnung?: boolean;
  /** Send every approved invoice, also those this channel sent before under the same approval. */
  allApproved?: boolean;
  /** Who exports (the reviewer name setting); the OS account is recorded beside it. */
  reviewer?: string | null;
  onProgress?: (done: number, total: number) => void;
}

export interface InvoicesExportSummary {
  outDir: string;
  invoices: number;
  einvoicesWritten: number;
  /** Approved invoices without an e-invoice, with the terms each lacks. */
  notWritten: { documentId: string; file: string; missing: string[] }[];
  files: string[];
  /** The export's id in the project's record (and in invoices-export.json). */
  exportId: string;
  allApproved: boolean;
  /** Approved invoices not written because this channel sent them before under the same approval. */
  alreadyExported: number;
  /** Invoices written again under a new approval, each a correction of an earlier export. */
  corrections: number;
}

export class InvoicesExportNotRecordedError extends CodedError {
  override name = 'InvoicesExportNotRecordedError';
  constructor(outDir: string, cause: unknown) {
    super(
      errorCodes.internal,
      `${outDir}: the files were written but the export could not be recorded in the project (${cause instanceof Error ? cause.message : String(cause)}); ` +
        'its invoices count as not exported and go out again with the next export',
    );
  }
}

/**
 * The approval an approved invoice stands on: its pages' latest review events (the approvals), by id — a re-approval
 * is a new one. Asked only of an invoice whose approval holds (collectInvoices.ts checked the seals).
 */
function approvalOf(store: ProjectStore, doc: DocumentSummary): string {
  return doc.pages
    .map((page) => store.reviewEvents.latest(page.id)?.id ?? '')
    .sort()
    .join(' ');
}

interface Manifest {
  format: 'recto-invoices';
  version: 1;
  project: string;
  files: string[];
  exported_at?: string;
  invoices?: number;
  /** SHA-256 of each file written (exports since "each invoice once"). */
  sha256?: Record<string, string>;
}

/**
 * An earlier export still lying in the folder as it was written: its invoices count as exported, so replacing its
 * tables before the ERP took them would lose those invoices. One that sent nothing, one whose invoices.csv is gone or
 * changed (taken away, or an export older than the hashes) may be replaced.
 */
function untakenInvoices(outDir: string, previous: Manifest): number {
  const expected = previous.sha256?.['invoices.csv'];
  if (!expected || !previous.invoices) return 0;
  try {
    return createHash('sha256').update(readFileInside(outDir, 'invoices.csv')).digest('hex') === expected ? previous.invoices : 0;
  } catch {
    return 0;
  }
}

function readManifest(outDir: string): Manifest | null {
  try {
    const manifest = JSON.parse(readFileInside(outDir, INVOICES_MANIFEST).toString('utf8')) as Manifest;
    return manifest.format === 'recto-invoices' && Array.isArray(manifest.files) ? manifest : null;
  } catch {
    return null;
  }
}

/** The previous invoices export in the folder; throws InvoicesExportRefusedError for a folder holding anything else. */
function checkFolder(outDir: string): Manifest | null {
  if (!fs.existsSync(outDir)) return null;
  if (!fs.lstatSync(outDir).isDirectory()) throw new InvoicesExportRefusedError(`${outDir}: exists and is not a folder — nothing was written`);
  const unsafe = findUnsafeEntry(outDir);
  if (unsafe) throw new InvoicesExportRefusedError(`${outDir}: ${unsafe} is a symbolic link or a special file, which a Recto export never holds — nothing was written`);
  fs.rmSync(path.join(outDir, STAGING), { recursive: true, force: true });
  if (fs.readdirSync(outDir).length === 0) return null;
  const manifest = readManifest(outDir);
  if (!manifest) throw new InvoicesExportRefusedError(`${outDir}: the folder is not empty and is not a Recto invoices export (no valid ${INVOICES_MANIFEST}); choose an empty or new folder — nothing was written`);
  return manifest;
}

/** The e-invoice's file name: the document id where it is a plain token, its hash otherwise (a hostile id never names a path). */
function einvoiceFile(documentId: string, syntax: EInvoiceFormat): string {
  const stem = SAFE_ID.test(documentId) ? documentId : createHash('sha256').update(documentId).digest('hex').slice(0, 32);
  return `${EINVOICE_FOLDER}/${stem}.${syntax}.xml`;
}

/** Why an e-invoice fails its XSD (each schema finding as a term `XSD` lacks), or nothing where it passes. */
function schemaFailures(xml: string | Uint8Array): MissingTerm[] {
  const { verdict, findings } = checkSchemaNow(xml);
  if (!verdict.checked) return [{ bt: 'XSD', why: `${verdict.schema} not checked: ${verdict.reason}` }];
  if (verdict.valid) return [];
  return findings.map((f) => ({ bt: 'XSD', why: `${verdict.schema}${f.xmlLine !== undefined ? ` (XML line ${f.xmlLine})` : ''}: ${f.message}` }));
}

function withSchemaChecked(generated: GeneratedEInvoice): GeneratedEInvoice {
  if (!generated.ok) return generated;
  const failures = schemaFailures(generated.xml);
  return failures.length === 0 ? generated : { ok: false, missing: failures, failedRules: failures.map((f) => ({ id: 'XSD', message: f.why })) };
}

/**
 * The approved invoices out (see above). Each e-invoice is checked against its XSD on this thread before it is
 * written (main/import/einvoiceSchemaCheck.ts, each XSD compiled once per process): await loadSchemaLayer() first.
 */
export function exportInvoices(store: ProjectStore, options: InvoicesExportOptions): InvoicesExportSummary {
  const outDir = path.resolve(options.outDir);
  const previous = checkFolder(outDir);
  const untaken = previous ? untakenInvoices(outDir, previous) : 0;
  if (untaken > 0) {
    throw new InvoicesExportRefusedError(
      `${outDir}: holds the invoices export of ${previous?.exported_at ?? 'an earlier run'} with ${untaken} invoice(s), as it was written — they count as exported ` +
        'and a new export here would replace them; let the ERP take its files (or move them away) first, or choose a new folder — nothing was written',
    );
  }
  const documents = store.documents.listDocuments();
  const rows: { invoice: ReviewedInvoice; einvoice: EInvoiceOutcome; correctionOf: { exportId: string; exportedAt: string } | null }[] = [];
  const channel = invoiceExportChannel(options.syntax, options.xrechnung ?? false);
  const allApproved = options.allApproved ?? false;
  const sent: { documentId: string; approval: string; correctionOf: string | null }[] = [];
  let alreadyExported = 0;
  const notWritten: InvoicesExportSummary['notWritten'] = [];
  const createdFolder = !fs.existsSync(outDir);
  fs.mkdirSync(outDir, { recursive: true });
  const staging = path.join(outDir, STAGING);
  fs.mkdirSync(staging);
  let finished = false;
  try {
    // Each e-invoice goes to the staging folder as soon as it is validated: ten thousand XMLs are never held at once.
    const staged = new Set<string>();
    const hashOf = new Map<string, string>();
    const stage = (file: string, text: string | Buffer) => {
      writeFileInside(staging, file, text);
      staged.add(file);
      hashOf.set(file, createHash('sha256').update(text).digest('hex'));
    };
    documents.forEach((doc, i) => {
      options.onProgress?.(i, documents.length);
      const invoice = reviewedInvoiceOf(store, doc);
      // Only approved invoices go out; each once per channel under its approval.
      if (!invoice || !EINVOICE_STATUSES.has(invoice.status)) return;
      const approval = approvalOf(store, doc);
      const last = store.invoiceExports.lastOnChannel(doc.id, channel);
      if (last && last.approval === approval && !allApproved) {
        alreadyExported += 1;
        return;
      }
      const correctionOf = last && last.approval !== approval ? { exportId: last.exportId, exportedAt: last.exportedAt } : null;
      sent.push({ documentId: doc.id, approval, correctionOf: correctionOf?.exportId ?? null });
      if (last && last.approval === approval) alreadyExported += 1;
      invoice.poMatch = poMatchColumnsOf(store, doc.id, invoice);
      const einvoice: EInvoiceOutcome = { file: null, origin: null, missing: [] };
      // The document's own XML goes out byte for byte where it is valid, uncorrected and of the syntax and CIUS asked.
      const stored = store.einvoices.getStored(doc.id);
      const original = stored?.status === 'stored' ? Buffer.from(stored.xml) : null;
      // Each goes out only if its XSD also passes (the schema layer, beside the rules both checks ran): an original that
      // fails it is generated instead, a generated one that fails it is not written.
      const generated = original && originalEInvoiceFor(invoice, original.toString('utf8'), options.syntax, { xrechnung: options.xrechnung }).use && schemaFailures(original).length === 0
        ? ({ ok: true, xml: original, origin: 'original' } as const)
        : { ...withSchemaChecked(generateEInvoice(invoice, options.syntax, { xrechnung: options.xrechnung })), origin: 'generated' as const };
      if (generated.ok) {
        einvoice.file = einvoiceFile(doc.id, options.syntax);
        einvoice.origin = generated.origin;
        stage(einvoice.file, generated.xml);
      } else {
        einvoice.missing = generated.missing;
        notWritten.push({ documentId: doc.id, file: doc.name, missing: [...new Set(generated.missing.map((m) => m.bt))] });
      }
      rows.push({ invoice, einvoice, correctionOf });
    });
    stage('invoices.csv', invoicesCsv(rows));
    stage('lines.csv', linesCsv(rows.map((r) => r.invoice)));
    stage('invoices.jsonl', rows.map((r) => `${invoiceJson(r.invoice, r.einvoice, r.correctionOf)}\n`).join(''));
    const files = [...staged].sort();
    const exportId = randomUUID();
    const exportedAt = new Date().toISOString();
    const hashes: ExportedFile[] = files.map((file) => ({ file, sha256: hashOf.get(file)! }));
    const manifest: Manifest & Record<string, unknown> = {
      format: 'recto-invoices',
      version: 1,
      project: store.info().name,
      export_id: exportId,
      exported_at: exportedAt,
      channel,
      syntax: options.syntax,
      xrechnung: options.xrechnung ?? false,
      all_approved: allApproved,
      invoices: rows.length,
      already_exported: alreadyExported,
      corrections: rows.filter((r) => r.correctionOf).length,
      einvoices_written: files.filter((f) => f.startsWith(`${EINVOICE_FOLDER}/`)).length,
      einvoices_not_written: notWritten,
      files,
      sha256: Object.fromEntries(hashes.map((h) => [h.file, h.sha256])),
    };
    stage(INVOICES_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);

    // Everything is staged: move it in (the manifest last) and remove what the previous export wrote and this one did not.
    for (const file of [...files, INVOICES_MANIFEST]) renameInside(staging, outDir, file);
    for (const old of previous?.files ?? []) if (OWN_FILE.test(old) && !staged.has(old)) removeFileInside(outDir, old);
    finished = true;
    // Recorded only now that the files are in place (one transaction): a crash before this line leaves these invoices
    // unrecorded, so they go out again — an invoice is never recorded as sent that was not.
    try {
      store.invoiceExports.record({
        id: exportId,
        exportedAt,
        reviewer: options.reviewer ?? null,
        osAccount: osAccountName(),
        channel,
        allApproved,
        outDir,
        files: hashes,
        items: sent,
      });
    } catch (error) {
      throw new InvoicesExportNotRecordedError(outDir, error);
    }
    options.onProgress?.(documents.length, documents.length);
    return {
      outDir,
      invoices: rows.length,
      einvoicesWritten: manifest.einvoices_written as number,
      notWritten,
      files,
      exportId,
      allApproved,
      alreadyExported,
      corrections: manifest.corrections as number,
    };
  } finally {
    // A failed export leaves the folder as it was (nothing moved in before everything was staged; a folder it made, gone).
    fs.rmSync(staging, { recursive: true, force: true });
    if (!finished && createdFolder) fs.rmSync(outDir, { recursive: true, force: true });
  }
}
