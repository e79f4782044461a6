/**
 * The VAT breakdown (EN 16931 BG-23) as a page prints it: per VAT rate the taxable amount (BT-116), the rate (BT-119)
 * and the tax (BT-117). Two layouts carry it:
 *
 * 1. a breakdown table — a header row naming a rate column and a tax (or taxable amount) column ("Steuersatz",
 *    "Steuerbetrag", "Basisbetrag"; "Tax | Base | Amount"; "Taux | Base HT | Montant TVA") over one row per rate;
 * 2. a totals line per rate — a VAT word and a percentage, then the amounts ("VAT 19% on 100.00: 19.00",
 *    "MwSt. 19 % 19,00", "TVA 20 % : 9,34 €", "USt. (19 %) 16,61 €", "19 % MwSt. auf 100,00 € 19,00 €").
 *
 * Which printed amount is the base and which the tax is decided by BR-CO-17 (tax = base × rate, rounded to the
 * cent), not by position: a row's amounts are tried in pairs, then as a gross amount and the tax it includes (prices
 * with the tax in them, a till's "GST 6% 22.00 1.25": the base is 20.75), and only where neither fits do the column
 * names (or, inline, the order base-then-tax) decide — so BR-CO-17 then fails and shows the row. A single row that prints no
 * base has the total without VAT as its base (with one VAT category they are the same amount, EN 16931 BR-CO-13/
 * BR-S-08), so BR-CO-17 still checks the printed tax. Item rows and the item table's header are never read here.
 */
import type { Word } from '../model/extraction.js';
import type { AmountMatch } from './amounts.js';
import { moneyAmounts } from './moneyAmounts.js';
import { labelPatterns } from './labels.js';
import type { Segment, TextLine } from './layout.js';
import { settlementLabelAt } from './settlementLabels.js';

export interface VatRow {
  /** Percent (19 for 19 %), null where not printed. */
  rate: number | null;
  base: number | null;
  amount: number | null;
  /** The row's words (boxes for highlighting) and text. */
  words: Word[];
  text: string;
  /** The base is the total without VAT, not printed on the row. */
  baseFromSubtotal: boolean;
  /** The row prints the gross amount the tax is included in; the base is that amount less the tax (grossPair). */
  baseFromGross: boolean;
}

type Column = 'rate' | 'base' | 'tax';

/** Column names of a breakdown table's header row (start of a header cell). */
const columnNames: Record<Column, RegExp> = {
  rate: /^(?:(?:ust|mwst|vat|tax|tva|btw|iva|steuer)\.?\s*(?:-\s*)?(?:satz|rate|%)|steuersatz|satz|(?:vat|tax)\s+rate|rate|taux(?:\s+(?:de\s+)?tva)?|tarief|aliquota|%)(?![\p{L}])/iu,
  base: /^(?:basisbetrag|bemessungsgrundlage|nettobetrag|netto|entgelt|base(?:\s+(?:ht|hors\s+taxes?|imponible))?|taxable(?:\s+amount)?|net(?:\s+amount)?|montant\s+ht|total\s+ht|grondslag|imponibile)(?![\p{L}])/iu,
  tax: /^(?:steuerbetrag|steuer|mwst\.?(?:\s*(?:-\s*)?betrag)?|ust\.?(?:\s*(?:-\s*)?betrag)?|umsatzsteuer(?:betrag)?|(?:vat|tax)(?:\s+amount)?|montant\s+(?:de\s+la\s+)?tva|montant|tva|btw(?:\s*(?:-\s*)?bedrag)?|iva|imposta|amount|betrag)(?![\p{L}])/iu,
};

/** A VAT word opening a totals line, optionally after "incl." / "zzgl." / "davon" / "dont". */
const vatLineStart = /^(?:(?:incl\.?|including|inkl\.?|zzgl\.?|zuzüglich|plus|davon|enthaltene?|dont|\+)\s+)?(?:vat|tax|sales\s+tax|gst|mwst|ust|umsatzsteuer|mehrwertsteuer|tva|btw|iva)(?![\p{L}])/iu;
/** A rate then a VAT word ("19 % MwSt. auf 100,00"). */
const rateThenVat = /^(?:(?:incl\.?|inkl\.?|zzgl\.?|davon|dont|plus|\+)\s+)?\d{1,2}(?:[.,]\d{1,2})?\s?%\s+(?:vat|tax|gst|mwst|ust|umsatzsteuer|mehrwertsteuer|tva|btw|iva)(?![\p{L}])/iu;
const PERCENT = /(?<![\d.,])(-?\d{1,2}(?:[.,]\d{1,4})?)\s?%|%\s?(\d{1,2}(?:[.,]\d{1,2})?)(?![\d])/u;
/** Rates a VAT can have: 0 to 50 percent. */
const MAX_RATE = 50;
/** Rows of one table at most; after a row, this many lines without an amount end the table. */
const MAX_ROWS = 12;
const MAX_GAP_LINES = 2;

const cents = (value: number): number => Math.round(value * 100);
/** Half away from zero, as BR-CO-17 rounds. */
const taxOf = (base: number, rate: number): number => Math.sign(base * rate) * Math.round(Math.abs(base * rate) / 100 * 100 + 1e-9) / 100;
const fits = (base: number, rate: number, tax: number): boolean => Math.abs(cents(taxOf(base, rate)) - cents(tax)) <= 1;
/** The tax included in a gross amount at `rate`: gross × rate / (100 + rate), to the cent. */
const includedTax = (gross: number, rate: number): number => Math.round((gross * rate * 100) / (100 + rate) + 1e-9) / 100;

const parseRate = (text: string): number | null => {
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) && value >= 0 && value <= MAX_RATE ? value : null;
};

function money(text: string): AmountMatch[] {
  return moneyAmounts(text.replace(new RegExp(PERCENT.source, 'gu'), (m) => ' '.repeat(m.length)));
}

const startsWithTotalsLabel = (text: string): boolean =>
  settlementLabelAt(text) !== null || (['subtotal', 'total'] as const).some((field) => labelPatterns[field].some((pattern) => pattern.test(text))) || /^(?:tax|vat|mwst|tva)\s+total/i.test(text);

interface Header {
  line: number;
  columns: Partial<Record<Column, Segment>>;
}

/** The breakdown columns a header row names (null: the row is no breakdown header). */
function breakdownColumns(line: TextLine): Partial<Record<Column, Segment>> | null {
  if (line.segments.length < 2) return null;
  const columns: Partial<Record<Column, Segment>> = {};
  for (const segment of line.segments) {
    if (money(segment.text).length > 0) break; // "Net total 2,076.76 €" beside the header belongs to another block
    for (const column of ['rate', 'base', 'tax'] as const) {
      if (!columns[column] && columnNames[column].test(segment.text.trim())) {
        columns[column] = segment;
        break;
      }
    }
  }
  // "Tax | Base | Amount": the first column names the tax category, the rate is printed inside it.
  return (columns.rate && (columns.base || columns.tax)) || (columns.base && columns.tax) ? columns : null;
}

function findHeaders(lines: readonly TextLine[], skip: ReadonlySet<number>): Header[] {
  return lines.flatMap((line, l) => {
    const columns = skip.has(l) ? null : breakdownColumns(line);
    return columns ? [{ line: l, columns }] : [];
  });
}

/**
 * A breakdown table's header row, with no number in it ("Steuersatz [%] | Steuerbetrag | Basisbetrag"): the item
 * table ends there (its last item must not take the breakdown's first row as one more item).
 */
export function isBreakdownHeader(line: TextLine): boolean {
  return !/\d/.test(line.text) && breakdownColumns(line) !== null;
}

const overlaps = (segment: Segment, column: Segment | undefined): boolean =>
  column !== undefined && Math.min(segment.x2, column.x2) - Math.max(segment.x1, column.x1) > 0;

/**
 * Base and tax among a row's amounts: the pair BR-CO-17 accepts, else a gross amount and the tax it includes
 * (grossPair), else the columns' or the printed order's.
 */
function assign(amounts: AmountMatch[], rate: number | null, byColumn: { base?: AmountMatch; tax?: AmountMatch }): { base: number | null; amount: number | null; baseFromGross: boolean } {
  if (rate !== null) {
    for (let t = amounts.length - 1; t >= 0; t--) {
      for (let b = 0; b < amounts.length; b++) {
        if (b !== t && fits(amounts[b]!.value, rate, amounts[t]!.value) && (amounts[b]!.value !== 0 || amounts[t]!.value === 0)) {
          return { base: amounts[b]!.value, amount: amounts[t]!.value, baseFromGross: false };
        }
      }
    }
    const gross = grossPair(amounts, rate);
    if (gross) return { ...gross, baseFromGross: true };
  }
  if (byColumn.base || byColumn.tax) return { base: byColumn.base?.value ?? null, amount: byColumn.tax?.value ?? null, baseFromGross: false };
  if (amounts.length >= 2) return { base: amounts[amounts.length - 2]!.value, amount: amounts[amounts.length - 1]!.value, baseFromGross: false };
  return { base: null, amount: amounts[0]?.value ?? null, baseFromGross: false };
}

/**
 * Where prices include the tax (a till's receipt: "GST SR 6% 22.00 1.25", over "Amt. Excl. GST 20.75"; "inkl. 19 %
 * MwSt. 119,00 19,00") a row prints the gross amount and the tax in it: tax = gross × rate / (100 + rate). Taken as the
 * gross amount only where no amount of the row is a base at that rate (assign tries those first), so the base is the
 * gross less the tax and BR-CO-17 checks the row as printed instead of failing on a base that was never one.
 */
function grossPair(amounts: readonly AmountMatch[], rate: number): { base: number; amount: number } | null {
  if (rate <= 0) return null;
  for (let t = amounts.length - 1; t >= 0; t--) {
    for (let g = 0; g < amounts.length; g++) {
      const [gross, tax] = [amounts[g]!.value, amounts[t]!.value];
      if (g !== t && tax > 0 && gross > tax && Math.abs(cents(includedTax(gross, rate)) - cents(tax)) <= 1) return { base: (cents(gross) - cents(tax)) / 100, amount: tax };
    }
  }
  return null;
}

function tableRow(line: TextLine, header: Header): VatRow | null {
  const amounts: AmountMatch[] = [];
  const byColumn: { base?: AmountMatch; tax?: AmountMatch } = {};
  let rate: number | null = null;
  for (const segment of line.segments) {
    const percent = PERCENT.exec(segment.text);
    if (percent && rate === null) rate = parseRate(percent[1] ?? percent[2]!);
    if (overlaps(segment, header.columns.rate) && rate === null) {
      const bare = /^\s*(\d{1,2}(?:[.,]\d{1,4})?)\s*(?:%\s*)?$/.exec(segment.text);
      if (bare) {
        rate = parseRate(bare[1]!);
        continue;
      }
    }
    for (const amount of money(segment.text)) {
      amounts.push(amount);
      if (overlaps(segment, header.columns.tax) && !byColumn.tax) byColumn.tax = amount;
      else if (overlaps(segment, header.columns.base) && !byColumn.base) byColumn.base = amount;
    }
  }
  if (amounts.length === 0 || (rate === null && !byColumn.tax)) return null;
  return { rate, ...assign(amounts, rate, byColumn), words: line.words, text: line.text, baseFromSubtotal: false };
}

function inlineRow(line: TextLine): VatRow | null {
  const first = line.segments[0]!.text.trim();
  if (!vatLineStart.test(first) && !rateThenVat.test(first)) return null;
  const percent = PERCENT.exec(line.text);
  const rate = percent ? parseRate(percent[1] ?? percent[2]!) : null;
  if (rate === null) return null;
  const amounts = money(line.text);
  if (amounts.length === 0) return null;
  return { rate, ...assign(amounts, rate, {}), words: line.words, text: line.text, baseFromSubtotal: false };
}

export interface VatContext {
  lines: readonly TextLine[];
  /** The item table's header and rows. */
  skip?: ReadonlySet<number>;
  /** Total without VAT: the base of a single row that prints none. */
  subtotal: number | null;
  /** VAT total: which rows make up the breakdown where more are printed (BR-CO-14). */
  tax: number | null;
}

export function readVatBreakdown(context: VatContext): VatRow[] {
  const { lines } = context;
  const skip = context.skip ?? new Set<number>();
  const rows: VatRow[] = [];
  const tableRows = new Set<VatRow>();
  const used = new Set<number>();
  for (const header of findHeaders(lines, skip)) {
    used.add(header.line);
    let gap = 0;
    for (let l = header.line + 1; l < lines.length && rows.length < MAX_ROWS; l++) {
      const line = lines[l]!;
      if (skip.has(l) || startsWithTotalsLabel(line.segments[0]!.text)) break;
      const row = tableRow(line, header);
      if (!row) {
        if (money(line.text).length > 0 || ++gap > MAX_GAP_LINES) break;
        continue;
      }
      gap = 0;
      used.add(l);
      rows.push(row);
      tableRows.add(row);
    }
  }
  lines.forEach((line, l) => {
    if (skip.has(l) || used.has(l)) return;
    const row = inlineRow(line);
    // The same rate and tax printed twice (a breakdown table and a totals line) is one row.
    if (row && !rows.some((r) => r.rate === row.rate && r.amount === row.amount)) rows.push(row);
  });
  return withSubtotalBase(consistentRows(rows, tableRows, context.tax), context.subtotal);
}

const sumCents = (rows: readonly VatRow[]): number => rows.reduce((sum, row) => sum + cents(row.amount ?? 0), 0);

/**
 * The rows BR-CO-14 accepts: a table's rows without its sum row (no rate, repeating the rows' total), and — where the
 * VAT total is known and all rows together miss it — the table's rows or the totals lines alone if they meet it
 * (an allowance's own tax detail, "7 % UST 0,02", is no breakdown row).
 */
function consistentRows(rows: VatRow[], tableRows: ReadonlySet<VatRow>, tax: number | null): VatRow[] {
  const rated = rows.filter((row) => row.rate !== null);
  const kept = rows.filter((row) => row.rate !== null || row.amount === null || cents(row.amount) !== sumCents(rated));
  if (tax === null || sumCents(kept) === cents(tax)) return kept;
  for (const part of [kept.filter((row) => tableRows.has(row)), kept.filter((row) => !tableRows.has(row))]) {
    if (part.length > 0 && sumCents(part) === cents(tax)) return part;
  }
  return kept;
}

function withSubtotalBase(rows: VatRow[], subtotal: number | null): VatRow[] {
  const only = rows.length === 1 ? rows[0]! : null;
  if (only && only.base === null && subtotal !== null) return [{ ...only, base: subtotal, baseFromSubtotal: true }];
  return rows;
}
