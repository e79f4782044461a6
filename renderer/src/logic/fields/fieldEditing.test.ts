import { describe, expect, it } from 'vitest';
import { commaDecimal, dotDecimal } from '../../../../app/invoice/review/index.js';
import { confidenceBand, formatFieldValue, parseFieldEntry } from './fieldEditing.js';

describe('field entries', () => {
  it("read amounts in the document's format and refuse the other one", () => {
    expect(parseFieldEntry('1.234,50', 'amount', commaDecimal)).toEqual({ ok: true, value: 1234.5 });
    expect(parseFieldEntry('12.50', 'amount', commaDecimal)).toMatchObject({ ok: false, reason: expect.stringContaining('1.234,50') });
    expect(parseFieldEntry('12.50', 'amount', dotDecimal)).toEqual({ ok: true, value: 12.5 });
  });
  it('read dates into ISO, currency codes, and blank as cleared', () => {
    expect(parseFieldEntry('31.03.2024', 'date', commaDecimal)).toEqual({ ok: true, value: '2024-03-31' });
    expect(parseFieldEntry('31st of never', 'date', commaDecimal).ok).toBe(false);
    expect(parseFieldEntry('eur', 'currency', commaDecimal)).toEqual({ ok: true, value: 'EUR' });
    expect(parseFieldEntry('euro', 'currency', commaDecimal).ok).toBe(false);
    expect(parseFieldEntry('  ', 'text', commaDecimal)).toEqual({ ok: true, value: null });
  });
  it('format values back and band confidences', () => {
    expect(formatFieldValue(1234.5, 'amount', commaDecimal)).toBe('1.234,50');
    expect(formatFieldValue(2.5, 'number', commaDecimal)).toBe('2,5');
    expect(formatFieldValue(null, 'amount', commaDecimal)).toBe('');
    expect([0.9, 0.7, 0.3, null].map(confidenceBand)).toEqual(['high', 'medium', 'low', 'unknown']);
  });
});
