/**
 * Reading a till receipt by its own conventions (receiptConventions.ts states them), where the invoice readers'
 * labels and letterhead rule miss:
 * - a page is a receipt when it prints what only a sale at a till prints: the cash or card tendered, the change,
 *   a cashier, till or counter, a receipt or bill number, a rounding adjustment, a thank-you line (two or more);
 * - the merchant is the registered name in the first lines, before the first date, amount or item: the line with a
 *   company's legal form ("SDN BHD", "S/B", "Ltd", "GmbH"…) or the line over a registration or tax number ("Co. Reg",
 *   "GST ID", "(123456-X)"), never an address, phone or noise line (OCR of a faded header);
 * - the amount paid is the total printed before the payment lines, and where the cash tendered and the change are both
 *   printed, the amount among the total lines equal to cash − change (the till's own identity).
 */
import type { Word } from '../model/extraction.js';
import { findDates } from './dates.js';
import type { FieldValue } from './fieldValues.js';
import type { TextLine } from './layout.js';
import { moneyAmounts } from './moneyAmounts.js';

/** Words only a sale at a till prints, one pattern per kind of evidence. */
const receiptSignals: Record<string, RegExp> = {
  tendered: /(?<!\p{L})(?:cash|tender(?:ed)?|paid|bar(?:geld)?|gegeben|esp[èe]ces|visa|master\s?card|debit|credit\s?card|card)(?!\p{L})/iu,
  change: /(?<!\p{L})(?:change|r[üu]ckgeld|wechselgeld|rendu|monnaie)(?!\p{L})/iu,
  till: /(?<!\p{L})(?:cashier|till|counter|terminal|pos|kasse|caisse|operator|staff|served\s+by)(?!\p{L})/iu,
  receiptNumber: /(?<!\p{L})(?:receipt|cash\s*bill|bill\s*(?:no|#)|trans(?:action)?\.?\s*(?:no|#|:)|cb\s*#|slip|bon-?nr|beleg|ticket)(?!\p{L})/iu,
  rounding: /(?<!\p{L})(?:rounding|rounded|round\s*adj)(?!\p{L})/iu,
  thanks: /(?<!\p{L})(?:thank\s*you|come\s*again|danke|merci|vielen\s+dank)(?!\p{L})/iu,
};

export interface ReceiptEvidence {
  isReceipt: boolean;
  /** The kinds of evidence the page prints (receiptSignals' keys). */
  signals: string[];
}

/** Whether the page is a till receipt, and why. */
export function receiptEvidence(lines: readonly TextLine[]): ReceiptEvidence {
  const signals = Object.entries(receiptSignals)
    .filter(([, pattern]) => lines.some((line) => pattern.test(line.text)))
    .map(([name]) => name);
  return { isReceipt: signals.length >= 2, signals };
}

/** A company's legal form, in the languages and countries receipts come from. */
const legalForm =
  /(?<![\p{L}])(?:sdn\.?\s*bhd\.?|s\/b|bhd|berhad|pte\.?\s*ltd\.?|ltd|limited|llc|l\.l\.c|inc|corp(?:oration)?|gmbh|ag|kg|e\.k|sarl|sas|s\.a|bv|b\.v|nv|pty|plc|enterprises?|trading|company|co\.|restaurant|cafe|café|mart|store|shop|hardware|stationery|bakery|pharmacy)(?![\p{L}])/iu;
/** A line that starts with the legal form: the end of a name wrapped over two lines. */
const legalFormFirst = /^[(\[]?(?:co\.|company|sdn\.?\s*bhd|s\/b|bhd|berhad|pte|ltd|limited|llc|inc|gmbh|\(m\))/iu;
/** A registration or tax number's label, or a registration number in its printed form ("(0005583085-K)", "725186-V"). */
const registration = /(?<![\p{L}])(?:co\.?\s*reg|reg(?:istration)?\.?\s*no|roc|company\s*no|gst\s*(?:id|reg|no)|sst|vat|ust-?id|abn|uen|tin|siret|tax\s*id)(?![\p{L}])|\b\d{5,12}-[A-Z]\b/iu;
/** Address words: a street, an estate, a lot, a floor. */
const addressWord =
  /(?<![\p{L}])(?:jalan|jln|taman|lorong|lot|no\.?|road|rd|street|st|avenue|ave|blvd|lane|floor|level|block|blk|bk|unit|suite|stra(?:ss|ß)e|str|rue|platz|weg|kawasan|persiaran|bandar|wisma|plaza|mall)(?![\p{L}])/iu;
const contactLine = /(?<![\p{L}])(?:tel|fax|phone|h\/p|mobile|email|e-mail|www|http)(?![\p{L}])|@|\d{2,4}[- ]\d{3,4}[- ]?\d{3,4}/iu;
const postcode = /(?<!\d)\d{5}(?!\d)/;
const headerEnd = /(?<![\p{L}])(?:tax\s*invoice|invoice|receipt|cashier|date|qty|description|item|table|bill)(?![\p{L}])/iu;

/** The line's text with a trailing registration number and its brackets taken off ("KEDAI X (0005583085-K)" → "KEDAI X"). */
function nameText(line: TextLine): { text: string; words: Word[] } {
  const words = [...line.words];
  const trailing = (text: string): boolean => /^[(\[]?[\dA-Z-]*\d[\dA-Z-]*[)\]]?$/i.test(text) || /^[(\[].*[)\]]$/.test(text);
  while (words.length > 1 && trailing(words[words.length - 1]!.text)) words.pop();
  return { text: words.map((w) => w.text).join(' ').replace(/^[#*\s]+/, '').trim(), words };
}

const letterCount = (text: string): number => (text.match(/\p{L}/gu) ?? []).length;

/**
 * The merchant's name among the receipt's first lines (before the first date, amount or section word), or null where
 * none of them reads as a name.
 */
export function receiptMerchant(lines: readonly TextLine[]): FieldValue<string> | null {
  const header: TextLine[] = [];
  for (const line of lines.slice(0, 12)) {
    if (header.length > 0 && (findDates(line.text).length > 0 || moneyAmounts(line.text).length > 0 || headerEnd.test(line.text))) break;
    header.push(line);
  }
  let best: { score: number; text: string; words: Word[]; index: number } | null = null;
  header.forEach((line, i) => {
    const { text, words } = nameText(line);
    const letters = letterCount(text);
    const compact = text.replace(/\s+/g, '');
    if (letters < 4 || letters / Math.max(1, compact.length) < 0.6) return;
    if (contactLine.test(text) || (addressWord.test(text) && /\d/.test(text)) || postcode.test(text) || /^(?:no\.?|lot)\s*\d/i.test(text)) return;
    // Mostly lower case short words: a slogan or OCR noise rather than a registered name, printed in capitals.
    const upper = (text.match(/\p{Lu}/gu) ?? []).length;
    let score = -0.3 * i;
    if (legalForm.test(text)) score += 3;
    if (registration.test(line.text) || (header[i + 1] && registration.test(header[i + 1]!.text))) score += 2;
    if (upper / letters > 0.7) score += 1;
    if (addressWord.test(text)) score -= 2;
    if (!best || score > best.score) best = { score, text, words, index: i };
  });
  const chosen = best as { score: number; text: string; words: Word[]; index: number } | null;
  if (!chosen || chosen.score <= 0) return null;
  // A name wrapped before its legal form ("POPULAR BOOK" / "CO. (M) SDN BHD"): the line above starts it.
  const above = header[chosen.index - 1];
  if (above && legalFormFirst.test(chosen.text)) {
    const start = nameText(above);
    if (letterCount(start.text) >= 3 && !contactLine.test(start.text) && !/\d/.test(start.text)) {
      const text = `${start.text} ${chosen.text}`;
      return { value: text, text, words: [...start.words, ...chosen.words], label: null };
    }
  }
  return { value: chosen.text, text: chosen.text, words: chosen.words, label: null };
}

/** A line naming the amount to pay; not a quantity count, a tax line, a saving or an amount before tax. */
const totalLine = /(?<![\p{L}])(?:total|nett?|amount\s*due|amt\s*due|grand|jumlah|payable|to\s*pay|balance\s*due|summe|rounded)(?![\p{L}])/iu;
const notTheTotal = /(?<![\p{L}])(?:qty|quantity|items?|pcs|excl(?:uding|\.)?|before|saving|savings|discount|summary|point|points)(?![\p{L}])|total\s*(?:gst|tax|vat|sst)(?![\p{L}])/iu;
/** A tax's name: a line that names one is the tax ("GST Payable"), unless the total includes it ("Total incl. GST"). */
const taxWord = /(?<![\p{L}])(?:gst|sst|vat|tax|mwst|ust|tva)(?![\p{L}])/iu;
const includesTax = /(?<![\p{L}])incl/iu;

/** OCR of a till's print splits an amount after its decimal point ("49. 40", "50, 00"): joined again. */
const splitDecimals = (text: string): string => text.replace(/(\d)([.,]) (\d{2})(?!\d)/g, '$1$2$3');
const cashLine = /(?<![\p{L}])(?:cash|tender(?:ed)?|paid|bar(?:geld)?|gegeben|esp[èe]ces|visa|master\s?card|card)(?!\p{L})/iu;
const changeLine = /(?<![\p{L}])(?:change|r[üu]ckgeld|wechselgeld|rendu|monnaie)(?!\p{L})/iu;

interface LineAmount {
  line: number;
  value: number;
  text: string;
  words: Word[];
}

/** The last money amount a line prints (a till prints the amount at its right end), or on the line under a bare label. */
function amountOf(lines: readonly TextLine[], index: number): LineAmount | null {
  const read = (i: number): LineAmount | null => {
    const line = lines[i];
    if (!line) return null;
    const amounts = moneyAmounts(splitDecimals(line.text));
    const last = amounts[amounts.length - 1];
    if (!last) return null;
    const pieces = last.text.split(' ');
    return { line: i, value: last.value, text: last.text, words: line.words.filter((w) => pieces.some((p) => p.includes(w.text) || w.text.includes(p))) };
  };
  const own = read(index);
  if (own) return own;
  const next = lines[index + 1];
  return next && letterCount(next.text) <= 3 ? read(index + 1) : null;
}

/** The amount paid on a receipt, or null where the page prints no total line before its payment lines. */
export function receiptTotal(lines: readonly TextLine[]): FieldValue<number> | null {
  const firstPayment = lines.findIndex((line) => (cashLine.test(line.text) || changeLine.test(line.text)) && !totalLine.test(line.text.replace(cashLine, '')) && moneyAmounts(line.text).length > 0);
  const cash = lines.findIndex((line) => cashLine.test(line.text) && !changeLine.test(line.text) && moneyAmounts(line.text).length > 0);
  const change = lines.findIndex((line, i) => i > cash && changeLine.test(line.text));
  const candidates: LineAmount[] = [];
  lines.forEach((line, i) => {
    if (!totalLine.test(line.text) || notTheTotal.test(line.text) || changeLine.test(line.text)) return;
    if (taxWord.test(line.text) && !includesTax.test(line.text)) return;
    if (cashLine.test(line.text) && !/incl/i.test(line.text)) return;
    const amount = amountOf(lines, i);
    if (amount && amount.value > 0) candidates.push(amount);
  });
  if (cash >= 0 && change > cash) {
    const tendered = amountOf(lines, cash);
    const given = amountOf(lines, change);
    if (tendered && given && tendered.value >= given.value) {
      const paid = Math.round((tendered.value - given.value) * 100) / 100;
      // A total line that shows it, or else any amount printed before the cash line (a total label OCR misread).
      const printed = Array.from({ length: cash }, (_, i) => amountOf(lines, i)).filter((a): a is LineAmount => a !== null && a.line < cash);
      const match = candidates.find((c) => Math.abs(c.value - paid) < 0.005) ?? printed.reverse().find((a) => Math.abs(a.value - paid) < 0.005);
      if (match && paid > 0) return { value: match.value, text: match.text, words: match.words, label: `${lines[match.line]!.text} (= cash − change)` };
    }
  }
  const before = candidates.filter((c) => firstPayment < 0 || c.line < firstPayment);
  const chosen = before[before.length - 1];
  return chosen ? { value: chosen.value, text: chosen.text, words: chosen.words, label: lines[chosen.line]!.text } : null;
}

/**
 * A receipt's date whose separators OCR lost ("27032018", "27/0618"): eight digits, or day/monthyear, that make a
 * real date in the order the page writes dates, in 1990–2069. Only where no date was read otherwise; a phone or
 * registration number seldom makes a valid day, month and year in that order.
 */
export function runTogetherDate(lines: readonly TextLine[], monthFirst: boolean): FieldValue<string> | null {
  for (const line of lines) {
    for (const word of line.words) {
      const m = /^(\d{2})\/?(\d{2})\/?(\d{4}|\d{2})$/.exec(word.text.replace(/[.,:;]+$/, ''));
      if (!m || !/^\d{8}$|^\d{2}\/\d{4,6}$|^\d{4}\/\d{2,4}$/.test(word.text.replace(/[.,:;]+$/, ''))) continue;
      const [a, b] = [Number(m[1]), Number(m[2])];
      const [day, month] = monthFirst ? [b, a] : [a, b];
      let year = Number(m[3]);
      if (m[3]!.length === 2) year += 2000;
      if (year < 1990 || year > 2069 || month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) continue;
      const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      return { value: iso, text: word.text, words: [word], label: null };
    }
  }
  return null;
}
