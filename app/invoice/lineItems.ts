/**
 * Line items: find a header row naming at least a description column and an amount or price column, then read the
 * rows below it until a totals label. A row is an item when it has text in the description column and a money
 * amount at its right; quantity and unit price are read from the segments under their header columns.
 * Continuation lines (text without amounts) extend the previous item's description. Header cells run together are
 * cut apart (splitHeaderCells); where a row's numbers disagree (quantity × unit price ≠ amount, or the amounts add up
 * to no stated subtotal or total) the reading of a misread number that agrees is taken (itemArithmetic.ts). Tables
 * without a header row: headerlessItems.ts.
 */
import type { Word } from '../model/extraction.js';
import { findAmounts, type AmountMatch } from './amounts.js';
import { amountReadings, columnFormatAmounts, consistentPriceAndAmount, consistentSum, fillQuantityAndPrice, numberOnly, type PrintedAmount } from './itemArithmetic.js';
import type { LabelledField } from './labels.js';
import type { InvoiceLineItem } from './lineItem.js';
import { isSettlementRow } from './settlementLabels.js';
import { isBreakdownHeader } from './vatBreakdown.js';
import { median, type Segment, type TextLine } from './layout.js';

export type { InvoiceLineItem } from './lineItem.js';

type Column = 'description' | 'quantity' | 'unitPrice' | 'amount';
const columnLabels: Record<Column, RegExp> = {
  // Also run together with an item-number column or a compound name ("Position Material/Beschreibung").
  description:
    /^(?:pos(?:ition)?\.?\s+)?(?:[\p{L}-]+\s*\/\s*)?(?:description|item|items|product|service|article|artikel|omschrijving|beschreibung|bezeichnung|leistung|d[ée]signation|libell[ée]|produit|nazwa|title|details?|descripci[oó]n|concepto|descrizione|articolo)(?![\p{L}\d])/iu,
  quantity: /^(?:qty|quantity|quantité|qté|menge|anzahl|aantal|hoeveelheid|nombre|ilo[śs][ćc]|units?|hours|stk|cantidad|cant\.|quantit[àa]|q\.t[àa])(?![\p{L}\d])/iu,
  unitPrice: /^(?:unit\s*price|price|rate|prix(?:\s+unitaire)?|p\.?\s*u\.?|einzelpreis|nettopreis|preis|vk-preis|prijs(?:\s+per\s+stuk)?|cena|unit\s+cost|precio(?:\s+unitario)?|prezzo(?:\s+unitario)?)(?![\p{L}\d])/iu,
  amount: /^(?:amount|total|line\s+total|montant|betrag|nettobetrag|bruttobetrag|gesamtpreis|gesamt|zeilenbetrag|bedrag|prijs\s+incl|warto[śs][ćc]|subtotal|importe|importo)(?![\p{L}\d])/iu,
};

interface HeaderColumns {
  line: number;
  columns: Partial<Record<Column, Segment>>;
}

/** Words of the longest column name starting `text` (0 when none does). */
function columnNameWords(text: string): number {
  let longest = 0;
  for (const pattern of Object.values(columnLabels)) {
    const m = pattern.exec(text.trim());
    if (m) longest = Math.max(longest, m[0].trim().split(/\s+/).length);
  }
  return longest;
}

const segmentOf = (words: Word[]): Segment => ({
  text: words.map((w) => w.text).join(' '),
  words,
  x1: Math.min(...words.map((w) => w.box[0])),
  x2: Math.max(...words.map((w) => w.box[2])),
});

/**
 * Header cells set tightly (or run together by OCR) form one segment: "BTW Hoeveelheid", "Item  Qty". A column name
 * inside a segment starts a cell of its own where the words before it name no column (an unknown column: "BTW"), or
 * where they do and a gap clearly wider than a space separates the two; "Total price" and "Unit price" stay one name.
 */
export function splitHeaderCells(segment: Segment): Segment[] {
  const words = segment.words;
  // Header cells are a few words; a longer run is a sentence that happens to contain "item" or "total".
  if (words.length < 2 || words.length > 5) return [segment];
  const charWidth = median(words.map((w) => (w.box[2] - w.box[0]) / Math.max(1, Array.from(w.text).length)));
  const cells: Segment[] = [];
  let start = 0;
  let named = columnNameWords(words.map((w) => w.text).join(' '));
  for (let i = 1; i < words.length; i++) {
    if (i < start + named) continue;
    const rest = words.slice(i).map((w) => w.text).join(' ');
    const here = columnNameWords(rest);
    if (here === 0) continue;
    const gap = words[i]!.box[0] - words[i - 1]!.box[2];
    if (named > 0 && gap <= 1.2 * charWidth) continue;
    cells.push(segmentOf(words.slice(start, i)));
    start = i;
    named = here;
  }
  if (start === 0) return [segment];
  cells.push(segmentOf(words.slice(start)));
  return cells;
}

/** The item table's columns when this line is its header row: a description column and an amount or price column. */
function headerColumns(line: TextLine): HeaderColumns['columns'] | null {
  const columns: Partial<Record<Column, Segment>> = {};
  for (const segment of line.segments.flatMap(splitHeaderCells)) {
    for (const [column, pattern] of Object.entries(columnLabels) as [Column, RegExp][]) {
      if (!columns[column] && pattern.test(segment.text.trim())) columns[column] = segment;
    }
  }
  return columns.description && (columns.amount || columns.unitPrice) && Object.keys(columns).length >= 2 ? columns : null;
}

const hasMoney = (line: TextLine): boolean => line.segments.some((s) => findAmounts(s.text).some((a) => a.hasDecimals || a.hasCurrency));

/** The page's item table as its header rows show it: read once per page and handed to every reader that needs it. */
export interface ItemTable {
  /** The first header row and its columns; null where the page has no item table. */
  header: HeaderColumns | null;
  /**
   * Lines of every item-table header (each page of a long invoice repeats it): the header row and up to two lines of
   * column-name continuation set tightly under it ("VK-Preis / ohne / MwSt."), before any row with an amount. Labels
   * there name columns — the tax or date of each item — not the invoice's own fields.
   */
  headerLines: Set<number>;
}

export function readItemTable(lines: TextLine[]): ItemTable {
  let header: HeaderColumns | null = null;
  const headerLines = new Set<number>();
  lines.forEach((line, l) => {
    const columns = headerColumns(line);
    if (!columns) return;
    header ??= { line: l, columns };
    headerLines.add(l);
    for (let next = l + 1; next <= l + 2 && next < lines.length; next++) {
      const above = lines[next - 1]!;
      if (hasMoney(lines[next]!) || lines[next]!.y - (above.y + above.height) > Math.max(1, above.height)) break;
      headerLines.add(next);
    }
  });
  return { header, headerLines };
}

/**
 * The segment of `line` under a header cell: the one lying most within the cell's x-range (the share of the narrower
 * of the two that overlaps), else the nearest within `tolerance`. A neighbour column's value may touch the cell too
 * ("21 %" under "BTW" beside "1 PCS" under "Hoeveelheid"), and a long description may reach under it.
 */
function segmentUnder(line: TextLine, header: Segment | undefined, tolerance: number): Segment | undefined {
  if (!header) return undefined;
  let best: Segment | undefined;
  let bestScore = -Infinity;
  for (const s of line.segments) {
    const overlap = Math.min(s.x2, header.x2) - Math.max(s.x1, header.x1);
    if (overlap < -tolerance) continue;
    const score = overlap > 0 ? overlap / Math.max(1, Math.min(s.x2 - s.x1, header.x2 - header.x1)) : overlap - 1;
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}

/**
 * An amount at the end of a sentence ("Price is inclusive of Promotional Discount of Rs 40.00,") is a note's, not an
 * item's: three or more words before it in its segment. Words after it ("USD 12.00 per month") do not count.
 */
function inSentence(text: string, amount: AmountMatch): boolean {
  return (text.slice(0, amount.index).match(/\p{L}{2,}/gu) ?? []).length >= 3;
}

/**
 * Whether the line amounts are net or gross of tax, as the amount column's header says ("Zeilenbetrag / ohne MwSt.",
 * "Amount excl. VAT", "Montant HT", "Bedrag incl. btw"): its header cell and the header lines right under it, up to
 * the first row with an amount. Null when the header says neither.
 */
export function lineAmountBasis(lines: TextLine[], table: ItemTable = readItemTable(lines)): 'net' | 'gross' | null {
  const header = table.header;
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

/** How far below its row an amount set on a baseline of its own may sit, in line heights (cells centred vertically). */
const SPLIT_ROW_GAP = 1.3;

/**
 * A row whose amount cell is set lower than its other cells (a table whose cells are centred vertically and whose
 * description or price runs to two lines): the row has no money in the amount column, the line right under it has,
 * and nothing of that line is a label. Returns that amount's segment (the rest of its line — an article number, a
 * code — is dropped with it).
 */
function amountBelow(lines: TextLine[], l: number, amountColumn: Segment | undefined, labelled: Map<string, LabelledField>): Segment | null {
  const line = lines[l]!;
  const next = lines[l + 1];
  if (!amountColumn || !next || !/\p{L}{2,}/u.test(line.text)) return null;
  const money = (segment: Segment | undefined): boolean => !!segment && findAmounts(segment.text).some((a) => a.hasDecimals || a.hasCurrency);
  const own = segmentUnder(line, amountColumn, 0);
  if (own && money(own)) return null;
  if (next.y - line.y > SPLIT_ROW_GAP * Math.max(1, line.height, next.height)) return null;
  if (next.segments.some((_, s) => labelled.has(`${l + 1}:${s}`))) return null;
  const under = segmentUnder(next, amountColumn, 0);
  if (!under || under !== next.segments[next.segments.length - 1] || !money(under)) return null;
  // The amount stands alone in its cell: the other segments of that line hold no money (they would be another row).
  return next.segments.every((seg) => seg === under || !money(seg)) ? under : null;
}

/**
 * `labelled` maps "line:segment" of every label segment to its field; `statedAmounts` are the amounts the invoice
 * states for the items' sum (subtotal, total), null where not read: they choose between readings of a misread amount.
 */
export function extractLineItems(
  lines: TextLine[],
  labelled: Map<string, LabelledField>,
  statedAmounts: readonly (number | null)[] = [],
  table: ItemTable = readItemTable(lines),
): InvoiceLineItem[] {
  const header = table.header;
  if (!header) return [];
  const items: InvoiceLineItem[] = [];
  const readings: number[][] = [];
  const printed: PrintedAmount[] = [];
  const settled: boolean[] = [];
  const charWidth = 8;
  let lastItemLine = -1; // line index of the last item or its continuation, -1 after a gap
  for (let l = header.line + 1; l < lines.length; l++) {
    if (isBreakdownHeader(lines[l]!)) break;
    const split = amountBelow(lines, l, header.columns.amount, labelled);
    const line = split ? { ...lines[l]!, segments: [...lines[l]!.segments, split], words: [...lines[l]!.words, ...split.words] } : lines[l]!;
    if (split) l++;
    const lastSegment = line.segments[line.segments.length - 1]!;
    const amounts = findAmounts(lastSegment.text).filter((a) => (a.hasDecimals || a.hasCurrency) && !inSentence(lastSegment.text, a));
    const first = line.segments[0]!;
    // A labelled line with an amount is not an item: a total ends the items, a (section) subtotal or tax line is
    // skipped (invoices with sections print subtotals between groups of items).
    const labels = line.segments.map((_, s) => labelled.get(`${l}:${s}`)).filter((f) => f !== undefined);
    if (amounts.length > 0 && (labels.length > 0 || isSettlementRow(first.text)) && !/^\d/.test(first.text)) {
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
    const priceAmounts = priceSegment && priceSegment !== lastSegment ? findAmounts(priceSegment.text) : [];
    const quantity = quantitySegment && quantitySegment !== lastSegment ? numberOnly(quantitySegment.text) : null;
    const reading = consistentPriceAndAmount(quantity, priceAmounts[priceAmounts.length - 1] ?? null, amounts[amounts.length - 1]!);
    const item: InvoiceLineItem = { description: descriptionSegment.text, quantity, unitPrice: reading.unitPrice, amount: reading.amount, words: [...line.words] };
    // Where the quantity column is not named (or its name was not read), a bare number of the row that makes
    // quantity × unit price = amount is the quantity.
    const others = line.segments.slice(line.segments.indexOf(descriptionSegment) + 1, -1).filter((s) => s !== priceSegment);
    const filled = fillQuantityAndPrice(item, others);
    items.push(filled);
    // An amount already chosen by its row's arithmetic, or confirmed by it, has no other reading.
    const confirmed = filled.quantity !== null && filled.unitPrice !== null && Math.abs(filled.quantity * filled.unitPrice - reading.amount) < 0.005;
    const amount = amounts[amounts.length - 1]!;
    readings.push(confirmed ? [reading.amount] : amountReadings(amount));
    settled.push(confirmed);
    const amountWords = lastSegment.words.filter((w) => /\d/.test(w.text));
    const confidences = amountWords.map((w) => w.confidence).filter((c): c is number => c !== null);
    printed.push({ text: amount.text, value: reading.amount, confidence: confidences.length > 0 ? Math.min(...confidences) : null });
    lastItemLine = l;
  }
  const formatted = columnFormatAmounts(printed, settled);
  formatted.forEach((value, i) => {
    if (value !== printed[i]!.value) readings[i] = [value];
  });
  const amounts = consistentSum(formatted, readings, statedAmounts);
  return items.map((item, i) => (item.amount === amounts[i] ? item : { ...item, amount: amounts[i]! }));
}
