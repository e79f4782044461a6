/**
 * Invoice field accuracy on shared/testdata/invoice2data: for each document with a JSON ground truth, ask the engine
 * for the document's fields (or its words/Markdown, from which app/invoice extracts them) and compare the key fields.
 *
 * Key fields: invoice_number, issue_date (`date`), due_date (`date_due`), subtotal (`amount_untaxed`), tax
 * (`amount_tax`), total (`amount`), currency. A field counts only where the ground truth has it AND its value is
 * printed on the page (checked against the document's pdftotext layer: invoice2data's JSON holds template outputs,
 * e.g. AWS `amount_untaxed` is a copy of the total with no "untaxed" on the page). Known template artefacts are
 * listed in `knownArtefacts` with the reason and left out.
 *
 * Parties (seller, buyer) are a separate figure, not one of the key fields: seller truth is invoice2data's `issuer` (or
 * `partner_name`, or a name the page prints for the same party, `sellerAliases`); buyer truth is hand-checked on the
 * pages (`pageBuyers`), since invoice2data has none. Names compare after normalising case, punctuation and legal forms.
 *
 * runSampleFieldBench scores the repository's own samples (resources/samples, scans among them) on every field and
 * line-item cell: with an engine that forces OCR it is the figure for fields read by OCR.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { findAmounts } from '../../app/invoice/amounts.js';
import { findDates } from '../../app/invoice/dates.js';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText, type PlainInvoiceFields } from '../../app/invoice/index.js';
import type { Word } from '../../app/model/extraction.js';
import { defaultTestdataRoot, readTextFile, repoRoot, testdataPath } from '../../testing/testdataPaths.js';

/** What an engine returns for a document: its own fields, or words / Markdown to extract them from. */
export interface InvoiceReading {
  fields?: PlainInvoiceFields;
  words?: Word[];
  markdown?: string;
}
/** `documentPath` is the PDF (or, for text-only samples, the .txt) path. */
export type ReadInvoice = (documentPath: string) => Promise<InvoiceReading>;

export const keyFields = ['invoice_number', 'issue_date', 'due_date', 'subtotal', 'tax', 'total', 'currency'] as const;
type KeyField = (typeof keyFields)[number];
const groundTruthKey: Record<KeyField, string> = {
  invoice_number: 'invoice_number',
  issue_date: 'date',
  due_date: 'date_due',
  subtotal: 'amount_untaxed',
  tax: 'amount_tax',
  total: 'amount',
  currency: 'currency',
};

/** Ground-truth values that are template artefacts, not what the page prints. */
export const knownArtefacts: { document: string; field: KeyField; reason: string }[] = [
  { document: 'Orlen', field: 'invoice_number', reason: 'template captures "F"; the page prints "F 1234K20/1234/12"' },
];

export const partyFields = ['seller', 'buyer'] as const;
export type PartyField = (typeof partyFields)[number];

/** Seller names printed on the page where `issuer` is a template label (a brand, a note) rather than the page's name. */
export const sellerAliases: { document: string; name: string; reason: string }[] = [
  { document: 'FlipkartInvoice', name: 'WS Retail Services Pvt. Ltd.', reason: 'issuer is the marketplace; the page\'s "Sold By" names the seller' },
  { document: 'oyo', name: 'Oravel Stays Private Limited', reason: 'issuer is the brand; the footer\'s company line names the legal entity' },
  { document: 'SammyMaystoneLinesTest', name: 'Sammy Maystone', reason: 'issuer carries the template note "- For Lines testing"' },
];

/**
 * Buyers read by hand off the rendered pages, only where the page names the customer unambiguously (a "Bill to" /
 * "Factuuradres" / "Nabywca" block, or the only address block in the window position). The name line, not the address.
 */
export const pageBuyers: Record<string, string> = {
  AmazonWebServices: 'iViveLabs Limited',
  AzureInterior: 'YourCompany, Mitchell Admin',
  FlipkartInvoice: 'Anushrut Singh',
  NetpresseInvoice: 'ALEXINUX',
  Orlen: 'GŁÓWNY URZĄD STATYSTYCZNY',
  QualityHosting: 'iViveLabs Ltd.',
  SammyMaystoneLinesTest: 'Taylor Riddel',
  coolblue1: 'Pino Bluebird',
  coolblue2: 'Pino Bluebird',
  free_fiber: 'de Lattre Alexis',
  oyo: 'Sanjay',
  saeco: 'Strategic Corp',
};

const partyLegalForm =
  /(?<![\p{L}])(?:inc|ltd|limited|llc|gmbh|ag|b\s?v|n\s?v|s\s?a|sas|sarl|s\s?r\s?l|s\s?p\s?a|pvt|private|plc|corp|co|sp\s?z\s?o\s?o|spółka(?:\s+akcyjna)?)(?![\p{L}])/giu;

/** A party name compared loosely: case, punctuation, legal form ("B.V.", "spółka akcyjna") and "Attn" prefixes aside. */
export function normalisePartyName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\d]+/gu, ' ')
    .replace(partyLegalForm, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface PartyOutcome {
  document: string;
  field: PartyField;
  /** Accepted names (the first is the ground truth's own). */
  expected: string[];
  actual: string | null;
  correct: boolean;
}

export interface FieldOutcome {
  document: string;
  field: KeyField;
  expected: string | number;
  actual: string | number | null;
  correct: boolean;
}

export interface InvoiceFieldBenchResult {
  outcomes: FieldOutcome[];
  /** Fields in the ground truth that are not printed on the page (left out), with why. */
  skipped: { document: string; field: KeyField | PartyField; reason: string }[];
  accuracy: number;
  byField: Record<string, { correct: number; total: number }>;
  /** Line items: ground-truth lines with a price that were found (amount or unit price equal, description overlapping). */
  lineItems: { found: number; total: number };
  /** Seller and buyer: a figure of its own, beside the key fields (see the module comment). */
  parties: PartyOutcome[];
  partyByField: Record<PartyField, { correct: number; total: number }>;
  errors: string[];
}

const normaliseId = (s: string): string => s.replace(/^#/, '').replace(/\s+/g, '').toLowerCase();
const currencySymbol: Record<string, RegExp> = { EUR: /€/, USD: /\$/, GBP: /£/, INR: /₹|(?<![\p{L}])Rs\b/u, PLN: /zł/, JPY: /¥/ };

function printedOnPage(field: KeyField, value: string | number, pageText: string): boolean {
  if (field === 'invoice_number') return normaliseId(pageText).includes(normaliseId(String(value)));
  if (field === 'issue_date' || field === 'due_date')
    return [false, true].some((monthFirst) => findDates(pageText, { monthFirst }).some((d) => d.iso === value));
  if (field === 'currency') return new RegExp(`\\b${value}\\b`).test(pageText) || (currencySymbol[String(value)]?.test(pageText) ?? false);
  return findAmounts(pageText).some((a) => Math.abs(a.value - Number(value)) < 0.005);
}

function matches(field: KeyField, expected: string | number, actual: string | number | null): boolean {
  if (actual === null) return false;
  if (typeof expected === 'number' || ['subtotal', 'tax', 'total'].includes(field)) return Math.abs(Number(actual) - Number(expected)) < 0.005;
  if (field === 'invoice_number') return normaliseId(String(actual)) === normaliseId(String(expected));
  return String(actual).toUpperCase() === String(expected).toUpperCase();
}

const tokens = (s: string): Set<string> => new Set(s.toLowerCase().split(/[^\p{L}\d]+/u).filter((t) => t.length > 1));

export interface InvoiceBenchOptions {
  testdataRoot?: string;
}

export async function runInvoiceFieldBench(readInvoice: ReadInvoice, options: InvoiceBenchOptions = {}): Promise<InvoiceFieldBenchResult> {
  const root = options.testdataRoot ?? defaultTestdataRoot;
  const compareDir = testdataPath(root, 'invoice2data', 'tests', 'compare');
  const outcomes: FieldOutcome[] = [];
  const skipped: InvoiceFieldBenchResult['skipped'] = [];
  const errors: string[] = [];
  const lineItems = { found: 0, total: 0 };
  const parties: PartyOutcome[] = [];
  for (const file of readdirSync(compareDir).filter((f) => f.endsWith('.json')).sort()) {
    const document = file.replace(/\.json$/, '');
    const pdf = path.join(compareDir, `${document}.pdf`);
    const txt = path.join(compareDir, `${document}.txt`);
    const documentPath = existsSync(pdf) ? pdf : txt;
    const layout = testdataPath(root, 'invoice2data', 'groundtruth_pdftotext', `${document}.layout.txt`);
    let truth: Record<string, unknown>;
    let pageText: string;
    let fields: PlainInvoiceFields;
    try {
      const parsed = JSON.parse(await readTextFile(path.join(compareDir, file))) as Record<string, unknown>[];
      truth = parsed[0] ?? {};
      pageText = await readTextFile(existsSync(layout) ? layout : txt);
      const reading = await readInvoice(documentPath);
      fields = reading.fields ?? toPlainFields(extractInvoiceFields({ words: reading.words, markdown: reading.markdown }));
    } catch (error) {
      errors.push(`${documentPath}: ${(error as Error).message}`);
      continue;
    }
    for (const field of keyFields) {
      const expected = truth[groundTruthKey[field]];
      if (typeof expected !== 'string' && typeof expected !== 'number') continue;
      const artefact = knownArtefacts.find((a) => a.document === document && a.field === field);
      if (artefact) {
        skipped.push({ document, field, reason: `known artefact: ${artefact.reason}` });
        continue;
      }
      if (!printedOnPage(field, expected, pageText)) {
        skipped.push({ document, field, reason: `ground truth ${JSON.stringify(expected)} not printed on the page` });
        continue;
      }
      const actual = fields[field];
      outcomes.push({ document, field, expected, actual, correct: matches(field, expected, actual) });
    }
    const sellerNames = [truth.issuer, truth.partner_name, ...sellerAliases.filter((a) => a.document === document).map((a) => a.name)];
    const partyTruth: Record<PartyField, string[]> = {
      seller: [...new Set(sellerNames.filter((n): n is string => typeof n === 'string' && n.trim() !== ''))],
      buyer: pageBuyers[document] ? [pageBuyers[document]!] : [],
    };
    const normalisedPage = ` ${normalisePartyName(pageText)} `;
    for (const field of partyFields) {
      const expected = partyTruth[field];
      if (expected.length === 0) continue;
      if (!expected.some((name) => normalisedPage.includes(` ${normalisePartyName(name)} `))) {
        skipped.push({ document, field, reason: `${JSON.stringify(expected[0])} is not printed as text on the page` });
        continue;
      }
      const actual = fields[field];
      const correct = actual !== null && expected.some((name) => normalisePartyName(name) === normalisePartyName(actual));
      parties.push({ document, field, expected, actual, correct });
    }
    const truthLines = Array.isArray(truth.lines) ? (truth.lines as Record<string, unknown>[]) : [];
    for (const line of truthLines) {
      const price = Number(line.price_subtotal ?? line.price_unit ?? line.price);
      const name = String(line.name ?? line.desc ?? '');
      if (!Number.isFinite(price) || !name) continue;
      lineItems.total++;
      const want = tokens(name);
      const hit = fields.lines.some((item) => {
        const same = [item.amount, item.unit_price].some((v) => v !== null && Math.abs(v - price) < 0.005);
        const have = tokens(item.description);
        const overlap = [...want].filter((t) => have.has(t)).length / Math.max(1, Math.min(want.size, 4));
        return same && overlap >= 0.5;
      });
      if (hit) lineItems.found++;
    }
  }
  const byField: InvoiceFieldBenchResult['byField'] = {};
  for (const o of outcomes) {
    const f = (byField[o.field] ??= { correct: 0, total: 0 });
    f.total++;
    if (o.correct) f.correct++;
  }
  const correct = outcomes.filter((o) => o.correct).length;
  const partyByField = Object.fromEntries(
    partyFields.map((field) => {
      const mine = parties.filter((p) => p.field === field);
      return [field, { correct: mine.filter((p) => p.correct).length, total: mine.length }];
    }),
  ) as InvoiceFieldBenchResult['partyByField'];
  return { outcomes, skipped, accuracy: outcomes.length === 0 ? 0 : correct / outcomes.length, byField, lineItems, parties, partyByField, errors };
}

/** The documents' pdftotext layers as an engine (pseudo-words from column/line positions): checks the harness and the extractor. */
export function pdftotextLayerReader(testdataRoot = defaultTestdataRoot): ReadInvoice {
  return async (documentPath) => {
    const stem = path.basename(documentPath).replace(/\.(pdf|txt)$/i, '');
    const layout = testdataPath(testdataRoot, 'invoice2data', 'groundtruth_pdftotext', `${stem}.layout.txt`);
    const text = await readTextFile(existsSync(layout) ? layout : documentPath);
    return { words: wordsFromLayoutText(text) };
  };
}

export function formatInvoiceFieldBench(result: InvoiceFieldBenchResult): string {
  const correct = result.outcomes.filter((o) => o.correct).length;
  return [
    `invoice2data key fields printed on the page: ${correct}/${result.outcomes.length} = ${(100 * result.accuracy).toFixed(1)}%`,
    ...Object.entries(result.byField).map(([f, r]) => `  ${f.padEnd(15)} ${r.correct}/${r.total}`),
    `  line items found: ${result.lineItems.found}/${result.lineItems.total}`,
    `  parties (not in the key fields): seller ${result.partyByField.seller.correct}/${result.partyByField.seller.total}, buyer ${result.partyByField.buyer.correct}/${result.partyByField.buyer.total}`,
    ...result.outcomes.filter((o) => !o.correct).map((o) => `  miss ${o.document}.${o.field}: expected ${JSON.stringify(o.expected)}, got ${JSON.stringify(o.actual)}`),
    ...result.parties.filter((o) => !o.correct).map((o) => `  miss ${o.document}.${o.field}: expected ${JSON.stringify(o.expected[0])}, got ${JSON.stringify(o.actual)}`),
    ...result.errors.map((e) => `  error: ${e}`),
  ].join('\n');
}

export const defaultSamplesDir = path.join(repoRoot, 'resources', 'samples');

/** One bundled sample against its `.truth.json`: every field, and each line item's four cells in order. */
export interface SampleFieldOutcome {
  file: string;
  /** "scan" (read by OCR: no text layer) or "pdf". */
  kind: string;
  fields: { correct: number; total: number };
  lineCells: { correct: number; total: number };
  misses: string[];
}

export interface SampleFieldBenchResult {
  samples: SampleFieldOutcome[];
  fields: { correct: number; total: number };
  lineCells: { correct: number; total: number };
  errors: string[];
}

const sameValue = (expected: unknown, actual: unknown): boolean =>
  typeof expected === 'number'
    ? typeof actual === 'number' && Math.abs(actual - expected) < 0.005
    : expected === null
      ? actual === null
      : String(actual ?? '').trim().toLowerCase() === String(expected).trim().toLowerCase();

/**
 * The repository's own samples (resources/samples/*.truth.json, written with the samples): complete ground truth for
 * every field and line item, among them scans the engine reads by OCR — the figure for OCR errors in numbers, dates
 * and labels. Line cells are scored by position; a missing or extra item counts its four cells as wrong.
 */
export async function runSampleFieldBench(readInvoice: ReadInvoice, samplesDir = defaultSamplesDir): Promise<SampleFieldBenchResult> {
  const samples: SampleFieldOutcome[] = [];
  const errors: string[] = [];
  for (const truthFile of readdirSync(samplesDir).filter((f) => f.endsWith('.truth.json')).sort()) {
    let truth: { file?: string; kind?: string; fields?: PlainInvoiceFields };
    let fields: PlainInvoiceFields;
    const file = path.join(samplesDir, truthFile.replace(/\.truth\.json$/, ''));
    try {
      truth = JSON.parse(await readTextFile(path.join(samplesDir, truthFile))) as typeof truth;
      if (!truth.fields) continue;
      const documentPath = path.join(samplesDir, truth.file ?? '');
      const reading = await readInvoice(documentPath);
      fields = reading.fields ?? toPlainFields(extractInvoiceFields({ words: reading.words, markdown: reading.markdown }));
    } catch (error) {
      errors.push(`${file}: ${(error as Error).message}`);
      continue;
    }
    const expected = truth.fields;
    const outcome: SampleFieldOutcome = { file: truth.file ?? truthFile, kind: truth.kind ?? 'pdf', fields: { correct: 0, total: 0 }, lineCells: { correct: 0, total: 0 }, misses: [] };
    for (const key of Object.keys(expected).filter((k) => k !== 'lines') as (keyof PlainInvoiceFields)[]) {
      outcome.fields.total++;
      if (sameValue(expected[key], fields[key])) outcome.fields.correct++;
      else outcome.misses.push(`${key}: expected ${JSON.stringify(expected[key])}, got ${JSON.stringify(fields[key])}`);
    }
    const cells = ['description', 'quantity', 'unit_price', 'amount'] as const;
    for (let i = 0; i < Math.max(expected.lines.length, fields.lines.length); i++) {
      for (const cell of cells) {
        outcome.lineCells.total++;
        const want = expected.lines[i]?.[cell];
        const got = fields.lines[i]?.[cell];
        if (want !== undefined && got !== undefined && sameValue(want, got)) outcome.lineCells.correct++;
        else outcome.misses.push(`lines[${i}].${cell}: expected ${JSON.stringify(want ?? null)}, got ${JSON.stringify(got ?? null)}`);
      }
    }
    samples.push(outcome);
  }
  const sum = (pick: (s: SampleFieldOutcome) => { correct: number; total: number }) =>
    samples.reduce((a, s) => ({ correct: a.correct + pick(s).correct, total: a.total + pick(s).total }), { correct: 0, total: 0 });
  return { samples, fields: sum((s) => s.fields), lineCells: sum((s) => s.lineCells), errors };
}

export function formatSampleFieldBench(result: SampleFieldBenchResult): string {
  return [
    `bundled samples, all fields: ${result.fields.correct}/${result.fields.total}; line-item cells ${result.lineCells.correct}/${result.lineCells.total}`,
    ...result.samples.map((s) => `  ${s.file} (${s.kind}): fields ${s.fields.correct}/${s.fields.total}, line cells ${s.lineCells.correct}/${s.lineCells.total}`),
    ...result.samples.flatMap((s) => s.misses.map((m) => `  miss ${s.file}.${m}`)),
    ...result.errors.map((e) => `  error: ${e}`),
  ].join('\n');
}
