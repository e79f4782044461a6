/**
 * Hostile e-invoice XML (issue 23, hole 1): a long run of digits followed by a letter in an amount (the pattern that
 * took 51 s on a 138 KB file) and 400-digit amounts are read in linear time — refused, never Infinity — and a seeded
 * fuzz over mutated invoices (real ones where ../shared/testdata has them, a minimal one otherwise) shows the reader
 * either returns an invoice whose amounts are finite or refuses with an EInvoiceError, nothing else.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EInvoiceError, readEInvoice, type EInvoice } from './index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const xmlDir = path.resolve(repoRoot, '..', 'shared', 'testdata', 'einvoices', 'xml');

const ciiWithTotal = (total: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocument><ram:ID>INV-1</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20240131</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:GrandTotalAmount>${total}</ram:GrandTotalAmount><ram:TaxBasisTotalAmount>${total}</ram:TaxBasisTotalAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Every number anywhere in the invoice. */
function numbersOf(value: unknown, out: number[] = []): number[] {
  if (typeof value === 'number') out.push(value);
  else if (Array.isArray(value)) for (const v of value) numbersOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) numbersOf(v, out);
  return out;
}

function readOrRefuse(bytes: Uint8Array): EInvoice | EInvoiceError {
  try {
    return readEInvoice(bytes, 'hostile.xml');
  } catch (error) {
    if (error instanceof EInvoiceError) return error;
    throw error;
  }
}

describe('amounts in hostile XML', () => {
  it('a million digits followed by a letter is no amount, read in one pass', () => {
    const invoice = readOrRefuse(encode(ciiWithTotal(`${'1'.repeat(1_000_000)}x`)));
    expect(invoice).not.toBeInstanceOf(EInvoiceError);
    expect((invoice as EInvoice).fields.total ?? null).toBeNull();
  });

  it('400 digits is no amount (never Infinity)', () => {
    const invoice = readOrRefuse(encode(ciiWithTotal('9'.repeat(400)))) as EInvoice;
    expect(invoice.fields.total ?? null).toBeNull();
    expect(numbersOf(invoice).every(Number.isFinite)).toBe(true);
  });
});

describe('e-invoice XML fuzz', () => {
  const seeds: string[] = [ciiWithTotal('10.00')];
  if (existsSync(xmlDir)) {
    for (const syntax of ['cii', 'ubl']) {
      const files = readdirSync(path.join(xmlDir, syntax)).slice(0, 2);
      for (const file of files) seeds.push(readFileSync(path.join(xmlDir, syntax, file), 'utf8'));
    }
  } else console.log(`SKIPPED: mutating the real CII/UBL files: ${xmlDir} is absent (a minimal CII is mutated alone)`);

  const insertion = fc.oneof(
    fc.string({ maxLength: 16 }),
    fc.nat({ max: 50_000 }).map((n) => `${'7'.repeat(n)}e`),
    fc.constantFrom('<!--', '-->', '<![CDATA[', ']]>', '&amp;', '&#0;', '&#xFFFF;', '<a>', '</a>', '"', '<!DOCTYPE x>', '\u0000', '<?xml?>'),
    fc.nat({ max: 2_000 }).map((n) => '<x>'.repeat(n)),
  );

  it('returns an invoice with finite numbers or refuses with an EInvoiceError', () => {
    fc.assert(
      fc.property(fc.nat({ max: seeds.length - 1 }), fc.array(fc.tuple(fc.nat(), insertion, fc.nat({ max: 20 })), { minLength: 1, maxLength: 4 }), (which, edits) => {
        let text = seeds[which]!;
        for (const [at, insert, cut] of edits) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + insert + text.slice(i + cut);
        }
        const result = readOrRefuse(encode(text));
        if (!(result instanceof EInvoiceError)) expect(numbersOf(result).every(Number.isFinite)).toBe(true);
      }),
      { numRuns: Number(process.env.RECTO_FUZZ_RUNS ?? 300), seed: Number(process.env.RECTO_FUZZ_SEED ?? 23) },
    );
  });
});
