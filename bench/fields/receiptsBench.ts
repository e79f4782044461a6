/**
 * The receipt benchmark (`bench:fields -- --receipts`) over `../shared/testdata/receipts/`: the merchant (seller),
 * date and total of each scanned receipt read first-seen, and again as "the second receipt of a supplier" (each
 * vendor's first receipt confirmed with its key values and learned, the others read through the same memory), by
 * vendor group (heldOutVendors.ts); OCR character error rate against the box/ transcripts; seconds per receipt.
 * Pure over the receipts' words: benchFields.ts reads the images (receiptWords.ts).
 */
import { extractInvoiceFields, scoreInvoiceFields, toPlainFields } from '../../app/invoice/index.js';
import { genericScores, learnLesson, readWithMemory, SupplierIndex, type ConfirmedValues, type SupplierTrackRecord, type TaughtLesson } from '../../app/invoice/supplierMemory/index.js';
import { characterErrorRate } from '../../app/checks/textDistance.js';
import { readFieldValues, reviewRules } from '../../app/invoice/review/index.js';
import type { Word } from '../../app/model/extraction.js';
import { namesAgree } from '../engine/einvoiceFieldBench.js';
import type { Tally } from './fieldsBench.js';

export const receiptKeyFields = ['seller', 'issue_date', 'total'] as const;
export type ReceiptKeyField = (typeof receiptKeyFields)[number];
export type VendorGroup = 'development' | 'heldOut';
export const vendorGroups: readonly VendorGroup[] = ['development', 'heldOut'];

export interface ReceiptTruth {
  receipt: string;
  vendorKey: string;
  /** key/<receipt>.json: company, date and total as printed. */
  company: string;
  date: string;
  total: string;
  /** box/<receipt>.txt: the transcripts of the text lines, in the file's order. */
  lines: string[];
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/**
 * A printed receipt date to ISO, in the forms the receipts' keys print it: day first (the receipts are Malaysian:
 * DD/MM/YYYY, DD-MM-YY, DD MMM YYYY, DD-MMM-YYYY), month first only where the day cannot be first (12/28/2017, MMM D,
 * YYYY), year first (2018/02/22, 2018-01-05), eight digits run together (20180304, 25032018), in brackets; two-digit
 * years in 2000–2099. Null where the key is not a date.
 */
export function printedDateToIso(printed: string): string | null {
  const text = printed.trim().toUpperCase().replace(/^\((.*)\)$/, '$1');
  const numeric = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(text);
  const named = /^(\d{1,2})[\s/.-]*([A-Z]{3})[A-Z]*[\s/.,-]*(\d{2}|\d{4})$/.exec(text);
  const nameFirst = /^([A-Z]{3})[A-Z]*\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(text);
  const yearFirst = /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$/.exec(text);
  const run = /^\d{8}$/.test(text) ? text : null;
  let day: number, month: number, year: number;
  if (numeric) {
    [day, month, year] = [Number(numeric[1]), Number(numeric[2]), Number(numeric[3])];
    if (month > 12 && day <= 12) [day, month] = [month, day];
  } else if (named && MONTHS.includes(named[2]!)) [day, month, year] = [Number(named[1]), MONTHS.indexOf(named[2]!) + 1, Number(named[3])];
  else if (nameFirst && MONTHS.includes(nameFirst[1]!)) [day, month, year] = [Number(nameFirst[2]), MONTHS.indexOf(nameFirst[1]!) + 1, Number(nameFirst[3])];
  else if (yearFirst) [year, month, day] = [Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3])];
  else if (run && /^(?:19|20)\d{2}(?:0[1-9]|1[0-2])/.test(run)) [year, month, day] = [Number(run.slice(0, 4)), Number(run.slice(4, 6)), Number(run.slice(6))];
  else if (run) [day, month, year] = [Number(run.slice(0, 2)), Number(run.slice(2, 4)), Number(run.slice(4))];
  else return null;
  if (year < 100) year += 2000;
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The key's total ("RM7.00", "31.00") as a number. */
export function printedTotal(printed: string): number | null {
  const m = /(\d[\d,]*\.\d{2})/.exec(printed.replace(/\s+/g, ''));
  return m ? Number(m[1]!.replace(/,/g, '')) : null;
}

export function receiptValueRight(field: ReceiptKeyField, truth: ReceiptTruth, actual: string | number | null | undefined): boolean {
  if (actual === null || actual === undefined || actual === '') return false;
  if (field === 'total') {
    const expected = printedTotal(truth.total);
    return expected !== null && Math.abs(Number(actual) - expected) < 0.005;
  }
  if (field === 'issue_date') return printedDateToIso(truth.date) === String(actual);
  // OCR runs a receipt's spaced capitals together ("CW KHOO" for "C W KHOO"): names compare without spaces and
  // punctuation as well as by namesAgree (case, legal forms, one containing the other word for word).
  const compact = (text: string): string => text.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
  return compact(truth.company) === compact(String(actual)) || namesAgree(truth.company, String(actual));
}

/** What the analyst confirms on a receipt: its merchant, date and total; nothing else is printed as a key. */
export function confirmedReceipt(truth: ReceiptTruth): ConfirmedValues {
  return {
    invoice_number: null,
    issue_date: printedDateToIso(truth.date),
    due_date: null,
    seller: truth.company,
    buyer: null,
    currency: null,
    subtotal: null,
    tax: null,
    total: printedTotal(truth.total),
  };
}

export interface ScoredReceiptValue {
  receipt: string;
  vendorKey: string;
  field: ReceiptKeyField;
  right: boolean;
  confidence: number;
  fromMemory: boolean;
  value: string | number | null;
}

export interface ReceiptsBenchResult {
  receipts: Record<VendorGroup, number>;
  firstSeen: Record<VendorGroup, Tally> & { byField: Record<VendorGroup, Record<ReceiptKeyField, Tally>> };
  secondReceipt: Record<VendorGroup, Tally> & {
    /** With memory, per key field: which field the second receipt still misses. */
    byField: Record<VendorGroup, Record<ReceiptKeyField, Tally>>;
    withoutMemory: Record<VendorGroup, Tally>;
    /** The same receipts read without memory, per key field: what memory adds or costs on each. */
    withoutMemoryByField: Record<VendorGroup, Record<ReceiptKeyField, Tally>>;
    recognised: Record<VendorGroup, Tally>;
    /** Every vendor's first receipt taught (one-receipt vendors too), the others read: right = not taken for another vendor. */
    notMistaken: Record<VendorGroup, Tally>;
    /**
     * Every ordered pair of one vendor's receipts, the one taught alone and the other read with memory, per key field:
     * more readings than first-then-others (a vendor of four receipts gives twelve), so a lesson's place is tried on
     * receipts it was not taught from whichever comes first.
     */
    everyPair: Record<VendorGroup, Record<ReceiptKeyField, Tally>>;
  };
  /** Characters: edits over reference characters, all receipts of the group; `sortedWords`: both sides' words sorted (reading order aside). */
  cer: Record<VendorGroup, { cer: number; sortedWords: number } | null>;
  /**
   * Receipts whose first-seen reading fails a rule (what would need a reason to approve before any correction): how
   * many, and per rule how many receipts fail it. A failure is a misread or a convention the rules do not know; which
   * receipts fail is not listed (held-out failures stay unseen).
   */
  failingRules: Record<VendorGroup, { receipts: number; byRule: Record<string, number> }>;
  /** Development values only (held-out failures stay unseen). */
  developmentValues: ScoredReceiptValue[];
}

type Reading = Record<ReceiptKeyField, { value: string | number | null; confidence: number; fromMemory: boolean }>;

const pageText = (words: readonly Word[]): string => words.map((w) => w.text).join(' ');

function firstSeen(words: readonly Word[]): Reading {
  const fields = extractInvoiceFields({ words });
  const scores = scoreInvoiceFields(fields, pageText(words));
  const reading = {} as Reading;
  for (const key of receiptKeyFields) reading[key] = { value: (fields[key]?.value as string | number | null | undefined) ?? null, confidence: scores[key]?.confidence ?? 0, fromMemory: false };
  return reading;
}

/** The rules the receipt's first-seen reading fails (each once), as the review screen runs them on the page's values. */
function failingRuleNames(words: readonly Word[]): string[] {
  const values = readFieldValues(toPlainFields(extractInvoiceFields({ words })) as unknown as Record<string, unknown>);
  return [...new Set(reviewRules(values, pageText(words)).filter((r) => r.status === 'fail').map((r) => r.rule))].sort();
}

function scoreReceipt(truth: ReceiptTruth, reading: Reading): ScoredReceiptValue[] {
  return receiptKeyFields.map((field) => ({
    receipt: truth.receipt,
    vendorKey: truth.vendorKey,
    field,
    right: receiptValueRight(field, truth, reading[field].value),
    confidence: reading[field].confidence,
    fromMemory: reading[field].fromMemory,
    value: reading[field].value,
  }));
}

const tally = (values: readonly { right: boolean }[]): Tally => ({ right: values.filter((v) => v.right).length, total: values.length });
const byField = (values: readonly ScoredReceiptValue[]): Record<ReceiptKeyField, Tally> =>
  Object.fromEntries(receiptKeyFields.map((f) => [f, tally(values.filter((v) => v.field === f))])) as Record<ReceiptKeyField, Tally>;
const sortedWords = (text: string): string => text.split(/\s+/).filter(Boolean).sort().join(' ');

function pooledCer(pairs: readonly { hypothesis: string; reference: string }[]): number | null {
  let edits = 0;
  let chars = 0;
  for (const { hypothesis, reference } of pairs) {
    const n = reference.replace(/\s+/g, ' ').trim().length;
    edits += characterErrorRate(hypothesis, reference) * n;
    chars += n;
  }
  return chars ? edits / chars : null;
}

/** `wordsOf`: the receipt's OCR words; `groupOf`: its vendor's group. Receipts are taken in the order given. */
export function runReceiptsBench(truths: readonly ReceiptTruth[], wordsOf: (receipt: string) => Word[], groupOf: (vendorKey: string) => VendorGroup): ReceiptsBenchResult {
  const generic = new Map(truths.map((t) => [t.receipt, firstSeen(wordsOf(t.receipt))]));
  const first = truths.flatMap((t) => scoreReceipt(t, generic.get(t.receipt)!));

  const vendors = [...new Set(truths.map((t) => t.vendorKey))].sort();
  /** What the analyst confirming this receipt teaches memory (its key values). */
  const lessonOf = (truth: ReceiptTruth): TaughtLesson => ({ supplierId: truth.vendorKey, supplierName: truth.company, pageId: truth.receipt, lesson: learnLesson(wordsOf(truth.receipt), confirmedReceipt(truth)) });
  const taught: TaughtLesson[] = [];
  for (const vendor of vendors) {
    const mine = truths.filter((t) => t.vendorKey === vendor);
    if (mine.length < 2) continue;
    taught.push(lessonOf(mine[0]!));
  }
  const index = new SupplierIndex(taught);
  const records = new Map<string, SupplierTrackRecord>();
  // Each receipt's words read into fields once, for every lesson it is read through below.
  const extracted = new Map<string, { fields: ReturnType<typeof extractInvoiceFields>; words: Word[] }>();
  const extractedOf = (receipt: string) => {
    let got = extracted.get(receipt);
    if (!got) {
      const words = wordsOf(receipt);
      got = { words, fields: extractInvoiceFields({ words }) };
      extracted.set(receipt, got);
    }
    return got;
  };
  /** The receipt read through `lessons`: memory's reading, and the key fields with memory's values over the page's. */
  const throughMemory = (truth: ReceiptTruth, lessons: SupplierIndex) => {
    const { words, fields } = extractedOf(truth.receipt);
    const memory = readWithMemory(words, toPlainFields(fields), lessons, records, genericScores(fields, pageText(words)));
    const reading = { ...generic.get(truth.receipt)! };
    for (const key of receiptKeyFields) {
      const got = memory?.fields[key];
      if (got) reading[key] = { value: got.value as string | number | null, confidence: got.confidence, fromMemory: got.source === 'supplier memory' };
    }
    return { memory, reading };
  };

  const second: ScoredReceiptValue[] = [];
  const before: ScoredReceiptValue[] = [];
  const recognised: { vendorKey: string; right: boolean }[] = [];
  for (const vendor of vendors) {
    const mine = truths.filter((t) => t.vendorKey === vendor);
    if (mine.length < 2) continue;
    for (const truth of mine.slice(1)) {
      const { memory, reading } = throughMemory(truth, index);
      recognised.push({ vendorKey: vendor, right: memory?.supplierId === vendor });
      second.push(...scoreReceipt(truth, reading));
      before.push(...scoreReceipt(truth, generic.get(truth.receipt)!));
    }
  }

  const pairs: ScoredReceiptValue[] = [];
  for (const vendor of vendors) {
    const mine = truths.filter((t) => t.vendorKey === vendor);
    for (const taughtBy of mine) {
      const only = new SupplierIndex([lessonOf(taughtBy)]);
      for (const truth of mine) if (truth !== taughtBy) pairs.push(...scoreReceipt(truth, throughMemory(truth, only).reading));
    }
  }

  // Memory recognises through OCR noise (a name, a letterhead, an identifier one character off): with every vendor's
  // first receipt taught, no other receipt may be taken for another vendor's.
  const firsts = vendors.map((vendor) => truths.find((t) => t.vendorKey === vendor)!);
  const everyone = new SupplierIndex(firsts.map(lessonOf));
  const mistaken = truths
    .filter((t) => !firsts.includes(t))
    .map((t) => {
      const { memory } = throughMemory(t, everyone);
      return { vendorKey: t.vendorKey, right: !memory || memory.supplierId === t.vendorKey };
    });

  const inGroup = <T extends { vendorKey: string }>(values: readonly T[], group: VendorGroup): T[] => values.filter((v) => groupOf(v.vendorKey) === group);
  const per = <T>(figure: (group: VendorGroup) => T): Record<VendorGroup, T> => ({ development: figure('development'), heldOut: figure('heldOut') });
  const cerPairs = (group: VendorGroup, sorted: boolean) =>
    inGroup(truths, group).map((t) => {
      const hypothesis = pageText(wordsOf(t.receipt));
      const reference = t.lines.join('\n');
      return sorted ? { hypothesis: sortedWords(hypothesis), reference: sortedWords(reference) } : { hypothesis, reference };
    });
  return {
    receipts: per((g) => inGroup(truths, g).length),
    firstSeen: {
      ...per((g) => tally(inGroup(first, g))),
      byField: per((g) => byField(inGroup(first, g))),
    },
    secondReceipt: {
      ...per((g) => tally(inGroup(second, g))),
      byField: per((g) => byField(inGroup(second, g))),
      withoutMemory: per((g) => tally(inGroup(before, g))),
      withoutMemoryByField: per((g) => byField(inGroup(before, g))),
      recognised: per((g) => tally(inGroup(recognised, g))),
      notMistaken: per((g) => tally(inGroup(mistaken, g))),
      everyPair: per((g) => byField(inGroup(pairs, g))),
    },
    failingRules: per((g) => {
      const failing = inGroup(truths, g).map((t) => failingRuleNames(wordsOf(t.receipt)));
      const byRule: Record<string, number> = {};
      for (const rule of failing.flat()) byRule[rule] = (byRule[rule] ?? 0) + 1;
      return { receipts: failing.filter((rules) => rules.length > 0).length, byRule };
    }),
    cer: per((g) => {
      const [cer, sorted] = [pooledCer(cerPairs(g, false)), pooledCer(cerPairs(g, true))];
      return cer === null || sorted === null ? null : { cer, sortedWords: sorted };
    }),
    developmentValues: [...inGroup(first, 'development'), ...inGroup(second, 'development').map((v) => ({ ...v, receipt: `${v.receipt} (second)` }))],
  };
}
