/**
 * Line items of a table printed without a header row ("Amazon Glacier ........ $2.22", each item followed by indented
 * "Charges" / "VAT" rows that break it down). Without column names the rows are recognised by their shape, and the
 * shape is only trusted where the invoice's own arithmetic confirms it:
 *  - a block: rows that each end in a money amount, the amounts aligned in one column, one row under the next; lines
 *    with nothing readable (OCR specks) and short text lines left of the amounts (section names, second description
 *    lines) do not interrupt it, a totals row ends it;
 *  - its item rows (all of them with a description): the rows without a field label (total, tax, subtotal) whose description starts at the block's
 *    outermost indent — rows indented further break down the row above them;
 *  - at least two item rows, whose amounts add up to the subtotal or total the invoice states.
 * Of several confirmed blocks the one with most items wins.
 */
import { findAmounts, type AmountMatch } from './amounts.js';
import { findDates } from './dates.js';
import { fillQuantityAndPrice } from './itemArithmetic.js';
import type { LabelledField } from './labels.js';
import type { Segment, TextLine } from './layout.js';
import type { InvoiceLineItem } from './lineItem.js';

interface MoneyRow {
  line: number;
  amount: AmountMatch;
  amountSegment: Segment;
  labelled: boolean;
  /** False for an amount printed alone on its line (or whose description OCR did not read). */
  described: boolean;
}

const cents = (value: number): number => Math.round(value * 100) / 100;

const charWidthOf = (segment: Segment): number =>
  Math.max(1, (segment.x2 - segment.x1) / Math.max(1, Array.from(segment.text).length));

/** A row ending in a money amount: its last segment is the amount (with a currency mark at most), not a sentence. */
function moneyRow(line: TextLine, l: number, labelled: ReadonlyMap<string, LabelledField>): MoneyRow | null {
  const described = line.segments.length >= 2 && /\p{L}{2,}/u.test(line.segments[0]!.text);
  if (line.segments.length >= 2 && !described) return null;
  const last = line.segments[line.segments.length - 1]!;
  let text = last.text.trim();
  for (const d of findDates(text)) text = text.slice(0, d.index) + ' '.repeat(d.text.length) + text.slice(d.index + d.text.length);
  const amounts = findAmounts(text).filter((a) => a.hasDecimals || a.hasCurrency);
  const amount = amounts[amounts.length - 1];
  if (!amount || text.slice(0, amount.index).replace(/[\s*]/g, '').length > 0) return null;
  const isLabelled = line.segments.some((_, s) => labelled.has(`${l}:${s}`));
  return { line: l, amount, amountSegment: last, labelled: isLabelled, described };
}

const aligned = (a: Segment, b: Segment, tolerance: number): boolean => Math.abs(a.x2 - b.x2) <= tolerance || Math.abs(a.x1 - b.x1) <= tolerance;

/** Blocks of money rows, in page order. */
function moneyBlocks(lines: readonly TextLine[], labelled: ReadonlyMap<string, LabelledField>): MoneyRow[][] {
  const blocks: MoneyRow[][] = [];
  let block: MoneyRow[] = [];
  let lastLine = -1;
  let textLines = 0;
  const close = (): void => {
    if (block.length > 0) blocks.push(block);
    block = [];
    textLines = 0;
  };
  lines.forEach((line, l) => {
    if (!/[\p{L}\d]/u.test(line.text)) return;
    const row = moneyRow(line, l, labelled);
    const column = block[0]?.amountSegment;
    const previous = lastLine >= 0 ? lines[lastLine]! : null;
    const near = previous !== null && line.y - (previous.y + previous.height) <= 2.5 * Math.max(1, previous.height, line.height);
    if (row && column && near && aligned(row.amountSegment, column, 2 * charWidthOf(column))) {
      block.push(row);
      lastLine = l;
      textLines = 0;
      if (labelled.get(`${l}:0`) === 'total') close();
      return;
    }
    const hasMoney = findAmounts(line.text).some((a) => a.hasDecimals || a.hasCurrency);
    const textOnly = !row && !hasMoney && column !== undefined && line.segments.every((s) => s.x2 < column.x1);
    if (textOnly && near && textLines < 2) {
      textLines++;
      lastLine = l;
      return;
    }
    close();
    if (row) {
      block.push(row);
      lastLine = l;
      if (labelled.get(`${l}:0`) === 'total') close();
    }
  });
  close();
  return blocks;
}

/**
 * `statedAmounts`: amounts the invoice states for the sum of its items (subtotal, total, total − tax); null where
 * not read.
 */
export function headerlessLineItems(
  lines: readonly TextLine[],
  labelled: ReadonlyMap<string, LabelledField>,
  statedAmounts: readonly (number | null)[],
): InvoiceLineItem[] {
  const targets = statedAmounts.filter((a): a is number => a !== null && a > 0).map(cents);
  if (targets.length === 0) return [];
  let best: InvoiceLineItem[] = [];
  for (const block of moneyBlocks(lines, labelled)) {
    const candidates = block.filter((row) => !row.labelled);
    // An amount without its description may be the row the others break down (a summary's "$4.11" over its
    // "Charges" and "Credits"): the block's structure is not known, so its rows are not taken for items.
    if (candidates.length < 2 || candidates.some((row) => !row.described)) continue;
    const indent = Math.min(...candidates.map((row) => lines[row.line]!.segments[0]!.x1));
    const tolerance = charWidthOf(lines[candidates[0]!.line]!.segments[0]!);
    const rows = candidates.filter((row) => lines[row.line]!.segments[0]!.x1 <= indent + tolerance);
    if (rows.length < 2 || rows.length <= best.length) continue;
    const sum = cents(rows.reduce((a, row) => a + row.amount.value, 0));
    if (!targets.some((t) => Math.abs(t - sum) < 0.005)) continue;
    best = rows.map((row) => {
      const line = lines[row.line]!;
      const description = line.segments[0]!;
      const item: InvoiceLineItem = { description: description.text, quantity: null, unitPrice: null, amount: row.amount.value, words: [...line.words] };
      return fillQuantityAndPrice(item, line.segments.slice(1, -1));
    });
  }
  return best;
}
