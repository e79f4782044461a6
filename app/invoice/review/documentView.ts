/**
 * A document's invoice fields as the review screen shows them, whichever of its pages is on screen: the pages' own
 * readings merged — each scalar field from the first page that has it (the number and dates head page 1, the totals
 * often end the last page), the line items of all pages in page order — with every value's source page, so its box
 * is drawn on its own page. Corrections are the document's (field revisions kept on its first page) and use the
 * merged paths (`lines.3.amount` is the document's fourth line).
 *
 * Where the document carries an e-invoice XML, the XML is the invoice: its fields, lines and VAT breakdown are the
 * document's values (`origin: 'xml'`), and the pages' reading is kept apart (`page`) to be compared with them, never
 * to replace them — a field the XML does not state stays empty rather than taking a printed value the issuer did not
 * declare. A page value's box is kept where it prints the XML's value (so the cursor still finds it on the page).
 */
import type { Extraction } from '../../model/extraction.js';
import type { FieldPath } from '../rules/ruleTypes.js';
import { emptyFieldValues, readEngineFields, readFieldValues, valueAt, type EngineFieldValues, type FieldSourceView, type LineTerms } from './engineFields.js';
import { linePath, scalarFields, taxPath, type FieldValue } from './fieldPaths.js';

/** Amounts closer than half a cent are the same amount (the XML states more decimals than a page prints). */
const SAME_AMOUNT = 0.005;

export interface DocumentFieldSource extends FieldSourceView {
  /** The page the value was read on. */
  pageId: string;
}

export interface PageLineRange {
  pageId: string;
  /** Index of the page's first line among the document's lines, and how many it has. */
  start: number;
  count: number;
}

/** Where a document's values come from: its own e-invoice XML, else the reading of its pages. */
export type ValuesOrigin = 'xml' | 'page';

export interface DocumentEngineFields {
  values: EngineFieldValues;
  /** `xml` where the document carries an e-invoice: then `values` are the XML's and `page` the pages' reading. */
  origin: ValuesOrigin;
  /** The pages' own reading where the XML gives the values (compared with them); null where the pages are the source. */
  page: EngineFieldValues | null;
  sources: Record<FieldPath, DocumentFieldSource>;
  xml: Partial<EngineFieldValues> | null;
  /** Each line's unit, VAT category and rate as the XML states them (by line, as `values.lines`); null without XML. */
  lineTerms: LineTerms[] | null;
  pageLines: PageLineRange[];
}

export interface DocumentPageReading {
  pageId: string;
  extraction: Pick<Extraction, 'fields' | 'words'> | null;
}

/** Null when none of the pages carries invoice fields. `pages` in page order. */
export function mergeDocumentFields(pages: readonly DocumentPageReading[]): DocumentEngineFields | null {
  const read = pages.map((page) => ({ pageId: page.pageId, fields: readEngineFields(page.extraction) }));
  if (!read.some((page) => page.fields)) return null;
  const values = emptyFieldValues();
  const sources: Record<FieldPath, DocumentFieldSource> = {};
  const pageLines: PageLineRange[] = [];
  let xml: Partial<EngineFieldValues> | null = null;
  let xmlLineTerms: LineTerms[] | null = null;
  // The document's type is its first read page's: a receipt is one slip, an invoice's later pages may print a receipt's words.
  const typed = read.find((page) => page.fields)?.fields?.values.document_type;
  if (typed === 'receipt') values.document_type = 'receipt';
  for (const { pageId, fields } of read) {
    if (!fields) {
      pageLines.push({ pageId, start: values.lines.length, count: 0 });
      continue;
    }
    for (const { key } of scalarFields) {
      if (values[key] !== null || fields.values[key] === null) continue;
      (values as unknown as Record<string, unknown>)[key] = fields.values[key];
      const source = fields.sources[key];
      if (source) sources[key] = { ...source, pageId };
    }
    const start = values.lines.length;
    fields.values.lines.forEach((line, i) => {
      values.lines.push({ ...line });
      for (const column of ['description', 'quantity', 'unit_price', 'amount'] as const) {
        const source = fields.sources[linePath(i, column)];
        if (source) sources[linePath(start + i, column)] = { ...source, pageId };
      }
    });
    pageLines.push({ pageId, start, count: fields.values.lines.length });
    // The breakdown is printed once, in the totals block: the first page that has one.
    if (values.tax_breakdown.length === 0 && fields.values.tax_breakdown.length > 0) {
      values.tax_breakdown = fields.values.tax_breakdown.map((row) => ({ ...row }));
      fields.values.tax_breakdown.forEach((_, i) => {
        for (const column of ['rate', 'base', 'amount'] as const) {
          const source = fields.sources[taxPath(i, column)];
          if (source) sources[taxPath(i, column)] = { ...source, pageId };
        }
      });
    }
    if (!xml) xmlLineTerms = fields.xmlLineTerms;
    xml ??= fields.xml;
  }
  if (xml) return xmlAsDocument(values, sources, readFieldValues(xml as Record<string, unknown>), xmlLineTerms);
  return { values, origin: 'page', page: null, sources, xml, lineTerms: null, pageLines };
}

const sameValue = (a: FieldValue | undefined, b: FieldValue | undefined): boolean =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < SAME_AMOUNT : a !== null && a !== undefined && String(a).trim().toLowerCase() === String(b ?? '').trim().toLowerCase();

/**
 * The XML's values as the document's, the page's reading kept beside them. Page boxes stay only on cells whose printed
 * value is the XML's; no page line ranges (an edited Markdown table re-reads the page, never the XML's lines).
 */
function xmlAsDocument(page: EngineFieldValues, pageSources: Record<FieldPath, DocumentFieldSource>, xml: EngineFieldValues, lineTerms: LineTerms[] | null): DocumentEngineFields {
  const sources: Record<FieldPath, DocumentFieldSource> = {};
  for (const [path, source] of Object.entries(pageSources)) {
    if (sameValue(valueAt(page, path), valueAt(xml, path))) sources[path] = source;
  }
  return {
    values: xml,
    origin: 'xml',
    page,
    sources,
    xml: { ...xml, lines: xml.lines.map((l) => ({ ...l })), tax_breakdown: xml.tax_breakdown.map((r) => ({ ...r })) },
    // One per XML line (a reading stored before the terms were attached has none: each line's terms unknown).
    lineTerms: xml.lines.map((_, i) => lineTerms?.[i] ?? { unitCode: null, category: null, rate: null }),
    pageLines: [],
  };
}

/** The document's lines with one page's lines replaced (the page whose Markdown tables the analyst edited). */
export function replacePageLines(values: EngineFieldValues, ranges: readonly PageLineRange[], pageId: string, lines: EngineFieldValues['lines']): EngineFieldValues {
  const range = ranges.find((r) => r.pageId === pageId);
  if (!range) return values;
  const next = [...values.lines];
  next.splice(range.start, range.count, ...lines);
  return { ...values, lines: next };
}
