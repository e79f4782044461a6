/**
 * Invoice field extraction from an extraction's words (or its Markdown): invoice number, issue and due date (ISO),
 * seller, buyer, currency, subtotal, tax, total and line items, each with the words it came from so the UI can draw
 * their boxes. Pure and deterministic; labels in English, German, French and Dutch (labels.ts); number formats
 * `1,234.56` and `1.234,56` (amounts.ts).
 *
 * This module orchestrates; the readers live beside it. Where the labels are and which text may be their value:
 * labelHits.ts; reading one value from a candidate: valueReaders.ts. Among candidates, the earliest tier of labels wins; then the first occurrence for numbers and dates, the last
 * for totals (invoice-level totals follow section totals). Labels in the item table's header name its columns, not
 * the invoice's fields: a tax column gives the tax only through the table's totals row. A subtotal that no label
 * names is derived where the page confirms it (inferSubtotal.ts). Line items come from the item table under its header
 * row (lineItems.ts) or, where there is none, from rows whose amounts add up to the stated subtotal or total
 * (headerlessItems.ts). Seller and buyer come from their labels or, unlabelled, from the page's conventions
 * (letterhead, window block, legal line, web domain: parties.ts). Totals are chosen so that subtotal + tax = total
 * closes (closingTotals.ts): a per-rate totals table gives its sum row, a missing or unsigned one is implied where
 * printed, and with no total label three lines net / tax at a printed rate / gross that close give all three.
 */
import type { Word } from '../model/extraction.js';
import { findDates } from './dates.js';
import type { FieldValue, InvoiceFields } from './fieldValues.js';
import { headerlessLineItems } from './headerlessItems.js';
import { inferSubtotal } from './inferSubtotal.js';
import { closeTotals, closingTriple, perRateColumnFigure, SUM_ROW_LABEL } from './closingTotals.js';
import { candidatesFor, findLabelHits, splitLabelRuns, type Candidate, type LabelHit } from './labelHits.js';
import type { LabelledField } from './labels.js';
import { wordsFromMarkdown, wordsToLines } from './layout.js';
import { extractLineItems, lineAmountBasis, readItemTable } from './lineItems.js';
import { findParties } from './parties.js';
import { settlementLabelAt } from './settlementLabels.js';
import { titleLineDate } from './titleLineDate.js';
import { slipRepairedDate } from './ocrDateRepair.js';
import { dateInDocumentNumber } from './numberDate.js';
import { isPaymentLine } from './receiptConventions.js';
import { corroboratedPaid, paidChecks, summaryPaid } from './receiptCorroboration.js';
import { CASH_STEP, itemsBeforeTheFoot, largestAmountPrinted, receiptEvidence, receiptMerchant, receiptRounded, receiptTotal, receiptTotalAlternatives, runTogetherDate, tenderedLessChange, timedDate } from './receiptReading.js';
import { readTotalsBlock } from './totalsBlock.js';
import { detectCurrency, ID_LENGTH, monthFirstDates, readDate, readIdentifier, readMoney, SHORT_ID_LENGTH } from './valueReaders.js';

// The shapes (and the label splitter and date-order test its callers use) stay importable from here.
export { toPlainFields, type FieldValue, type InvoiceFields, type PlainInvoiceFields } from './fieldValues.js';
export { splitLabelRuns } from './labelHits.js';
export { monthFirstDates } from './valueReaders.js';

export interface ExtractOptions {
  /** Words of the page(s) in reading order or any order (boxes matter). */
  words?: readonly Word[];
  /** Markdown of the page(s); used when no words are given. */
  markdown?: string;
}

export function extractInvoiceFields(input: ExtractOptions): InvoiceFields {
  const words = input.words && input.words.length > 0 ? [...input.words] : wordsFromMarkdown(input.markdown ?? '');
  const lines = splitLabelRuns(wordsToLines(words));
  const fullText = lines.map((l) => l.text).join('\n');
  const hits = findLabelHits(lines);
  const labelled = new Set(hits.map((h) => `${h.line}:${h.segment}`));
  const currency = detectCurrency(words, fullText);
  const monthFirst = monthFirstDates(fullText, currency?.value ?? null);

  // Column names of the item table label each item's values, not the invoice's.
  const table = readItemTable(lines);
  const columnHeaders = table.headerLines;
  // A receipt's payment lines ("Total Cash", "Rückgeld") repeat total words but settle the payment (receiptConventions.ts).
  const byField = (field: LabelledField): LabelHit[] =>
    hits.filter((h) => h.field === field && !columnHeaders.has(h.line) && !(field === 'total' && isPaymentLine(lines[h.line]!.segments[h.segment]!.text))).sort((a, b) => a.tier - b.tier || a.line - b.line || a.segment - b.segment);

  const firstValid = <T>(field: LabelledField, read: (c: Candidate, hit: LabelHit) => FieldValue<T> | Candidate | null): FieldValue<T> | null => {
    for (const hit of byField(field)) {
      const { sameLine, below } = candidatesFor(hit, lines, labelled);
      for (const candidate of [...sameLine, ...below]) {
        const value = read(candidate, hit);
        if (value) return 'value' in value ? { ...value, label: hit.label } : ({ value: value.text as T, text: value.text, words: value.words, label: hit.label } as FieldValue<T>);
      }
    }
    return null;
  };

  const lastMoney = (field: LabelledField, hitsOf: (field: LabelledField) => LabelHit[] = byField): FieldValue<number> | null => {
    const fieldHits = hitsOf(field);
    if (fieldHits.length === 0) return null;
    const bestTier = fieldHits[0]!.tier;
    let chosen: FieldValue<number> | null = null;
    for (let tier = bestTier; tier <= bestTier + 2 && !chosen; tier++) {
      for (const hit of fieldHits.filter((h) => h.tier === tier)) {
        const { sameLine, below } = candidatesFor(hit, lines, labelled);
        // A header over a per-rate totals table gives its sum row, or nothing where no row sums the others.
        const column = perRateColumnFigure(lines, hit.line, lines[hit.line]!.segments[hit.segment]!);
        const value = readMoney(sameLine) ?? (column === undefined ? readMoney(below) : column);
        if (value) chosen = { ...value, label: value.label === SUM_ROW_LABEL ? `${hit.label} (${SUM_ROW_LABEL})` : hit.label };
      }
    }
    return chosen;
  };

  const invoiceNumber = firstValid<string>('invoice_number', (c, hit) => readIdentifier(c, hit.tier === 0 ? SHORT_ID_LENGTH : ID_LENGTH));
  let issueDate = firstValid<string>('issue_date', (c) => readDate(c, monthFirst));
  if (!issueDate && invoiceNumber) {
    // "Facture n°562044387 du 02 Juillet 2015": a date next to the invoice number.
    const hit = byField('invoice_number').find((h) => lines[h.line]!.text.includes(invoiceNumber.text));
    const date = hit ? findDates(lines[hit.line]!.text, { monthFirst })[0] : undefined;
    if (date) issueDate = { value: date.iso, text: date.text, words: lines[hit!.line]!.words.filter((w) => date.text.includes(w.text)), label: null };
  }
  issueDate ??= titleLineDate(lines, monthFirst);
  if (!issueDate) {
    const firstDateLine = lines.find((l) => findDates(l.text, { monthFirst }).length > 0);
    const date = firstDateLine ? findDates(firstDateLine.text, { monthFirst })[0]! : undefined;
    if (firstDateLine && date) issueDate = { value: date.iso, text: date.text, words: firstDateLine.words.filter((w) => date.text.includes(w.text)), label: null };
  }
  // OCR's slips ("D3/06/3017", "17/61:2018"): a repaired date where no exact one is read, or beside a date label.
  issueDate = slipRepairedDate(lines, issueDate, { monthFirst });
  const dueDate = firstValid<string>('due_date', (c) => readDate(c, monthFirst));

  const bodyStart = columnHeaders.size > 0 ? Math.min(...columnHeaders) : lines.length;
  const parties = findParties({ lines, sellerHits: byField('seller'), buyerHits: byField('buyer'), labelled, bodyStart });
  // A till receipt: the merchant from its first lines, the amount paid before the payment lines (receiptReading.ts).
  const receipt = receiptEvidence(lines).isReceipt;
  // A till sells to whoever pays: a receipt names its buyer only under a label ("Customer:", "Bill to"); the
  // invoice conventions' unlabelled block (a window envelope's address) is a header or item line on a receipt.
  const buyer = receipt && !parties.buyer?.label ? null : parties.buyer;
  // On a till receipt the merchant heads the page; a labelled "Sold by" under it names the sales staff.
  const seller = (receipt ? receiptMerchant(lines) : null) ?? parties.seller;
  // OCR of a till's print may drop a date's separators ("27032018"); on any page, such a date with the time after it.
  if (!issueDate) issueDate = runTogetherDate(lines, monthFirst, { timed: !receipt });
  // Unlabelled, a receipt's date is the one printed with the time of the sale.
  if (receipt && !issueDate?.label) issueDate = timedDate(lines, monthFirst) ?? issueDate;
  // No date legible on a receipt: the day its till wrote into a receipt number, shown low.
  if (receipt && !issueDate) issueDate = dateInDocumentNumber(lines);

  /**
   * A money field named by an item-table column ("Tax" over each item's tax): the value under that column in the
   * table's totals row ("Total  1  278.61  40.39  319.00"), the first line below the header with a total label.
   */
  const columnTotal = (field: LabelledField): FieldValue<number> | null => {
    for (const hit of hits.filter((h) => h.field === field && columnHeaders.has(h.line))) {
      const totalsLine = hits.find((h) => h.field === 'total' && h.line > hit.line && !columnHeaders.has(h.line))?.line;
      if (totalsLine === undefined) continue;
      const column = lines[hit.line]!.segments[hit.segment]!;
      const under = lines[totalsLine]!.segments.find((seg) => Math.min(seg.x2, column.x2) - Math.max(seg.x1, column.x1) > 0);
      const value = under ? readMoney([{ text: under.text, words: under.words }]) : null;
      if (value) return { ...value, label: `${lines[totalsLine]!.segments[0]!.text} / ${hit.label}` };
    }
    return null;
  };

  // "Amount due", "Zahlbetrag", "Net à payer" name the total where nothing else does; beside a total of its own they
  // name what is left after a prepayment (the amount due, settlementAmounts.ts).
  const isDueLabel = (hit: LabelHit): boolean => settlementLabelAt(hit.label)?.field === 'amount_due';
  const tillTotal = receipt ? receiptTotal(lines) : null;
  const printedTax = lastMoney('tax') ?? columnTotal('tax');
  const printedSubtotal = lastMoney('subtotal');
  const labelMap = new Map(hits.map((h) => [`${h.line}:${h.segment}`, h.field]));

  /** Items, subtotal, tax and the totals block, where a receipt paid `receiptPaid` (read by the till's conventions). */
  const readTotals = (receiptPaid: FieldValue<number> | null) => {
    let total = receiptPaid ?? lastMoney('total', (field) => byField(field).filter((hit) => !isDueLabel(hit))) ?? lastMoney('total');
    let tax = printedTax;
    let subtotal = printedSubtotal;
    if (!total) {
      // No total label: three lines net, tax at a printed rate, gross that close (closingTotals.ts).
      const triple = closingTriple(lines, columnHeaders);
      if (triple) ({ subtotal, tax, total } = triple);
    }
    // Still none, on a page not recognised as a receipt (its till words lost to OCR): the till's own conventions, a
    // total line before the payment lines ("Amt Due 129.30"), as a last resort.
    const tillPaid = !total && !receipt ? receiptTotal(lines) : null;
    if (tillPaid) total = tillPaid;
    const untaxed = total && tax ? total.value - tax.value : null;
    const statedItemSums = [subtotal?.value ?? null, total?.value ?? null, untaxed];
    let items = extractLineItems(lines, labelMap, statedItemSums, table);
    if (items.length === 0) items = headerlessLineItems(lines, labelMap, statedItemSums);
    // A till's foot read as items where OCR lost the items' own amounts ("Gross Amt", "Change", "Round Adj").
    if (receipt) items = itemsBeforeTheFoot(items);
    if (!subtotal) {
      const derived = inferSubtotal({ lines, total: total?.value ?? null, tax: tax?.value ?? null, items, lineAmounts: lineAmountBasis(lines, table) });
      if (derived) subtotal = { value: derived.value, text: derived.text, words: derived.words, label: null };
    }
    ({ subtotal, tax, total } = closeTotals(lines, { subtotal, tax, total }));
    // A receipt's amount paid stands: it was read by the till's own conventions (before the cash, cash − change).
    if (receiptPaid) total = receiptPaid;
    else if (receipt && total) total = receiptRounded(lines, total) ?? total;
    return { subtotal, tax, total, block: readTotalsBlock({ lines, columnHeaders, items, subtotal, tax, total }) };
  };
  let { subtotal, tax, total, block } = readTotals(tillTotal);
  // A receipt's amount paid that its own arithmetic contradicts, where another amount it prints as paid agrees
  // (receiptCorroboration.ts): the totals read again around that one.
  const checks = receipt ? paidChecks({ lines, subtotal: printedSubtotal?.value ?? null, tax: printedTax?.value ?? null, breakdown: block.taxBreakdown }) : [];
  const corroborated = checks.length > 0 ? corroboratedPaid(lines, tillTotal, receiptTotalAlternatives(lines), checks) : null;
  if (corroborated) ({ subtotal, tax, total, block } = readTotals(receiptRounded(lines, corroborated) ?? corroborated));
  // A receipt whose total no line names (its label or its amount lost to OCR), or names under the smallest coin
  // ("Total Rounded 0.00": the rounding's line; nobody pays nothing for what a receipt lists): the cash tendered less
  // the change, else its largest amount, as a last resort.
  const noTotal = !total || Math.abs(total.value) < CASH_STEP;
  const largest = receipt && noTotal ? (tenderedLessChange(lines) ?? summaryPaid(lines) ?? largestAmountPrinted(lines)) : null;
  if (largest) ({ subtotal, tax, total, block } = readTotals(receiptRounded(lines, largest) ?? largest));

  return {
    invoice_number: invoiceNumber,
    issue_date: issueDate,
    due_date: dueDate,
    seller,
    buyer,
    currency,
    subtotal: block.subtotal,
    tax,
    total,
    ...block.settlement,
    lines: block.items,
    tax_breakdown: block.taxBreakdown,
    ...(receipt ? { document_type: 'receipt' as const } : {}),
  };
}
