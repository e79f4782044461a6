/**
 * The narrow adapter between whatever the engine attaches to `Extraction.fields` and the review screen: today's
 * shape from the bundled engine (`fields.invoice` = the plain `<stem>.fields.json` shape, `fields.invoiceSources` =
 * text, label and word boxes per field, line items as one source per line) is read defensively, so a newer shape
 * (per-field confidence, e-invoice XML values) only needs this file to change.
 *
 * Where a source carries no confidence, the field's confidence is the lowest confidence of the page words under its
 * boxes (OCR confidence; text-layer words are certain), and null where the field has no box (an unlabelled guess).
 * Line cells get the box of the word in their line that prints their value.
 */
import type { Box, Extraction, Word } from '../../model/extraction.js';
import { parseAmount } from '../amounts.js';
import { coreFieldKeys, holdsNumbers, scalarFieldOf, settlementFieldKeys, type CoreValues, type PlainLine, type PlainTaxRow, type SettlementValues } from '../fieldCatalogue.js';
import type { DocumentType } from '../documentType.js';
import type { FieldPath } from '../rules/ruleTypes.js';
import { isScalarKey, linePath, parseTaxPath, scalarFields, taxPath, type FieldValue, type ScalarFieldKey } from './fieldPaths.js';

/** A VAT breakdown row: rate in percent, taxable amount, tax. */
export type EngineTaxRow = PlainTaxRow;

/** A line item as read: the plain `<stem>.fields.json` line. */
export type EngineLine = PlainLine;

/** The fields of one page as the engine read them: the plain shape with every settlement amount present (null when not read). */
export type EngineFieldValues = CoreValues &
  SettlementValues & {
    lines: EngineLine[];
    /** VAT breakdown rows as printed; empty where none is. */
    tax_breakdown: EngineTaxRow[];
    /** 'receipt' for a till receipt (the page's reading or the analyst's correction); absent: an invoice. */
    document_type?: DocumentType;
  };

export interface FieldSourceView {
  /** Printed text the value came from. */
  text: string;
  label: string | null;
  boxes: Box[];
  /** In [0, 1]; null when unknown. */
  confidence: number | null;
  /** Where supplier memory read the value: the supplier, and the first page of the document whose review taught it. */
  memory?: { supplier: string; taughtBy: string };
}

/** The `source` of a value supplier memory read (supplierMemory/overlayExtraction.ts, MEMORY_SOURCE). */
const MEMORY_SOURCE = 'supplier memory';

/**
 * What an e-invoice XML says of a line beyond the line's columns: its unit (BT-130, UN/ECE Rec 20), VAT category
 * (BT-151, UNCL 5305) and rate (BT-152). Only an XML states them; a page's reading has none.
 */
export interface LineTerms {
  unitCode: string | null;
  category: string | null;
  rate: number | null;
}

export interface EngineFields {
  values: EngineFieldValues;
  sources: Record<FieldPath, FieldSourceView>;
  /** Values of an e-invoice XML the document carries, where the engine attached one; null otherwise. */
  xml: Partial<EngineFieldValues> | null;
  /** The XML's line terms, one per XML line; null without an XML. */
  xmlLineTerms: LineTerms[] | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const record = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

function readLines(v: unknown): EngineLine[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((line) => {
    const l = record(line);
    if (!l) return [];
    return [{ description: typeof l.description === 'string' ? l.description : '', quantity: num(l.quantity), unit_price: num(l.unit_price ?? l.unitPrice), amount: num(l.amount) }];
  });
}

function readLineTerms(v: unknown): LineTerms[] {
  if (!Array.isArray(v)) return [];
  return v.map((terms) => {
    const t = record(terms);
    return { unitCode: str(t?.unitCode), category: str(t?.category), rate: num(t?.rate) };
  });
}

function readTaxRows(v: unknown): EngineTaxRow[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((row) => {
    const r = record(row);
    return r ? [{ rate: num(r.rate), base: num(r.base), amount: num(r.amount) }] : [];
  });
}

export function readFieldValues(raw: Record<string, unknown>): EngineFieldValues {
  const scalars: Record<string, string | number | null> = {};
  for (const key of [...coreFieldKeys, ...settlementFieldKeys]) scalars[key] = holdsNumbers[scalarFieldOf(key)!.kind] ? num(raw[key]) : str(raw[key]);
  return {
    ...(scalars as CoreValues & SettlementValues),
    lines: readLines(raw.lines),
    tax_breakdown: readTaxRows(raw.tax_breakdown),
    ...(raw.document_type === 'receipt' ? { document_type: 'receipt' as const } : {}),
  };
}

export function emptyFieldValues(): EngineFieldValues {
  return readFieldValues({});
}

const isBox = (v: unknown): v is Box => Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === 'number');
const sameBox = (a: Box, b: Box): boolean => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];

function wordsUnder(boxes: Box[], words: readonly Word[]): Word[] {
  return words.filter((w) => boxes.some((b) => sameBox(b, w.box)));
}

function lowestConfidence(words: readonly Word[]): number | null {
  const known = words.map((w) => w.confidence).filter((c): c is number => c !== null);
  return known.length ? Math.min(...known) : null;
}

function readSource(v: unknown, words: readonly Word[], supplier: string | null = null): FieldSourceView | null {
  const s = record(v);
  if (!s) return null;
  const boxes = Array.isArray(s.boxes) ? s.boxes.filter(isBox) : [];
  const confidence = num(s.confidence) ?? lowestConfidence(wordsUnder(boxes, words));
  const taughtBy = s.source === MEMORY_SOURCE ? str(s.taughtBy) : null;
  return { text: typeof s.text === 'string' ? s.text : '', label: str(s.label), boxes, confidence, ...(taughtBy ? { memory: { supplier: supplier ?? 'a supplier', taughtBy } } : {}) };
}

/** The word of a line that prints `value` (rightmost first: amounts sit at the end of a line). */
function cellSource(lineWords: readonly Word[], value: number | null, parse: (text: string) => number | null = parseAmount): FieldSourceView | null {
  if (value === null) return null;
  const word = [...lineWords].reverse().find((w) => {
    const parsed = parse(w.text);
    return parsed !== null && Math.abs(parsed - value) < 0.005;
  });
  return word ? { text: word.text, label: null, boxes: [word.box], confidence: word.confidence } : null;
}

/** The page's invoice fields; null when the engine did not take the page for an invoice page. */
export function readEngineFields(extraction: Pick<Extraction, 'fields' | 'words'> | null): EngineFields | null {
  const fields = record(extraction?.fields);
  const invoice = record(fields?.invoice);
  if (!fields || !invoice) return null;
  const words = extraction?.words ?? [];
  const values = readFieldValues(invoice);
  const rawSources = record(fields.invoiceSources) ?? {};
  const sources: Record<FieldPath, FieldSourceView> = {};
  const supplier = str(record(fields.supplierMemory)?.supplierName);
  for (const { key } of scalarFields) {
    const source = readSource(rawSources[key], words, supplier);
    if (source) sources[key] = source;
  }
  const lineSources = Array.isArray(rawSources.lines) ? rawSources.lines : [];
  values.lines.forEach((line, i) => {
    const source = readSource(lineSources[i], words);
    if (!source) return;
    sources[linePath(i, 'description')] = { ...source, text: line.description };
    const lineWords = wordsUnder(source.boxes, words);
    for (const column of ['quantity', 'unit_price', 'amount'] as const) {
      const cell = cellSource(lineWords, line[column]);
      if (cell) sources[linePath(i, column)] = cell;
    }
  });
  const rowSources = Array.isArray(rawSources.tax_breakdown) ? rawSources.tax_breakdown : [];
  values.tax_breakdown.forEach((row, i) => {
    const source = readSource(rowSources[i], words);
    if (!source) return;
    const rowWords = wordsUnder(source.boxes, words);
    for (const column of ['rate', 'base', 'amount'] as const) {
      const cell = cellSource(rowWords, row[column], column === 'rate' ? (text) => parseAmount(text.replace(/[()%]/g, '')) : parseAmount);
      if (cell) sources[taxPath(i, column)] = { ...cell, confidence: source.confidence ?? cell.confidence };
    }
  });
  const xmlRaw = record(fields.invoiceXml) ?? record(record(fields.xml)?.invoice);
  return { values, sources, xml: xmlRaw ? readFieldValues(xmlRaw) : null, xmlLineTerms: xmlRaw ? readLineTerms(xmlRaw.line_details) : null };
}

/** A field's value by path (`total`, `lines.2.amount`); undefined for a line that does not exist. */
export function valueAt(values: EngineFieldValues, path: FieldPath): FieldValue | undefined {
  if (isScalarKey(path)) return values[path as ScalarFieldKey];
  const row = parseTaxPath(path);
  if (row) {
    const taxRow = values.tax_breakdown[row.index];
    return taxRow ? taxRow[row.column] : undefined;
  }
  const m = /^lines\.(\d+)\.(\w+)$/.exec(path);
  if (!m) return undefined;
  const line = values.lines[Number(m[1])];
  return line ? ((line as unknown as Record<string, FieldValue>)[m[2]!] ?? null) : undefined;
}
