/**
 * The real e-invoice PDFs of ../shared/testdata (einvoices/ and einvoice-corpus/) through the app's own path, approved
 * as they stand: imported into one project, read by the bundled engine with their XML attached, then per document the
 * exceptions an approval would ask a reason for (approvalCheck, as the review screen's prompt lists them), then every
 * one approved (with a reason where it has exceptions) and the project exported as invoices, in UBL and in CII.
 *
 * Each exception is counted as
 * - **the document's own**: a rule failing on the values the document holds (its XML's, for an e-invoice), a term
 *   it lacks, its XML's fatal EN 16931 failures (possible duplicates are counted apart: see `duplicates`);
 * - **from reading**: something only Recto's reading of the page raised — the page ≠ XML disagreements, of fields
 *   and of payment identifiers (PAYMENT-XML).
 * The figures are split by family group (bench/fields/heldOutFamilies.ts: einvoice-corpus's whole seller families,
 * hash-picked and frozen; einvoices/ is development): report the held-out group's.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateEInvoiceXml } from '../../app/en16931/index.js';
import type { DocumentSummary } from '../../app/model/page.js';
import { exportInvoices } from '../../main/corpus/invoicesExport/writeInvoicesExport.js';
import { loadSchemaLayer } from '../../main/import/einvoiceSchemaCheck.js';
import { approvalCheck, approve } from '../../main/services/approval.js';
import { contractOf, sessionIn } from '../../testing/realInvoiceProject.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { splitFamilies, type FamilyGroup } from '../fields/heldOutFamilies.js';
import { readStudiedSellers } from '../fields/studiedRelatives.js';

/** Rules that compare Recto's page reading with the XML: what they raise comes from reading, not from the document. */
const FROM_READING_RULES = ['PAYMENT-XML'];

export interface GroupFigures {
  /** Approved e-invoices (documents whose XML was read) and those whose XML is valid (no fatal EN 16931 failure). */
  einvoices: number;
  validXml: number;
  /** Rules failing on the document's values, terms it lacks, its XML's fatal failures. */
  exceptionsOwn: number;
  exceptionsFromReading: number;
  /**
   * Possible duplicates, counted apart: the test set holds the same invoices rendered by several producers (same
   * seller and number), so in one project they are duplicates of each other — a property of the set, not of a document.
   */
  duplicates: number;
  /** Exceptions from reading on invoices whose XML is valid (the target: 0). */
  fromReadingOnValid: number;
  /** Of the valid ones, written as an e-invoice by the export in each syntax (original or generated). */
  writtenUbl: number;
  writtenCii: number;
  /**
   * The same, for valid XML that is EN 16931 itself (CII D16B or UBL, not ZUGFeRD 1.0): a ZUGFeRD 1.0 XML is valid by
   * its own standard, which predates EN 16931, and can only be written where it states every term EN 16931 requires.
   */
  validEn16931: number;
  writtenEn16931Ubl: number;
  writtenEn16931Cii: number;
  /**
   * The valid ones not written, each with the BTs the export listed ("name (ubl): BT-118"). Left empty for the held-out
   * group: its score is read, never its failures.
   */
  notWrittenValid: string[];
}

const emptyFigures = (): GroupFigures => ({ einvoices: 0, validXml: 0, exceptionsOwn: 0, exceptionsFromReading: 0, duplicates: 0, fromReadingOnValid: 0, writtenUbl: 0, writtenCii: 0, validEn16931: 0, writtenEn16931Ubl: 0, writtenEn16931Cii: 0, notWrittenValid: [] });

interface TruthFile {
  [name: string]: { family?: string };
}

function documentsOf(testdataRoot: string): { file: string; family: string | null }[] {
  const out: { file: string; family: string | null }[] = [];
  for (const set of ['einvoices', 'einvoice-corpus']) {
    const truthPath = path.join(testdataRoot, set, 'truth.json');
    if (!existsSync(truthPath)) continue;
    const truth = JSON.parse(readFileSync(truthPath, 'utf8')) as TruthFile;
    for (const [name, entry] of Object.entries(truth)) out.push({ file: path.join(testdataRoot, set, 'pdfs', name), family: set === 'einvoice-corpus' ? (entry.family ?? null) : null });
  }
  return out.filter((d) => existsSync(d.file));
}

/** A failed rule's detail is `RULE: message` (app/review/attention.ts). */
const fromReading = (exception: { kind: string; detail: string }): boolean =>
  exception.kind === 'xml-disagreement' || FROM_READING_RULES.some((rule) => exception.detail.startsWith(`${rule}:`));

/** Null where the test set is absent. */
export async function benchEInvoiceApproval(testdataRoot = defaultTestdataRoot): Promise<Record<FamilyGroup | 'all', GroupFigures> | null> {
  const documents = documentsOf(testdataRoot);
  if (documents.length === 0) return null;
  const split = splitFamilies(documents.flatMap((d) => (d.family ? [d.family] : [])), readStudiedSellers(testdataRoot));
  const groupOf = (name: string): FamilyGroup => {
    const family = documents.find((d) => path.basename(d.file) === name)?.family;
    return family ? split.groupOf(family) : 'development';
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recto-bench-einvoice-approval-'));
  const session = sessionIn(dir);
  const dispatch = contractOf(session);
  const figures: Record<FamilyGroup | 'all', GroupFigures> = { development: emptyFigures(), relativeStudied: emptyFigures(), heldOut: emptyFigures(), all: emptyFigures() };
  try {
    await dispatch('project.create', { path: path.join(dir, 'einvoices.recto') });
    const imported = await dispatch('documents.importPaths', { paths: documents.map((d) => d.file) });
    if (!imported.ok) throw new Error(`documents.importPaths: ${JSON.stringify(imported)}`);
    await session.queue.idle();
    const store = session.store;
    const listed = await dispatch('documents.list', {});
    if (!listed.ok) throw new Error('documents.list failed');
    const validXml = new Set<string>();
    const zugferd1 = new Set<string>();
    const einvoiceDocs: DocumentSummary[] = [];
    for (const doc of listed.result as DocumentSummary[]) {
      const stored = store.einvoices.get(doc.id);
      const first = doc.pages[0];
      if (stored?.status !== 'read' || !first) continue;
      einvoiceDocs.push(doc);
      let valid = false;
      try {
        const report = validateEInvoiceXml(Buffer.from(stored.xml).toString('utf8'));
        valid = report.valid;
        if (report.schemaTarget?.syntax === 'ZUGFeRD-1.0') zugferd1.add(doc.id);
      } catch {
        valid = false;
      }
      if (valid) validXml.add(doc.id);
      const { exceptions } = approvalCheck(store, first.id, 'document');
      const reading = exceptions.filter(fromReading).length;
      const duplicates = exceptions.filter((e) => e.kind === 'duplicate').length;
      for (const group of [groupOf(doc.name), 'all'] as const) {
        const f = figures[group];
        f.einvoices++;
        if (valid) f.validXml++;
        if (valid && !zugferd1.has(doc.id)) f.validEn16931++;
        f.exceptionsFromReading += reading;
        f.exceptionsOwn += exceptions.length - reading - duplicates;
        f.duplicates += duplicates;
        if (valid) f.fromReadingOnValid += reading;
      }
      approve(store, { pageId: first.id, scope: 'document', reason: exceptions.length > 0 ? 'approved as it stands (benchmark)' : undefined, reviewer: 'bench' });
    }
    await loadSchemaLayer(); // the export checks each e-invoice against its XSD
    for (const syntax of ['ubl', 'cii'] as const) {
      const summary = exportInvoices(store, { outDir: path.join(dir, `out-${syntax}`), syntax });
      const written = new Set(summary.files.filter((f) => f.startsWith('einvoices/')));
      for (const doc of einvoiceDocs) {
        if (!validXml.has(doc.id)) continue;
        const group = groupOf(doc.name);
        if (![...written].some((f) => f.startsWith(`einvoices/${doc.id}.`))) {
          if (group === 'heldOut') continue;
          const missing = summary.notWritten.find((n) => n.documentId === doc.id)?.missing ?? [];
          for (const g of [group, 'all'] as const) figures[g].notWrittenValid.push(`${doc.name} (${syntax}): ${missing.join(' ') || 'not listed'}`);
          continue;
        }
        for (const g of [group, 'all'] as const) {
          figures[g][syntax === 'ubl' ? 'writtenUbl' : 'writtenCii']++;
          if (!zugferd1.has(doc.id)) figures[g][syntax === 'ubl' ? 'writtenEn16931Ubl' : 'writtenEn16931Cii']++;
        }
      }
    }
    return figures;
  } finally {
    await session.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
