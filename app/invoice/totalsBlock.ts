/**
 * Everything the totals block adds to a page's reading once the key totals and the items are read: the settlement
 * amounts (settlementAmounts.ts) and the VAT breakdown (vatBreakdown.ts), read outside the item rows, and the two
 * decisions the totals' arithmetic makes about what was read before:
 *  - a discount or shipping row under the items (no quantity, no unit price) is read as an item and as an allowance
 *    or charge alike: it stays an item unless the totals close (BR-CO-13) with it as an allowance or charge instead;
 *  - a "Subtotal" before the charges is the line total, and the total without tax is derived (untaxedAfterAdjustments).
 */
import type { Word } from '../model/extraction.js';
import type { TextLine } from './layout.js';
import type { InvoiceLineItem } from './lineItem.js';
import { readSettlementAmounts, untaxedAfterAdjustments, type SettlementAmounts } from './settlementAmounts.js';
import { isAdjustmentLabel } from './settlementLabels.js';
import { readVatBreakdown, type VatRow } from './vatBreakdown.js';

/** A money field as extractFields reads it. */
interface MoneyField {
  value: number;
  text: string;
  words: Word[];
  label: string | null;
}

export interface TotalsBlockInput {
  lines: readonly TextLine[];
  /** The item table's header lines. */
  columnHeaders: ReadonlySet<number>;
  items: InvoiceLineItem[];
  subtotal: MoneyField | null;
  tax: MoneyField | null;
  total: MoneyField | null;
}

export interface TotalsBlock {
  items: InvoiceLineItem[];
  subtotal: MoneyField | null;
  settlement: SettlementAmounts;
  taxBreakdown: VatRow[];
}

/** Confidence of a printed subtotal taken for the line total by the arithmetic. */
const SUBTOTAL_AS_LINE_TOTAL = 0.7;

export function readTotalsBlock(input: TotalsBlockInput): TotalsBlock {
  const { lines, columnHeaders, tax, total } = input;
  let { items, subtotal } = input;
  const itemLinesOf = (rows: InvoiceLineItem[]): Set<number> => {
    const itemLines = new Set(columnHeaders);
    const itemWords = new Set(rows.flatMap((item) => item.words));
    lines.forEach((line, l) => {
      if (line.words.some((w) => itemWords.has(w))) itemLines.add(l);
    });
    return itemLines;
  };
  const readSettlement = (rows: InvoiceLineItem[]) => {
    const amounts = rows.map((item) => item.amount);
    return readSettlementAmounts({
      lines,
      skip: itemLinesOf(rows),
      subtotal: subtotal?.value ?? null,
      total: total?.value ?? null,
      lineSum: amounts.length > 0 && amounts.every((a): a is number => a !== null) ? Math.round(amounts.reduce((a, b) => a + b * 100, 0)) / 100 : null,
    });
  };
  let settlement = readSettlement(items);
  const adjustmentRows = items.filter((item) => item.quantity === null && item.unitPrice === null && isAdjustmentLabel(item.description));
  if (adjustmentRows.length > 0 && adjustmentRows.length < items.length) {
    const kept = items.filter((item) => !adjustmentRows.includes(item));
    const alternative = readSettlement(kept);
    if (alternative.adjustmentsHold) {
      items = kept;
      settlement = alternative;
    }
  }
  const untaxedTotal = untaxedAfterAdjustments({
    subtotal: subtotal?.value ?? null,
    tax: tax?.value ?? null,
    total: total?.value ?? null,
    allowances: settlement.amounts.allowances?.value ?? null,
    charges: settlement.amounts.charges?.value ?? null,
  });
  if (subtotal && untaxedTotal !== null && !settlement.amounts.line_total) {
    settlement.amounts.line_total = { ...subtotal, confidence: SUBTOTAL_AS_LINE_TOTAL };
    subtotal = { value: untaxedTotal, text: '', words: [], label: 'line total − allowances + charges' };
  }
  const taxBreakdown = readVatBreakdown({ lines, skip: itemLinesOf(items), subtotal: subtotal?.value ?? null, tax: tax?.value ?? null });
  return { items, subtotal, settlement: settlement.amounts, taxBreakdown };
}
