/**
 * A document's freshly read pages with the project's supplier memory laid over their invoice fields, in the engine's
 * shape (`fields.invoice` plain values, `fields.invoiceSources` per field: text, label, boxes, confidence, source).
 *
 * Memory reads the document as it learned it: its pages stacked page under page (as `learnFromDocument` stacks them),
 * recognised once, cross-checked with the generic reading of the whole document. Each value is then put on the page
 * it is printed on — the number and dates on the first, the totals on the last — and taken off the pages before it,
 * so the review screen's merge (first page that has a field: review/documentView.ts) shows memory's value with its
 * page. Each value memory read or checked says `source: 'supplier memory'`, the lesson's page (`taughtBy`) and its
 * evidence; the supplier is kept as `fields.supplierMemory` with what memory replaced, so a later pass (the
 * document's last page read) can take the overlay off and lay it again. Pages of no known supplier come back as
 * they were.
 */
import type { Extraction, Word } from '../../model/extraction.js';
import { documentExtraction, emptyInvoiceFields, stackPageWords } from '../documentFields.js';
import { extractInvoiceFields, toPlainFields, type PlainInvoiceFields } from '../extractFields.js';
import { readFieldValues } from '../review/engineFields.js';
import type { SupplierTrackRecord } from './lessonSchema.js';
import { readWithMemory } from './memoryReading.js';
import { genericScores, storedScores, type GenericScores } from './pageTrust.js';
import type { MemoryValue } from './readThroughMemory.js';
import type { SupplierIndex } from './recogniseSupplier.js';

export const MEMORY_SOURCE = 'supplier memory';

/** What `fields.supplierMemory` holds on a page read through memory. */
export interface PageSupplier {
  supplierId: string;
  supplierName: string;
  taughtBy: string;
  recognition: string[];
}

/** A field's value and source on a page before memory changed them (absent: the page had none). */
interface Replaced {
  value?: unknown;
  source?: unknown;
}

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);

/** The page as the engine read it: memory's values taken off, what they replaced put back. */
export function withoutSupplierMemory(extraction: Extraction): Extraction {
  const memory = record(extraction.fields?.supplierMemory);
  if (!memory) return extraction;
  const replaced = record(memory.replaced) ?? {};
  const values: Fields = { ...(record(extraction.fields?.invoice) ?? {}) };
  const sources: Fields = { ...(record(extraction.fields?.invoiceSources) ?? {}) };
  for (const [key, before] of Object.entries(replaced)) {
    const was = record(before) ?? {};
    if ('value' in was) values[key] = was.value;
    else delete values[key];
    if ('source' in was) sources[key] = was.source;
    else delete sources[key];
  }
  const fields: Fields = { ...extraction.fields };
  delete fields.supplierMemory;
  const hadInvoice = memory.hadInvoice !== false;
  if (hadInvoice) Object.assign(fields, { invoice: values, invoiceSources: sources });
  else {
    delete fields.invoice;
    delete fields.invoiceSources;
  }
  return { ...extraction, fields };
}

/** The index of the page a height of the stacked document falls on. */
function pageAt(pages: readonly Extraction[], y: number): number {
  let top = 0;
  for (let i = 0; i < pages.length; i++) {
    top += pages[i]!.page.height;
    if (y < top) return i;
  }
  return pages.length - 1;
}

/** One page being changed: its values, sources and what memory replaced on it. */
interface Draft {
  values: Fields;
  sources: Fields;
  replaced: Record<string, Replaced>;
  hadInvoice: boolean;
  touched: boolean;
}

function draftOf(page: Extraction): Draft {
  const invoice = record(page.fields?.invoice);
  return { values: { ...(invoice ?? {}) }, sources: { ...(record(page.fields?.invoiceSources) ?? {}) }, replaced: {}, hadInvoice: invoice !== null, touched: false };
}

function replace(draft: Draft, key: string, value: unknown, source: unknown): void {
  if (!(key in draft.replaced)) {
    const before: Replaced = {};
    if (key in draft.values) before.value = draft.values[key];
    if (key in draft.sources) before.source = draft.sources[key];
    draft.replaced[key] = before;
  }
  draft.values[key] = value;
  if (source === undefined) delete draft.sources[key];
  else draft.sources[key] = source;
  draft.touched = true;
}

/** The generic reading memory is checked against, with each field's confidence and evidence. */
function genericReading(bare: readonly Extraction[], words: readonly Word[], invoicePage: Extraction | undefined): { plain: PlainInvoiceFields; scores: GenericScores } {
  // A document none of whose pages the engine took for an invoice is read generically here: memory may know better.
  if (!invoicePage) {
    const fields = extractInvoiceFields({ words });
    return { plain: toPlainFields(fields), scores: genericScores(fields, words.map((w) => w.text).join(' ')) };
  }
  // One page: what the engine stored, its confidence with it.
  if (bare.length === 1) return { plain: readFieldValues(record(invoicePage.fields?.invoice)!), scores: storedScores(record(invoicePage.fields?.invoiceSources)) };
  const read = documentExtraction(bare);
  return read ? { plain: toPlainFields(read.fields), scores: genericScores(read.fields, read.text) } : { plain: emptyInvoiceFields(), scores: {} };
}

/**
 * The page where memory shows the invoice starts, when the engine took no page before it for an invoice page: the
 * first page memory read a field on where its lesson says (a number heading a cover page). A document with no
 * invoice page starts on its first page once memory read any field of it. Null: the engine's first invoice page
 * stands.
 */
function invoiceHead(bare: readonly Extraction[], drafts: readonly Draft[], fields: Partial<Record<string, MemoryValue>>): number | null {
  const read = Object.values(fields).flatMap((f) => (f?.y === undefined ? [] : [pageAt(bare, f.y)]));
  if (read.length === 0) return null;
  const engineFirst = drafts.findIndex((d) => d.hadInvoice);
  if (engineFirst < 0) return 0;
  const first = Math.min(...read);
  return first < engineFirst ? first : null;
}

/** `pages` in page order (one document); the same pages back, memory laid over those it read. */
export function overlayDocumentMemory(pages: readonly Extraction[], index: SupplierIndex, records: ReadonlyMap<string, SupplierTrackRecord>): Extraction[] {
  const bare = pages.map(withoutSupplierMemory);
  if (index.size === 0) return bare;
  const words = bare.length === 1 ? (bare[0]!.words ?? []) : stackPageWords(bare);
  const invoicePage = bare.find((p) => record(p.fields?.invoice));
  const { plain: generic, scores } = genericReading(bare, words, invoicePage);
  const memory = readWithMemory(words, generic, index, records, scores);
  if (!memory) return bare;
  const drafts = bare.map(draftOf);
  const head = invoiceHead(bare, drafts, memory.fields);
  if (!invoicePage && head === null) return bare;
  if (head !== null) {
    // The invoice starts on a page the engine did not take for one: that page takes the document's own reading (the
    // one memory was checked against) where a later page's own reading, which the merge would show, says otherwise
    // or nothing; where they agree, the later page keeps it with its boxes.
    for (const [key, value] of Object.entries(generic)) {
      if (value === null || key === 'lines') continue;
      const later = drafts.slice(head + 1).find((d) => d.values[key] !== null && d.values[key] !== undefined)?.values[key];
      if (later !== undefined && String(later) === String(value)) continue;
      const score = scores[key as keyof GenericScores];
      replace(drafts[head]!, key, value, { text: String(value), label: score?.label ?? null, boxes: [], confidence: score?.confidence ?? null, source: 'page' });
    }
  }
  const firstInvoicePage = head ?? Math.max(0, drafts.findIndex((d) => d.hadInvoice));
  for (const [key, read] of Object.entries(memory.fields) as [string, MemoryValue][]) {
    // Where the value is printed: the page memory read it on, or where the page reading has it; carried values
    // (the seller's name, the currency) head the first page.
    const printedOn = drafts.findIndex((d) => d.values[key] !== null && d.values[key] !== undefined && String(d.values[key]) === String(read.value));
    const target = read.y !== undefined ? pageAt(bare, read.y) : printedOn >= 0 ? printedOn : firstInvoicePage;
    const draft = drafts[target]!;
    const generic = record(draft.sources[key]);
    const agrees = read.evidence.includes('memory:page-agrees') && String(draft.values[key]) === String(read.value);
    replace(draft, key, read.value, {
      text: read.text,
      label: read.source === MEMORY_SOURCE ? `${MEMORY_SOURCE}: ${memory.supplierName}` : ((generic?.label as string | null | undefined) ?? null),
      // The page reading's boxes show where the value is when it read the same value on this page.
      boxes: agrees || read.source !== MEMORY_SOURCE ? (generic?.boxes ?? []) : [],
      confidence: read.confidence,
      source: read.source,
      taughtBy: memory.taughtBy,
      evidence: read.evidence,
    });
    // The pages before it lose their own reading of the field: the merge takes a field from its first page.
    for (const earlier of drafts.slice(0, target)) if (earlier.values[key] !== null && earlier.values[key] !== undefined) replace(earlier, key, null, undefined);
  }
  const supplier: PageSupplier = { supplierId: memory.supplierId, supplierName: memory.supplierName, taughtBy: memory.taughtBy, recognition: memory.recognition };
  return bare.map((page, i) => {
    const draft = drafts[i]!;
    if (!draft.touched) return page;
    const stamp = { ...supplier, replaced: draft.replaced, hadInvoice: draft.hadInvoice };
    return { ...page, fields: { ...page.fields, invoice: draft.values, invoiceSources: draft.sources, supplierMemory: stamp } };
  });
}

/** One page read alone (a one-page document, or `recto ocr` page by page) through memory. */
export function overlaySupplierMemory(extraction: Extraction, index: SupplierIndex, records: ReadonlyMap<string, SupplierTrackRecord>): Extraction {
  return overlayDocumentMemory([extraction], index, records)[0]!;
}

/** The supplier a stored page was read through, where it was. */
export function pageSupplierOf(extraction: Pick<Extraction, 'fields'> | null): PageSupplier | null {
  const s = record(extraction?.fields?.supplierMemory);
  return s && typeof s.supplierId === 'string' && typeof s.supplierName === 'string' && typeof s.taughtBy === 'string'
    ? { supplierId: s.supplierId, supplierName: s.supplierName, taughtBy: s.taughtBy, recognition: Array.isArray(s.recognition) ? s.recognition.filter((e): e is string => typeof e === 'string') : [] }
    : null;
}

/** The values memory proposed on a stored page (for kept / corrected once the analyst confirms it). */
export function memoryProposals(extraction: Pick<Extraction, 'fields'> | null): Record<string, string | number> {
  const invoice = record(extraction?.fields?.invoice);
  const sources = record(extraction?.fields?.invoiceSources);
  const out: Record<string, string | number> = {};
  if (!invoice || !sources) return out;
  for (const [key, source] of Object.entries(sources)) {
    const value = invoice[key];
    if (record(source)?.source === MEMORY_SOURCE && (typeof value === 'string' || typeof value === 'number')) out[key] = value;
  }
  return out;
}
