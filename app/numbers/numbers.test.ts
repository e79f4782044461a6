import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DECIMAL_DIGITS, parseAmount, parseAmountIn, parseXmlDecimal, xmlDecimalNumber } from './index.js';

/** XML Schema's own grammar for xs:decimal, used as the oracle on short strings only (it backtracks on long ones). */
const xsDecimal = /^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

describe('parseXmlDecimal', () => {
  it('returns the canonical form', () => {
    expect(parseXmlDecimal('1630.00')).toBe('1630.00');
    expect(parseXmlDecimal('  -8.79\n')).toBe('-8.79');
    expect(parseXmlDecimal('+007.50')).toBe('7.50');
    expect(parseXmlDecimal('.5')).toBe('0.5');
    expect(parseXmlDecimal('5.')).toBe('5');
    expect(parseXmlDecimal('-0.00')).toBe('0.00');
    expect(parseXmlDecimal('000')).toBe('0');
  });

  it('refuses what is not an xs:decimal', () => {
    for (const bad of ['', ' ', '+', '-', '.', '-.', '1e5', '1,5', '1.2.3', '--1', '1 2', 'NaN', 'Infinity', '١٢', '0x10']) {
      expect(parseXmlDecimal(bad), bad).toBeNull();
    }
  });

  it(`refuses more than ${MAX_DECIMAL_DIGITS} digits, not counting leading zeros`, () => {
    expect(parseXmlDecimal('9'.repeat(MAX_DECIMAL_DIGITS))).toBe('9'.repeat(MAX_DECIMAL_DIGITS));
    expect(parseXmlDecimal('9'.repeat(MAX_DECIMAL_DIGITS + 1))).toBeNull();
    expect(parseXmlDecimal(`${'0'.repeat(100)}1.5`)).toBe('1.5');
    expect(xmlDecimalNumber('9'.repeat(400))).toBeNull();
  });

  it('agrees with the XML Schema grammar on random short strings', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ +\-.0-9a]{0,12}$/), (text) => {
        const trimmed = text.trim();
        const accepted = parseXmlDecimal(text) !== null;
        expect(accepted).toBe(xsDecimal.test(trimmed));
        if (accepted) expect(Number(parseXmlDecimal(text))).toBe(Number(trimmed) === 0 ? 0 : Number(trimmed));
      }),
      { numRuns: 3000, seed: 23 },
    );
  });

  it('answers a megabyte of digits followed by a letter (the backtracking repro) without a regex walk', () => {
    expect(parseXmlDecimal(`${'1'.repeat(1_000_000)}x`)).toBeNull();
    expect(parseXmlDecimal(`${'1'.repeat(1_000_000)}`)).toBeNull();
  });
});

describe('parseAmount', () => {
  it('reads both conventions', () => {
    expect(parseAmount('1,234.56')).toBe(1234.56);
    expect(parseAmount('1.234,56 €')).toBe(1234.56);
    expect(parseAmount("1'234.56")).toBe(1234.56);
    expect(parseAmount('EUR 1 234,50')).toBe(1234.5);
    expect(parseAmount('(12.50)')).toBe(-12.5);
    expect(parseAmount('12,50-')).toBe(12.5);
    expect(parseAmount('1,234,567')).toBe(1234567);
    expect(parseAmount('1.234')).toBe(1234);
    expect(parseAmount('1,2345,678')).toBeNull();
    expect(parseAmount('12,')).toBeNull();
  });

  it('refuses 400 digits (was Infinity) and long text', () => {
    expect(parseAmount('9'.repeat(400))).toBeNull();
    expect(parseAmount(`${'9'.repeat(400)} EUR`)).toBeNull();
    expect(parseAmount(`1${' '.repeat(100_000)}x`)).toBeNull();
    expect(parseAmount('9'.repeat(MAX_DECIMAL_DIGITS))).toBe(Number('9'.repeat(MAX_DECIMAL_DIGITS)));
  });

  it('is finite or null for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const value = parseAmount(text);
        expect(value === null || Number.isFinite(value)).toBe(true);
      }),
      { numRuns: 2000, seed: 23 },
    );
  });
});

describe('parseAmountIn', () => {
  const comma = { decimal: ',', group: '.' } as const;
  const dot = { decimal: '.', group: ',' } as const;
  it('reads the document format', () => {
    expect(parseAmountIn('12,50', comma)).toBe(12.5);
    expect(parseAmountIn('1.234,56 EUR', comma)).toBe(1234.56);
    expect(parseAmountIn('-1,234.5', dot)).toBe(-1234.5);
    expect(parseAmountIn('1 234.5', dot)).toBe(1234.5);
    expect(parseAmountIn('1234', dot)).toBe(1234);
    expect(parseAmountIn('1,5', dot)).toBeNull();
    expect(parseAmountIn('12,3,4', comma)).toBeNull();
  });

  it('refuses 400 digits and long input', () => {
    expect(parseAmountIn('9'.repeat(400), dot)).toBeNull();
    expect(parseAmountIn(`1${' '.repeat(100_000)}EUR`, dot)).toBeNull();
  });
});

describe('looksLikeEInvoiceXml', () => {
  it('skips comments one by one (the single pattern was exponential in their number)', async () => {
    const { looksLikeEInvoiceXml } = await import('../einvoice/readEInvoice.js');
    const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
    expect(looksLikeEInvoiceXml(bytes(`${'<!---->'.repeat(500)}x`))).toBe(false);
    expect(looksLikeEInvoiceXml(bytes('\uFEFF<?xml version="1.0"?>\n<!-- a --> <!--b--><rsm:CrossIndustryInvoice xmlns:rsm="x">'))).toBe(true);
    expect(looksLikeEInvoiceXml(bytes('<Invoice>'))).toBe(true);
    expect(looksLikeEInvoiceXml(bytes('<!-- <Invoice> -->'))).toBe(false);
  });
});
