/**
 * Supplier memory's two hooks into the project: a page read into the project is read through its memory
 * (`withSupplierMemory`, called by the reading queue for the app, re-reads and `recto ocr --project` alike), and a
 * document whose fields the analyst corrected teaches it (`learnFromDocument`, after every save and undo of a field).
 * A document teaches while it holds a correction not taken back, or once approved: undoing its last correction takes
 * its lesson back unless the analyst approved it (forgetting the supplier does).
 */
import { confirmedOf, learnLesson, memoryPage, memoryProposals, overlayDocumentMemory, overlaySupplierMemory, pageSupplierOf, scoreAgainst, type MemoryField } from '../../app/invoice/supplierMemory/index.js';
import { stackPageWords } from '../../app/invoice/index.js';
import type { FieldRevision } from '../../app/contract/fields.js';
import type { Extraction } from '../../app/model/extraction.js';
import { carrySupplierMemoryFromCorpus } from '../corpus/supplierMemoryFile.js';
import type { ProjectStore } from '../store/projectStore.js';
import { carrySupplierMemoryFrom } from '../store/supplierMemoryTransfer.js';

/** Memory helps a reading and never stops one: should it fail, the page keeps the engine's fields and says why. */
export function withSupplierMemory(store: ProjectStore, extraction: Extraction): Extraction {
  try {
    const memory = store.supplierMemory;
    return overlaySupplierMemory(extraction, memory.index(), memory.trackRecords());
  } catch (error) {
    return { ...extraction, warnings: [...extraction.warnings, `supplier memory not applied: ${(error as Error).message}`] };
  }
}

/**
 * Once all of a document's pages are read: memory over the whole document (its pages stacked, as it learned them),
 * each value on the page that prints it. Pages whose overlay changed are saved again; a document the analyst has
 * begun to correct is left as it is (the corrections were made against what was shown). Returns the pages changed.
 */
export function readDocumentThroughMemory(store: ProjectStore, documentId: string): string[] {
  try {
    const pageIds = store.documents.getDocument(documentId).pages.map((p) => p.id);
    if (pageIds.length < 2 || store.fieldRevisions.list(pageIds[0]!).length > 0) return [];
    const read = pageIds.map((id) => ({ id, extraction: store.readings.latestExtractionOrNull(id) }));
    if (read.some((r) => r.extraction === null)) return [];
    const memory = store.supplierMemory;
    const overlaid = overlayDocumentMemory(read.map((r) => r.extraction!), memory.index(), memory.trackRecords());
    const changed = read.filter((r, i) => JSON.stringify(r.extraction!.fields ?? null) !== JSON.stringify(overlaid[i]!.fields ?? null));
    for (const r of changed) store.readings.updateLatestExtraction(r.id, overlaid[read.indexOf(r)]!);
    return changed.map((r) => r.id);
  } catch {
    return []; // each page keeps its own reading through memory
  }
}

/** Revisions not taken back by a later undo. */
function openRevisions(revisions: readonly FieldRevision[]): FieldRevision[] {
  const undone = new Set(revisions.flatMap((r) => (r.undoes ? [r.undoes] : [])));
  return revisions.filter((r) => !r.undoes && !undone.has(r.id));
}

/** `approved`: the analyst approved the values as they stand (a lesson even without a correction). */
export function learnFromDocument(store: ProjectStore, pageId: string, approved = false): void {
  const documentId = store.documents.getPage(pageId).documentId;
  const revisions = store.fieldRevisions.list(pageId);
  if (!approved && openRevisions(revisions).length === 0) {
    store.supplierMemory.unteach(documentId);
    return;
  }
  const pageIds = store.fieldRevisions.documentPageIds(pageId);
  const extractions = pageIds.map((id) => store.readings.latestExtractionOrNull(id)).filter((e): e is Extraction => e !== null);
  if (extractions.length === 0) return;
  const words = stackPageWords(extractions);
  const confirmed = confirmedOf(store.fieldRevisions.currentValues(pageId));
  const page = memoryPage(words);
  const lesson = learnLesson(words, confirmed, page);
  const readThrough = extractions.map(pageSupplierOf).find((s) => s !== null) ?? null;
  const proposed = Object.assign({}, ...extractions.map(memoryProposals)) as Partial<Record<MemoryField, string | number>>;
  const outcome = readThrough ? scoreAgainst(proposed, confirmed) : { kept: 0, corrected: 0 };
  // The supplier it was read through, or the one its page is recognised as — unless the analyst confirmed another
  // seller's name: then it teaches a supplier of that name.
  const index = store.supplierMemory.index();
  const fits = (id: string | null | undefined): string | null => (id && index.fitsName(id, confirmed.seller) ? id : null);
  const supplierId = store.supplierMemory.supplierOf(documentId) ?? fits(readThrough?.supplierId) ?? fits(index.recognise(page)?.supplierId) ?? null;
  store.supplierMemory.teach({ documentId, pageId: pageIds[0] ?? pageId, lesson, supplierId, newName: confirmed.seller ?? 'Unnamed supplier', outcome, approved });
}

/**
 * An invoice approved whole confirms its values as they stand: the document teaches (as `suppliers.approve` does) and
 * the values memory read on it count as kept or corrected in its supplier's track record. Approving one page of a
 * document whose other pages wait, or a page that is no invoice (no fields read or corrected), confirms nothing.
 * Memory confirms no bank account: an IBAN an approval brings into memory stays unconfirmed unless that approval was
 * not over a bank-account exception (bankAccounts.ts decides, from the approval's seal, not from memory).
 */
export function learnFromApproval(store: ProjectStore, pageId: string): void {
  try {
    const doc = store.documents.getDocument(store.documents.getPage(pageId).documentId);
    if (!doc.pages.every((p) => p.reviewStatus === 'approved')) return;
    if (store.fieldRevisions.documentEngine(pageId) === null && store.fieldRevisions.list(pageId).length === 0) return;
    learnFromDocument(store, pageId, true);
  } catch (error) {
    // Memory helps and never stops an approval, which is already recorded: the lesson waits for the next correction.
    console.warn(`supplier memory did not learn from the approval of page ${pageId}: ${(error as Error).message}`);
  }
}

/**
 * Memory travels with the corrections that taught it: after a merge or a corpus import brings in corrected documents,
 * each one that has taught nothing yet (nor was given a lesson by the other side) teaches now.
 */
export function learnFromUntaughtDocuments(store: ProjectStore): number {
  const pages = store.supplierMemory.untaughtCorrectedPages();
  for (const pageId of pages) learnFromDocument(store, pageId);
  return pages.length;
}

/**
 * After a merge: the other project's memory as it is there (names, merges, approvals), then what corrections teach.
 * Returns what it changed about suppliers' accounts, in words: each IBAN or VAT ID memory now holds that it did not
 * before — unconfirmed until an analyst confirms it (bankAccounts.ts), as the merge command prints.
 */
export function takeSupplierMemoryFromProject(store: ProjectStore, otherFile: string): string[] {
  const before = identifiersBySupplier(store);
  carrySupplierMemoryFrom(store, otherFile);
  learnFromUntaughtDocuments(store);
  return identifierChanges(before, identifiersBySupplier(store));
}

function identifiersBySupplier(store: ProjectStore): Map<string, { name: string; ids: Set<string> }> {
  return new Map(store.supplierMemory.list().map((s) => [s.id, { name: s.name, ids: new Set([...s.ibans.map((v) => `IBAN ${v}`), ...s.vatIds.map((v) => `VAT ID ${v}`)]) }]));
}

function identifierChanges(before: ReturnType<typeof identifiersBySupplier>, after: ReturnType<typeof identifiersBySupplier>): string[] {
  const lines: string[] = [];
  for (const [id, { name, ids }] of after) {
    const old = before.get(id)?.ids ?? new Set<string>();
    const added = [...ids].filter((v) => !old.has(v));
    if (added.length > 0) lines.push(`supplier ${name}: memory now holds ${added.join(', ')} (unconfirmed until confirmed in the Suppliers view)`);
  }
  return lines;
}

/** After a corpus import: its `suppliers.jsonl`, then what corrections teach; the file's problems, to report. */
export function takeSupplierMemoryFromCorpus(store: ProjectStore, dir: string): { where: string; reason: string }[] {
  const { problems } = carrySupplierMemoryFromCorpus(store, dir);
  learnFromUntaughtDocuments(store);
  return problems;
}
