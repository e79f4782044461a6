/**
 * The EN 16931 report of a document's e-invoice for the review screen and the needs-attention queue: the XML stored
 * with the document (main/store/einvoices.ts) read once into the semantic model and validated; the analyst's saved
 * corrections of the invoice fields, and unsaved drafts, applied on top with only the rules that read them re-run.
 */
import { readSemanticInvoice, validateEInvoiceXml, withSchemaVerdict, type SemanticInvoice, type ValidationReport } from '../../app/en16931/index.js';
import type { EInvoiceValidation } from '../../app/contract/einvoiceValidation.js';
import { latestCorrections } from '../../app/invoice/review/corrections.js';
import type { FieldValue } from '../../app/invoice/review/fieldPaths.js';
import { FIELD_TERMS, applyFieldEdit, revalidateTerms, schemaFindingText, type ValidatedField } from '../../app/review/einvoiceValidation.js';
import { checkSchemaNow, schemaLayerLoaded } from '../import/einvoiceSchemaCheck.js';
import { correctionsOf } from '../store/fieldRevisions.js';
import type { ProjectStore } from '../store/projectStore.js';
import { validateEInvoicesOffThread } from './validateEInvoiceOffThread.js';

interface Validated {
  fileName: string;
  invoice: SemanticInvoice;
  report: ValidationReport;
}

/** Per open project, per document: the read invoice and its report (the stored XML never changes after import). */
const cache = new WeakMap<ProjectStore, Map<string, Validated | null>>();
/** Validations under way in a worker, so that concurrent requests for one document start one worker. */
const pending = new WeakMap<ProjectStore, Map<string, Promise<void>>>();

function cacheOf(store: ProjectStore): Map<string, Validated | null> {
  let byDocument = cache.get(store);
  if (!byDocument) cache.set(store, (byDocument = new Map()));
  return byDocument;
}

/**
 * Validates the documents' e-invoices that are not validated yet in a worker thread, each with a time limit, under a heap limit
 * (validateEInvoiceOffThread.ts), so the request loop answers other requests meanwhile. Handlers await it before the
 * synchronous functions below, which then find the reports cached.
 */
export async function prepareEInvoiceReports(store: ProjectStore, documentIds: Iterable<string>): Promise<void> {
  const byDocument = cacheOf(store);
  let running = pending.get(store);
  if (!running) pending.set(store, (running = new Map()));
  const waits: Promise<void>[] = [];
  const batch: { documentId: string; fileName: string; xml: Uint8Array }[] = [];
  for (const documentId of new Set(documentIds)) {
    if (byDocument.has(documentId)) continue;
    const under = running.get(documentId);
    if (under) {
      waits.push(under);
      continue;
    }
    const stored = store.einvoices.getStored(documentId);
    if (stored?.status === 'stored') batch.push({ documentId, fileName: stored.fileName, xml: stored.xml });
    else byDocument.set(documentId, null);
  }
  if (batch.length > 0) {
    // One worker for the batch (validateEInvoiceOffThread.ts); a document whose XML cannot be read or checked in time
    // has no report (the import already showed why an XML cannot be read).
    const work = validateEInvoicesOffThread(batch.map((b) => b.xml)).then(
      (results) =>
        batch.forEach(({ documentId, fileName }, i) => {
          const result = results[i];
          // The model stays where the worker's result keeps it, deserialized on first use (an edit re-running rules).
          byDocument.set(documentId, result?.ok ? Object.defineProperty({ fileName, report: result.report } as Validated, 'invoice', { enumerable: true, get: () => result.invoice }) : null);
        }),
      () => batch.forEach(({ documentId }) => byDocument.set(documentId, null)), // no worker could be started
    );
    const settled = work.finally(() => {
      for (const { documentId } of batch) running!.delete(documentId);
    });
    for (const { documentId } of batch) running.set(documentId, settled);
    waits.push(settled);
  }
  await Promise.all(waits);
}

/**
 * The document's e-invoice validated as the XML says; null when it carries none or its XML is refused or unreadable.
 * Prepared off the main thread by prepareEInvoiceReports; a caller that did not prepare validates here, in-thread.
 */
export function documentEInvoiceReport(store: ProjectStore, documentId: string): Validated | null {
  const byDocument = cacheOf(store);
  if (byDocument.has(documentId)) return byDocument.get(documentId)!;
  const stored = store.einvoices.getStored(documentId);
  let validated: Validated | null = null;
  if (stored?.status === 'stored') {
    try {
      // The report has the business and the syntax binding rules; field edits change only the semantic model, so
      // only business rules run again on it (the syntax rules' results are those of the XML).
      let report = validateEInvoiceXml(stored.xml);
      // Where libxml2 is already loaded in this thread, the schema layer runs here too, so that a report made without
      // the worker is never "valid" on XML its XSD refuses; otherwise the report carries no schema verdict at all.
      if (report.schemaTarget && schemaLayerLoaded()) {
        const check = checkSchemaNow(stored.xml, report.schemaTarget);
        report = withSchemaVerdict(report, check.verdict, check.findings);
      }
      validated = { fileName: stored.fileName, invoice: readSemanticInvoice(stored.xml), report };
    } catch {
      validated = null; // the import already showed why the XML cannot be read
    }
  }
  byDocument.set(documentId, validated);
  return validated;
}

/** The report with the page's document's saved corrections and the given drafts applied. */
export function einvoiceValidation(
  store: ProjectStore,
  pageId: string,
  drafts: readonly { field: ValidatedField; value: FieldValue }[] = [],
): EInvoiceValidation | null {
  const page = store.documents.getPage(pageId);
  const validated = documentEInvoiceReport(store, page.documentId);
  if (!validated) return null;
  const edits = new Map<ValidatedField, FieldValue>();
  for (const [field, value] of latestCorrections(correctionsOf(store.fieldRevisions.list(pageId)))) {
    if (field in FIELD_TERMS && !(typeof value === 'object' && value !== null)) edits.set(field as ValidatedField, value);
  }
  for (const draft of drafts) edits.set(draft.field, draft.value);
  let invoice = validated.invoice;
  for (const [field, value] of edits) invoice = applyFieldEdit(invoice, field, value);
  // Edits re-run EN 16931 rules only where EN 16931 is the rule set: a ZUGFeRD 1.0 invoice keeps its own rules' report
  // (they test the XML's amounts, not the semantic model the edits change).
  const rerun = edits.size > 0 && validated.report.ruleSets.includes('en16931');
  const report = rerun ? revalidateTerms(invoice, validated.report, [...edits.keys()].map((f) => FIELD_TERMS[f])) : validated.report;
  return {
    fileName: validated.fileName,
    syntax: report.syntax,
    profile: report.profile,
    ...(report.profileName ? { profileName: report.profileName } : {}),
    ...(report.schema ? { schema: report.schema } : {}),
    ruleSets: report.ruleSets,
    valid: report.valid,
    failed: report.failed,
    edited: [...edits.keys()],
  };
}

/**
 * The needs-attention items with the fatal findings of each document's e-invoice — its schema errors and fatal rules —
 * added to its first page (where the document's invoice fields and their other rule signals sit), as `failed-rule`
 * signals: approving over them asks for a reason like any failed rule.
 */
export function withEInvoiceSignals<T extends { pageId: string; documentId: string; pageNumber: number; signals: { kind: string; detail: string }[] }>(
  store: ProjectStore,
  items: T[],
): T[] {
  return items.map((item) => {
    if (item.pageNumber !== 1) return item;
    const report = documentEInvoiceReport(store, item.documentId) ? einvoiceValidation(store, item.pageId) : null;
    const fatal = report?.failed.filter((f) => f.flag === 'fatal') ?? [];
    if (fatal.length === 0) return item;
    // The schema layer is one signal (its first error, and how many more): libxml2 lists every offending element.
    const schemaErrors = fatal.filter((f) => f.layer === 'schema');
    const more = schemaErrors.length > 1 ? ` (and ${schemaErrors.length - 1} more schema error${schemaErrors.length === 2 ? '' : 's'})` : '';
    const signals = [
      ...schemaErrors.slice(0, 1).map((f) => ({ kind: 'failed-rule' as const, detail: `${f.id} (e-invoice XML): ${schemaFindingText(f)}${more}` })),
      ...fatal.filter((f) => f.layer !== 'schema').map((f) => ({ kind: 'failed-rule' as const, detail: `${f.id} (e-invoice XML): ${f.message}` })),
    ];
    return { ...item, signals: [...item.signals, ...signals] };
  });
}
