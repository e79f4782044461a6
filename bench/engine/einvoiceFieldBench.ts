/**
 * Invoice fields read FROM THE PAGE of real e-invoices (shared/testdata/einvoices), scored against the fields of
 * their own embedded XML (truth.json) where truth.json marks the value as printed on the page. The engine reads the
 * rendered pages only: the attachment never reaches the field reader, so this measures page reading on invoices the
 * field rules were not written on. A second figure checks the XML reader: every attachment read by
 * app/einvoice against truth.json (must be 100%).
 *
 * Key fields: invoice_number, issue_date, seller, buyer, currency, subtotal, tax, total (due_date where printed is
 * reported beside them). Line amounts: each printed line's amount found among the page's line items (each page line
 * used once). Names compare loosely (case, punctuation, legal forms, line breaks: normalisePartyName).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractInvoiceFields, toPlainFields, type PlainInvoiceFields } from '../../app/invoice/index.js';
import { einvoicePlainFields } from '../../app/einvoice/index.js';
import type { EInvoiceAdjustments, EInvoiceTax } from '../../app/einvoice/einvoice.js';
import { readEmbeddedEInvoice } from '../../main/import/pdfAttachments.js';
import { normalisePartyName, type InvoiceReading, type ReadInvoice } from './invoiceFieldBench.js';
import { findAmounts } from '../../app/invoice/amounts.js';
import { defaultTestdataRoot, testdataPath } from '../../testing/testdataPaths.js';

export const einvoiceKeyFields = ['invoice_number', 'issue_date', 'seller', 'buyer', 'currency', 'subtotal', 'tax', 'total'] as const;
type EKeyField = (typeof einvoiceKeyFields)[number];

interface TruthEntry {
  embedded_xml: string | null;
  fields: (PlainInvoiceFields & { type_code?: string; amount_due?: number | null }) | null;
  printed: (Record<string, boolean> & { lines?: number }) | null;
}

export interface EInvoiceOutcome {
  document: string;
  field: string;
  expected: string | number;
  actual: string | number | null;
  correct: boolean;
}

export interface EInvoiceFieldBenchResult {
  documents: number;
  outcomes: EInvoiceOutcome[];
  byField: Record<string, { correct: number; total: number }>;
  keyFields: { correct: number; total: number };
  parties: { correct: number; total: number };
  dueDates: { correct: number; total: number };
  /** The amount due (BT-115) where the page prints the XML's value. */
  amountDue: { correct: number; total: number };
  /**
   * The VAT breakdown (BG-23) against the XML's: per XML row, its taxable amount and its tax, each where the page
   * prints it, found in a page row of the same rate.
   */
  vatBreakdown: { base: { correct: number; total: number }; tax: { correct: number; total: number } };
  /**
   * Line total, allowances, charges and amount paid against the XML's, where the XML states a non-zero amount the page
   * prints (a deduction may be printed without its sign: the magnitude decides what is printed, the page value's
   * sign must still be the XML's).
   */
  settlement: { correct: number; total: number };
  lineAmounts: { found: number; total: number };
  /** The XML reader on every attachment: fields equal to truth.json. */
  xmlAgreement: { agreeing: number; total: number; disagreements: string[] };
  errors: string[];
}

const normaliseId = (s: string): string => s.replace(/\s+/g, '').toLowerCase();

/** Loose name match: equal after normalising, or one a whole-word prefix of the other covering most of it. */
export function namesAgree(expected: string, actual: string | null): boolean {
  if (!actual) return false;
  const a = normalisePartyName(expected);
  const b = normalisePartyName(actual);
  if (!a || !b) return false;
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return (long.startsWith(`${short} `) || long.endsWith(` ${short}`)) && short.length >= 0.6 * long.length;
}

function fieldCorrect(field: string, expected: string | number, actual: string | number | null): boolean {
  if (actual === null) return false;
  if (typeof expected === 'number') return Math.abs(Number(actual) - expected) < 0.005;
  if (field === 'invoice_number') return normaliseId(String(actual)) === normaliseId(expected);
  if (field === 'seller' || field === 'buyer') return namesAgree(expected, String(actual));
  return String(actual).toUpperCase() === expected.toUpperCase();
}

/** The page's text (its words, or its Markdown) prints this amount. */
function printsAmount(reading: InvoiceReading, value: number): boolean {
  const text = reading.words?.length ? reading.words.map((w) => w.text).join(' ') : (reading.markdown ?? '');
  return findAmounts(text).some((a) => (a.hasDecimals || a.hasCurrency) && Math.abs(a.value - value) < 0.005);
}

function tally(outcomes: EInvoiceOutcome[], fields: readonly string[]): { correct: number; total: number } {
  const mine = outcomes.filter((o) => fields.includes(o.field));
  return { correct: mine.filter((o) => o.correct).length, total: mine.length };
}

export async function runEInvoiceFieldBench(readInvoice: ReadInvoice, options: { testdataRoot?: string } = {}): Promise<EInvoiceFieldBenchResult> {
  const dir = testdataPath(options.testdataRoot ?? defaultTestdataRoot, 'einvoices');
  const truth = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Record<string, TruthEntry>;
  const outcomes: EInvoiceOutcome[] = [];
  const errors: string[] = [];
  const lineAmounts = { found: 0, total: 0 };
  const vatBreakdown = { base: { correct: 0, total: 0 }, tax: { correct: 0, total: 0 } };
  const xmlAgreement = { agreeing: 0, total: 0, disagreements: [] as string[] };
  let documents = 0;
  for (const [name, entry] of Object.entries(truth).sort(([a], [b]) => a.localeCompare(b))) {
    const pdf = path.join(dir, 'pdfs', name);
    let xmlTaxes: EInvoiceTax[] | null = null;
    let xmlAdjustments: EInvoiceAdjustments | null = null;
    if (entry.fields && entry.embedded_xml) {
      xmlAgreement.total++;
      try {
        const embedded = await readEmbeddedEInvoice(new Uint8Array(readFileSync(pdf)));
        const { type_code: _t, amount_due: _a, ...expected } = entry.fields;
        const got = embedded.status === 'read' ? einvoicePlainFields(embedded.invoice) : null;
        if (embedded.status === 'read') {
          xmlTaxes = embedded.invoice.taxes;
          xmlAdjustments = embedded.invoice.adjustments;
        }
        if (got && JSON.stringify(got) === JSON.stringify(expected)) xmlAgreement.agreeing++;
        else xmlAgreement.disagreements.push(`${name}: ${embedded.status === 'refused' ? embedded.message : 'fields differ from truth.json'}`);
      } catch (error) {
        xmlAgreement.disagreements.push(`${name}: ${(error as Error).message}`);
      }
    }
    if (!entry.fields || !entry.printed) continue;
    documents++;
    let fields: PlainInvoiceFields;
    let reading: InvoiceReading;
    try {
      reading = await readInvoice(pdf);
      fields = reading.fields ?? toPlainFields(extractInvoiceFields({ words: reading.words, markdown: reading.markdown }));
    } catch (error) {
      errors.push(`${pdf}: ${(error as Error).message}`);
      continue;
    }
    for (const field of [...einvoiceKeyFields, 'due_date'] as const) {
      const expected = entry.fields[field];
      if (!entry.printed[field] || expected === null || expected === undefined) continue;
      const actual = fields[field];
      outcomes.push({ document: name, field, expected, actual, correct: fieldCorrect(field, expected, actual) });
    }
    // truth.json's `printed` has no amount due: it counts where the page's own text prints the XML's value.
    const amountDue = entry.fields.amount_due;
    if (typeof amountDue === 'number' && printsAmount(reading, amountDue)) {
      outcomes.push({ document: name, field: 'amount_due', expected: amountDue, actual: fields.amount_due ?? null, correct: fieldCorrect('amount_due', amountDue, fields.amount_due ?? null) });
    }
    if (xmlAdjustments) {
      for (const key of ['line_total', 'allowances', 'charges', 'prepaid'] as const) {
        const expected = xmlAdjustments[key];
        if (expected === null || expected === 0 || !(printsAmount(reading, expected) || printsAmount(reading, -expected))) continue;
        const actual = fields[key] ?? null;
        outcomes.push({ document: name, field: `settlement ${key}`, expected, actual, correct: fieldCorrect(key, expected, actual) });
      }
    }
    if (xmlTaxes) {
      for (const row of xmlTaxes) {
        const pageRows = (fields.tax_breakdown ?? []).filter((r) => r.rate !== null && row.rate !== null && Math.abs(r.rate - row.rate) < 0.005);
        for (const [part, expected, actualOf] of [
          ['base', row.basis, (r: (typeof pageRows)[number]) => r.base],
          ['tax', row.amount, (r: (typeof pageRows)[number]) => r.amount],
        ] as const) {
          if (expected === null || !printsAmount(reading, expected)) continue;
          const tally = vatBreakdown[part];
          tally.total++;
          const actual = pageRows.map(actualOf).find((v) => v !== null && Math.abs(v - expected) < 0.005) ?? pageRows.map(actualOf)[0] ?? null;
          const correct = actual !== null && Math.abs(actual - expected) < 0.005;
          if (correct) tally.correct++;
          outcomes.push({ document: name, field: `vat ${row.rate ?? '?'}% ${part}`, expected, actual, correct });
        }
      }
    }
    const printedLines = entry.fields.lines.slice(0, entry.printed.lines ?? 0).filter((l) => l.amount !== null);
    const unused = fields.lines.map((l) => l.amount);
    for (const line of printedLines) {
      lineAmounts.total++;
      const at = unused.findIndex((a) => a !== null && Math.abs(a - line.amount!) < 0.005);
      if (at >= 0) {
        lineAmounts.found++;
        unused[at] = null;
      } else {
        outcomes.push({ document: name, field: 'line amount', expected: line.amount!, actual: null, correct: false });
      }
    }
  }
  const byField: EInvoiceFieldBenchResult['byField'] = {};
  for (const o of outcomes.filter((o) => o.field !== 'line amount' && !o.field.startsWith('vat ') && !o.field.startsWith('settlement '))) {
    const f = (byField[o.field] ??= { correct: 0, total: 0 });
    f.total++;
    if (o.correct) f.correct++;
  }
  return {
    documents,
    outcomes,
    byField,
    keyFields: tally(outcomes, einvoiceKeyFields),
    parties: tally(outcomes, ['seller', 'buyer']),
    dueDates: tally(outcomes, ['due_date']),
    amountDue: tally(outcomes, ['amount_due']),
    vatBreakdown,
    settlement: { correct: outcomes.filter((o) => o.field.startsWith('settlement ') && o.correct).length, total: outcomes.filter((o) => o.field.startsWith('settlement ')).length },
    lineAmounts,
    xmlAgreement,
    errors,
  };
}

export function formatEInvoiceFieldBench(r: EInvoiceFieldBenchResult): string {
  const pct = (c: number, t: number): string => (t === 0 ? '-' : `${((100 * c) / t).toFixed(1)}%`);
  return [
    `einvoices read from the page (attachments ignored), ${r.documents} documents, values printed on the page:`,
    `  key fields ${r.keyFields.correct}/${r.keyFields.total} = ${pct(r.keyFields.correct, r.keyFields.total)}; line amounts ${r.lineAmounts.found}/${r.lineAmounts.total}; parties ${r.parties.correct}/${r.parties.total}; due dates ${r.dueDates.correct}/${r.dueDates.total}; amount due ${r.amountDue.correct}/${r.amountDue.total}; VAT breakdown base ${r.vatBreakdown.base.correct}/${r.vatBreakdown.base.total}, tax ${r.vatBreakdown.tax.correct}/${r.vatBreakdown.tax.total}; line total/allowances/charges/paid ${r.settlement.correct}/${r.settlement.total}`,
    ...Object.entries(r.byField).map(([f, t]) => `  ${f.padEnd(15)} ${t.correct}/${t.total}`),
    `  XML reader agreement with truth.json: ${r.xmlAgreement.agreeing}/${r.xmlAgreement.total}`,
    ...r.outcomes.filter((o) => !o.correct).map((o) => `  miss ${o.document}.${o.field}: expected ${JSON.stringify(o.expected)}, got ${JSON.stringify(o.actual)}`),
    ...r.xmlAgreement.disagreements.map((d) => `  xml: ${d}`),
    ...r.errors.map((e) => `  error: ${e}`),
  ].join('\n');
}
