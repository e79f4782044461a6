/**
 * Invoice field extraction from an extraction's words (or its Markdown): invoice number, issue and due date (ISO),
 * seller, buyer, currency, subtotal, tax, total and line items, each with the words it came from so the UI can draw
 * their boxes. Pure and deterministic; labels in English, German, French and Dutch (labels.ts); number formats
 * `1,234.56` and `1.234,56` (amounts.ts).
 *
 * How a labelled value is found: every segment (a run of words without a wide gap, layout.ts) that starts with a label
 * is assigned to the field whose label matches longest (so "Invoice Date" is a date label, not an invoice-number
 * label). Its value is, in order: the rest of the segment, the following segments of the line up to the next label,
 * the segment below that overlaps it horizontally (forms laid out as a header row over a value row) if it sits right
 * under it. Header cells run together ("Grondslag BTW bedrag") are cut apart first (splitLabelRuns).
 * Among candidates, the earliest tier of labels wins; then the first occurrence for numbers and dates, the last
 * for totals (invoice-level totals follow section totals). Labels in the item table's header name its columns, not
 * the invoice's fields: a tax column gives the tax only through the table's totals row. A subtotal that no label
 * names is derived where the page confirms it (inferSubtotal.ts). Line items come from the item table under its header
 * row (lineItems.ts) or, where there is none, from rows whose amounts add up to the stated subtotal or total
 * (headerlessItems.ts). Seller and buyer come from their labels or, unlabelled, from the page's conventions
 * (letterhead, window block, legal line, web domain: parties.ts).
 */
import type { Word } from '../model/extraction.js';
import { currencyCodes, findAmounts, type AmountMatch } from './amounts.js';
import { findDates } from './dates.js';
import { labelPatterns, type LabelledField } from './labels.js';
import { headerlessLineItems } from './headerlessItems.js';
import { inferSubtotal } from './inferSubtotal.js';
import { findParties, legalForm } from './parties.js';
import type { SettlementValue } from './settlementAmounts.js';
import { settlementLabelAt } from './settlementLabels.js';
import { readTotalsBlock } from './totalsBlock.js';
import type { VatRow } from './vatBreakdown.js';
import { extractLineItems, itemHeaderLines, lineAmountBasis, type InvoiceLineItem } from './lineItems.js';
import { wordsFromMarkdown, wordsToLines, type Segment, type TextLine } from './layout.js';

export interface FieldValue<T> {
  value: T;
  /** The text the value was read from. */
  text: string;
  /** Words carrying the value (boxes for highlighting). */
  words: Word[];
  /** The label text that introduced it, null for unlabelled guesses. */
  label: string | null;
}

export interface InvoiceFields {
  invoice_number: FieldValue<string> | null;
  issue_date: FieldValue<string> | null;
  due_date: FieldValue<string> | null;
  seller: FieldValue<string> | null;
  buyer: FieldValue<string> | null;
  currency: FieldValue<string> | null;
  subtotal: FieldValue<number> | null;
  tax: FieldValue<number> | null;
  total: FieldValue<number> | null;
  /** The totals block's other amounts (settlementAmounts.ts): BT-106, BT-107, BT-108, BT-113, BT-115. */
  line_total: SettlementValue | null;
  allowances: SettlementValue | null;
  charges: SettlementValue | null;
  prepaid: SettlementValue | null;
  amount_due: SettlementValue | null;
  lines: InvoiceLineItem[];
  /** The VAT breakdown (BG-23) as printed, one row per rate (vatBreakdown.ts); empty where none is printed. */
  tax_breakdown: VatRow[];
}

/** The plain per-document shape `recto ocr` writes as `<stem>.fields.json` (absent = null). */
export interface PlainInvoiceFields {
  invoice_number: string | null;
  issue_date: string | null;
  due_date: string | null;
  seller: string | null;
  buyer: string | null;
  currency: string | null;
  subtotal: number | null;
  tax: number | null;
  total: number | null;
  /**
   * Read from the page where printed (absent from files written before they were read): sum of line amounts,
   * document-level allowances and charges, amount paid before, amount due.
   */
  line_total?: number | null;
  allowances?: number | null;
  charges?: number | null;
  prepaid?: number | null;
  amount_due?: number | null;
  lines: { description: string; quantity: number | null; unit_price: number | null; amount: number | null }[];
  /** VAT breakdown rows: rate in percent, taxable amount, tax; empty where none is printed. */
  tax_breakdown?: { rate: number | null; base: number | null; amount: number | null }[];
}

interface LabelHit {
  field: LabelledField;
  tier: number;
  line: number;
  segment: number;
  /** Label text as printed. */
  label: string;
  /** Text of the segment after the label. */
  rest: string;
  /** Words of the segment after the label (approximate: by word count). */
  restWords: Word[];
}

/** The longest label (ties: the first listed) that starts `text`, with the text it matched (trailing `:`/`#` included). */
function labelAt(text: string): { field: LabelledField; tier: number; matched: string } | null {
  let best: { field: LabelledField; tier: number; matched: string } | null = null;
  for (const [field, tiers] of Object.entries(labelPatterns) as [LabelledField, RegExp[]][]) {
    tiers.forEach((pattern, tier) => {
      const m = pattern.exec(text);
      if (!m) return;
      // Strictly longer wins: on a tie the first field and tier listed keep it.
      if (m[0].trim().length <= (best?.matched.trim().length ?? 0)) return;
      best = { field, tier, matched: m[0] };
    });
  }
  return best;
}

const wordCount = (text: string): number => text.trim().split(/\s+/).filter(Boolean).length;

/**
 * Header cells set close together run into one segment ("Grondslag BTW bedrag" = "Grondslag" + "BTW bedrag" over a
 * row of values). Where a label is followed directly by a specific (first-tier) label, the segment is cut between
 * them, so each label keeps its own x-range and finds the value under it. Only a first-tier label starts a new cell:
 * "VAT Total" stays one label-and-text, "Invoice Date" stays one label (the longest match wins at each start).
 */
export function splitLabelRuns(lines: TextLine[]): TextLine[] {
  return lines.map((line) => {
    const segments = line.segments.flatMap((segment) => {
      const cuts: number[] = [];
      let at = 0;
      for (;;) {
        const here = labelAt(segment.words.slice(at).map((w) => w.text).join(' '));
        if (!here) break;
        const next = at + wordCount(here.matched);
        if (next <= at || next >= segment.words.length) break;
        const following = labelAt(segment.words.slice(next).map((w) => w.text).join(' '));
        if (!following || following.tier !== 0) break;
        cuts.push(next);
        at = next;
      }
      if (cuts.length === 0) return [segment];
      return [0, ...cuts].map((from, i) => {
        const words = segment.words.slice(from, cuts[i] ?? segment.words.length);
        return { text: words.map((w) => w.text).join(' '), words, x1: Math.min(...words.map((w) => w.box[0])), x2: Math.max(...words.map((w) => w.box[2])) };
      });
    });
    return segments.length === line.segments.length ? line : { ...line, segments, text: segments.map((s) => s.text).join('  ') };
  });
}

function findLabelHits(lines: TextLine[]): LabelHit[] {
  const hits: LabelHit[] = [];
  lines.forEach((line, l) =>
    line.segments.forEach((segment, s) => {
      const label = labelAt(segment.text);
      if (!label) return;
      // "Lieferant GmbH", "Supplier Ltd.": a label word followed only by a legal form is a company's name.
      const rest = segment.text.slice(label.matched.length).trim();
      if (rest && rest.replace(new RegExp(legalForm.source, 'giu'), '').replace(/[\s,.&]+/g, '') === '') return;
      hits.push({
        field: label.field,
        tier: label.tier,
        line: l,
        segment: s,
        label: label.matched.trim(),
        rest: segment.text.slice(label.matched.length).trim(),
        restWords: segment.words.slice(wordCount(label.matched)),
      });
    }),
  );
  return hits;
}

/** A value below its label is at most this many label-line heights under it (the gap between them). */
const BELOW_MAX_GAP = 2;

interface Candidate {
  text: string;
  words: Word[];
}

/** Value candidates for a label, in the order described in the module comment. */
function candidatesFor(hit: LabelHit, lines: TextLine[], labelled: Set<string>): { sameLine: Candidate[]; below: Candidate[] } {
  const line = lines[hit.line]!;
  const sameLine: Candidate[] = [];
  if (hit.rest) sameLine.push({ text: hit.rest, words: hit.restWords });
  for (let s = hit.segment + 1; s < line.segments.length; s++) {
    if (labelled.has(`${hit.line}:${s}`)) break;
    sameLine.push({ text: line.segments[s]!.text, words: line.segments[s]!.words });
  }
  const below: Candidate[] = [];
  const labelSegment = line.segments[hit.segment]!;
  for (let l = hit.line + 1; l <= hit.line + 2 && l < lines.length; l++) {
    // A value row sits right under its header row; a segment several rows further down is another row's content
    // (the "MwSt." of a "Preis ohne MwSt." column header is not the label of the first item's price).
    if (lines[l]!.y - (line.y + line.height) > BELOW_MAX_GAP * Math.max(1, line.height)) break;
    let best: Segment | null = null;
    let bestOverlap = 0;
    lines[l]!.segments.forEach((seg, s) => {
      if (labelled.has(`${l}:${s}`)) return;
      const overlap = Math.min(seg.x2, labelSegment.x2) - Math.max(seg.x1, labelSegment.x1);
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = seg;
      }
    });
    if (best) {
      below.push({ text: (best as Segment).text, words: (best as Segment).words });
      break;
    }
  }
  return { sameLine, below };
}

function wordsOf(candidate: Candidate, text: string): Word[] {
  const tokens = new Set(text.split(/\s+/).filter(Boolean));
  const picked = candidate.words.filter((w) => tokens.has(w.text) || [...tokens].some((t) => w.text.includes(t) || t.includes(w.text)));
  return picked.length > 0 ? picked : candidate.words;
}

const idStopwords = /^(?:n[°º]\.?|no\.?|nr\.?|num\.?|#|:|number|nummer)$/i;

/** A specific label ("Rechnung Nr.") vouches for a short number ("42"); after a generic one an id needs 3 characters. */
const SHORT_ID_LENGTH = 2;
const ID_LENGTH = 3;

function readIdentifier(candidate: Candidate, minLength = ID_LENGTH): Candidate | null {
  const tokens = candidate.text.split(/\s+/).filter((t) => t && !idStopwords.test(t));
  if (tokens.length === 0) return null;
  let id = tokens[0]!.replace(/^(?:[#:]+|n[°º]\.?|no\.|nr\.)/i, '').replace(/[,;:.]+$/, '');
  // A short letter prefix printed apart from the number ("F 1234K20/1234/12", "# BLR_…" handled above).
  if (/^[A-Z]{1,3}$/.test(id) && tokens[1] && /\d/.test(tokens[1])) id = `${id} ${tokens[1].replace(/[,;:.]+$/, '')}`;
  if (!/\d/.test(id) || id.replace(/\s/g, '').length < minLength) return null;
  if (findDates(id).length > 0 && findDates(id)[0]!.text.length === id.length) return null;
  return { text: id, words: wordsOf(candidate, id) };
}

function readDate(candidate: Candidate, monthFirst: boolean): FieldValue<string> | null {
  const date = findDates(candidate.text, { monthFirst })[0];
  return date ? { value: date.iso, text: date.text, words: wordsOf(candidate, date.text), label: null } : null;
}

function moneyAmounts(text: string): AmountMatch[] {
  // Blank out dates first so "August 3, 2014" does not read as amounts 3 and 2014.
  let cleaned = text;
  for (const d of findDates(text)) cleaned = cleaned.slice(0, d.index) + ' '.repeat(d.text.length) + cleaned.slice(d.index + d.text.length);
  return findAmounts(cleaned).filter((a) => a.hasDecimals || a.hasCurrency);
}

function readMoney(candidates: Candidate[]): FieldValue<number> | null {
  let last: FieldValue<number> | null = null;
  for (const candidate of candidates) {
    for (const amount of moneyAmounts(candidate.text)) {
      last = { value: amount.value, text: amount.text, words: wordsOf(candidate, amount.text), label: null };
    }
  }
  return last;
}

const currencySymbols: [RegExp, string][] = [
  [/€/g, 'EUR'],
  [/\$/g, 'USD'],
  [/£/g, 'GBP'],
  [/₹|(?<![\p{L}])Rs\.?(?=\s?-?\d)/gu, 'INR'],
  [/zł/g, 'PLN'],
  [/¥/g, 'JPY'],
];

function detectCurrency(words: Word[], text: string): FieldValue<string> | null {
  const counts = new Map<string, number>();
  for (const code of currencyCodes) {
    const n = (text.match(new RegExp(`(?<![A-Za-z])${code}(?![A-Za-z])`, 'g')) ?? []).length;
    if (n) counts.set(code, (counts.get(code) ?? 0) + 2 * n);
  }
  for (const [pattern, code] of currencySymbols) {
    const n = (text.match(pattern) ?? []).length;
    if (n) counts.set(code, (counts.get(code) ?? 0) + n);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (!best) return null;
  const code = best[0];
  const evidence = words.filter((w) => w.text.includes(code) || currencySymbols.some(([p, c]) => c === code && new RegExp(p.source, p.flags).test(w.text)));
  return { value: code, text: evidence[0]?.text ?? code, words: evidence.slice(0, 1), label: null };
}

/**
 * Whether the page writes numeric dates month first. The page's own dates decide where one can only be read one way
 * ("11/17/2017" has no 17th month; "20.10.2015" no 20th): the order a page uses for one date it uses for all. Where
 * none decides, US dollars suggest the US order, anything else day first.
 */
export function monthFirstDates(text: string, currency: string | null): boolean {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const m of text.matchAll(/(?<![\d.,/-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d.,/-]?\d)/g)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    if (a > 12 && b >= 1 && b <= 12) dayFirst++;
    else if (b > 12 && b <= 31 && a >= 1 && a <= 12) monthFirst++;
  }
  if (dayFirst !== monthFirst) return monthFirst > dayFirst;
  return currency === 'USD';
}

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
  const columnHeaders = itemHeaderLines(lines);
  const byField = (field: LabelledField): LabelHit[] =>
    hits.filter((h) => h.field === field && !columnHeaders.has(h.line)).sort((a, b) => a.tier - b.tier || a.line - b.line || a.segment - b.segment);

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
        const value = readMoney(sameLine) ?? readMoney(below);
        if (value) chosen = { ...value, label: hit.label };
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
  if (!issueDate) {
    const firstDateLine = lines.find((l) => findDates(l.text, { monthFirst }).length > 0);
    const date = firstDateLine ? findDates(firstDateLine.text, { monthFirst })[0]! : undefined;
    if (firstDateLine && date) issueDate = { value: date.iso, text: date.text, words: firstDateLine.words.filter((w) => date.text.includes(w.text)), label: null };
  }
  const dueDate = firstValid<string>('due_date', (c) => readDate(c, monthFirst));

  const bodyStart = columnHeaders.size > 0 ? Math.min(...columnHeaders) : lines.length;
  const { seller, buyer } = findParties({ lines, sellerHits: byField('seller'), buyerHits: byField('buyer'), labelled, bodyStart });

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
  const total = lastMoney('total', (field) => byField(field).filter((hit) => !isDueLabel(hit))) ?? lastMoney('total');
  const tax = lastMoney('tax') ?? columnTotal('tax');
  let subtotal = lastMoney('subtotal');
  const labelMap = new Map(hits.map((h) => [`${h.line}:${h.segment}`, h.field]));
  const untaxed = total && tax ? total.value - tax.value : null;
  const statedItemSums = [subtotal?.value ?? null, total?.value ?? null, untaxed];
  let items = extractLineItems(lines, labelMap, statedItemSums);
  if (items.length === 0) items = headerlessLineItems(lines, labelMap, statedItemSums);
  if (!subtotal) {
    const derived = inferSubtotal({ lines, total: total?.value ?? null, tax: tax?.value ?? null, items, lineAmounts: lineAmountBasis(lines) });
    if (derived) subtotal = { value: derived.value, text: derived.text, words: derived.words, label: null };
  }
  const block = readTotalsBlock({ lines, columnHeaders, items, subtotal, tax, total });

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
  };
}

export function toPlainFields(fields: InvoiceFields): PlainInvoiceFields {
  return {
    invoice_number: fields.invoice_number?.value ?? null,
    issue_date: fields.issue_date?.value ?? null,
    due_date: fields.due_date?.value ?? null,
    seller: fields.seller?.value ?? null,
    buyer: fields.buyer?.value ?? null,
    currency: fields.currency?.value ?? null,
    subtotal: fields.subtotal?.value ?? null,
    tax: fields.tax?.value ?? null,
    total: fields.total?.value ?? null,
    line_total: fields.line_total?.value ?? null,
    allowances: fields.allowances?.value ?? null,
    charges: fields.charges?.value ?? null,
    prepaid: fields.prepaid?.value ?? null,
    amount_due: fields.amount_due?.value ?? null,
    lines: fields.lines.map((l) => ({ description: l.description, quantity: l.quantity, unit_price: l.unitPrice, amount: l.amount })),
    tax_breakdown: fields.tax_breakdown.map((row) => ({ rate: row.rate, base: row.base, amount: row.amount })),
  };
}
