/**
 * Line items: find a header row naming at least a description column and an amount or price column, then read the
 * rows below it until a totals label. A row is an item when it has text in the description column and a money
 * amount at its right; quantity and unit price are read from the segments under their header columns.
 * Continuation lines (text without amounts) extend the previous item's description.
 */
import type { Word } from '../model/extraction.js';
import { findAmounts } from './amounts.js';
import type { LabelledField } from './labels.js';
import type { Segment, TextLine } from './layout.js';

export interface InvoiceLineItem {
  description: string;
  quantity: number | null;
  unitPrice: number | null;
  amount: number | null;
  words: Word[];
}

type Column = 'description' | 'quantity' | 'unitPrice' | 'amount';
const columnLabels: Record<Column, RegExp> = {
  description: /^(?:description|item|items|product|service|article|artikel|omschrijving|beschreibung|bezeichnung|leistung|d[ée]signation|libell[ée]|produit|nazwa|title|details?)(?![\p{L}\d])/iu,
  quantity: /^(?:qty|quantity|quantité|qté|menge|anzahl|aantal|hoeveelheid|nombre|ilo[śs][ćc]|units?|hours|stk)(?![\p{L}\d])/iu,
  unitPrice: /^(?:unit\s*price|price|rate|prix(?:\s+unitaire)?|p\.?\s*u\.?|einzelpreis|preis|vk-preis|prijs(?:\s+per\s+stuk)?|cena|unit\s+cost)(?![\p{L}\d])/iu,
  amount: /^(?:amount|total|line\s+total|montant|betrag|gesamtpreis|zeilenbetrag|bedrag|prijs\s+incl|warto[śs][ćc]|subtotal)(?![\p{L}\d])/iu,
};

interface HeaderColumns {
  line: number;
  columns: Partial<Record<Column, Segment>>;
}

/** The item table's columns when this line is its header row: a description column and an amount or price column. */
function headerColumns(line: TextLine): HeaderColumns['columns'] | null {
  const columns: Partial<Record<Column, Segment>> = {};
  for (const segment of line.segments) {
    for (const [column, pattern] of Object.entries(columnLabels) as [Column, RegExp][]) {
      if (!columns[column] && pattern.test(segment.text.trim())) columns[column] = segment;
    }
  }
  return columns.description && (columns.amount || columns.unitPrice) && Object.keys(columns).length >= 2 ? columns : null;
}

function findHeader(lines: TextLine[]): HeaderColumns | null {
  for (const [l, line] of lines.entries()) {
    const columns = headerColumns(line);
    if (columns) return { line: l, columns };
  }
  return null;
}

const hasMoney = (line: TextLine): boolean => line.segments.some((s) => findAmounts(s.text).some((a) => a.hasDecimals || a.hasCurrency));

/**
 * Lines of every item-table header (each page of a long invoice repeats it): the header row and up to two lines of
 * column-name continuation set tightly under it ("VK-Preis / ohne / MwSt."), before any row with an amount. Labels
 * there name columns — the tax or date of each item — not the invoice's own fields.
 */
export function itemHeaderLines(lines: TextLine[]): Set<number> {
  const band = new Set<number>();
  lines.forEach((line, l) => {
    if (!headerColumns(line)) return;
    band.add(l);
    for (let next = l + 1; next <= l + 2 && next < lines.length; next++) {
      const above = lines[next - 1]!;
      if (hasMoney(lines[next]!) || lines[next]!.y - (above.y + above.height) > Math.max(1, above.height)) break;
      band.add(next);
    }
  });
  return band;
}

function segmentUnder(line: TextLine, header: Segment | undefined, tolerance: number): Segment | undefined {
  if (!header) return undefined;
  return line.segments.find((s) => s.x1 <= header.x2 + tolerance && s.x2 >= header.x1 - tolerance);
}

const numberOnly = (text: string): number | null => {
  const m = /^\s*(\d+(?:[.,]\d+)?)(?:\s*\p{L}{0,6})?\s*$/u.exec(text);
  return m ? Number(m[1]!.replace(',', '.')) : null;
};

/**
 * Whether the line amounts are net or gross of tax, as the amount column's header says ("Zeilenbetrag / ohne MwSt.",
 * "Amount excl. VAT", "Montant HT", "Bedrag incl. btw"): its header cell and the header lines right under it, up to
 * the first row with an amount. Null when the header says neither.
 */
export function lineAmountBasis(lines: TextLine[]): 'net' | 'gross' | null {
  const header = findHeader(lines);
  const column = header?.columns.amount;
  if (!header || !column) return null;
  const texts = [column.text];
  for (let l = header.line + 1; l <= header.line + 2 && l < lines.length; l++) {
    const line = lines[l]!;
    if (hasMoney(line)) break;
    const under = segmentUnder(line, column, 0);
    if (under) texts.push(under.text);
  }
  const text = texts.join(' ');
  if (grossMarker.test(text)) return 'gross';
  if (netMarker.test(text)) return 'net';
  return null;
}

const netMarker =
  /(?<![\p{L}])(?:net|netto|nett|excl\.?|excluding|exclusive\s+of|ex\.?\s+(?:vat|tax|gst)|before\s+tax|pre-?tax|without\s+(?:vat|tax)|w\/o\s+(?:vat|tax)|exkl\.?|exklusive|ohne\s+(?:mwst|ust)|zzgl\.?|ht|h\.t\.?|hors\s+tax(?:e|es)?|exclusief)(?![\p{L}])/iu;
const grossMarker = /(?<![\p{L}])(?:gross|brutto|incl\.?|including|inclusive\s+of|inkl\.?|inklusive|ttc|t\.t\.c\.?|inclusief)(?![\p{L}])/iu;

/** `labelled` maps "line:segment" of every label segment to its field. */
export function extractLineItems(lines: TextLine[], labelled: Map<string, LabelledField>): InvoiceLineItem[] {
  const header = findHeader(lines);
  if (!header) return [];
  const items: InvoiceLineItem[] = [];
  const charWidth = 8;
  let lastItemLine = -1; // line index of the last item or its continuation, -1 after a gap
  for (let l = header.line + 1; l < lines.length; l++) {
    const line = lines[l]!;
    const amounts = findAmounts(line.segments[line.segments.length - 1]!.text).filter((a) => a.hasDecimals || a.hasCurrency);
    const first = line.segments[0]!;
    // A labelled line with an amount is not an item: a total ends the items, a (section) subtotal or tax line is
    // skipped (invoices with sections print subtotals between groups of items).
    const labels = line.segments.map((_, s) => labelled.get(`${l}:${s}`)).filter((f) => f !== undefined);
    if (amounts.length > 0 && labels.length > 0 && !/^\d/.test(first.text)) {
      if (labels.includes('total')) break;
      lastItemLine = -1;
      continue;
    }
    const descriptionSegment =
      line.segments.find((s) => /\p{L}{2,}/u.test(s.text) && s !== line.segments[line.segments.length - 1]) ?? first;
    if (amounts.length === 0 || line.segments.length < 2) {
      // A continuation line (second description line) sits right under its item: at most ~1.6 line heights down.
      const previous = items[items.length - 1];
      const near = lastItemLine >= 0 && line.y - lines[lastItemLine]!.y <= 1.6 * Math.max(1, lines[lastItemLine]!.height, line.height);
      if (previous && near && line.segments.length === 1 && /\p{L}/u.test(first.text)) {
        previous.description += '\n' + first.text;
        previous.words.push(...first.words);
        lastItemLine = l;
        continue;
      }
      lastItemLine = -1;
      continue;
    }
    const quantitySegment = segmentUnder(line, header.columns.quantity, charWidth);
    const priceSegment = segmentUnder(line, header.columns.unitPrice, charWidth);
    const priceAmounts = priceSegment && priceSegment !== line.segments[line.segments.length - 1] ? findAmounts(priceSegment.text) : [];
    items.push({
      description: descriptionSegment.text,
      quantity: quantitySegment ? numberOnly(quantitySegment.text) : null,
      unitPrice: priceAmounts.length > 0 ? priceAmounts[priceAmounts.length - 1]!.value : null,
      amount: amounts[amounts.length - 1]!.value,
      words: [...line.words],
    });
    lastItemLine = l;
  }
  return items;
}
