/**
 * How a field's value is shown and how an analyst's entry is read back: dates as ISO (entries in any printed form the
 * invoice reader knows), amounts in the document's own number format, currency as an ISO 4217 code. An entry that
 * does not read is refused with a reason, never guessed.
 */
import { parseDate } from '../../../../app/invoice/dates.js';
import { formatAmountIn, formatQuantityIn, parseAmountIn, type FieldKind, type FieldValue, type NumberFormat } from '../../../../app/invoice/review/index.js';

export function formatFieldValue(value: FieldValue | undefined, kind: FieldKind, format: NumberFormat): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number') return kind === 'number' ? formatQuantityIn(value, format) : formatAmountIn(value, format);
  return value;
}

export type ParsedEntry = { ok: true; value: FieldValue } | { ok: false; reason: string };

export function parseFieldEntry(text: string, kind: FieldKind, format: NumberFormat, monthFirst = false): ParsedEntry {
  const entry = text.trim();
  if (entry === '') return { ok: true, value: null };
  const example = formatAmountIn(1234.5, format);
  switch (kind) {
    case 'amount': {
      const value = parseAmountIn(entry, format);
      return value === null ? { ok: false, reason: `Not an amount in this document's format (e.g. ${example})` } : { ok: true, value };
    }
    case 'number': {
      const value = parseAmountIn(entry, format);
      return value === null ? { ok: false, reason: `Not a number in this document's format (e.g. ${formatQuantityIn(2.5, format)})` } : { ok: true, value };
    }
    case 'date': {
      const iso = parseDate(entry, { monthFirst });
      return iso === null ? { ok: false, reason: 'Not a date (e.g. 2024-03-31 or 31.03.2024)' } : { ok: true, value: iso };
    }
    case 'currency': {
      const code = entry.toUpperCase();
      return /^[A-Z]{3}$/.test(code) ? { ok: true, value: code } : { ok: false, reason: 'A three-letter currency code (EUR, USD, …)' };
    }
    default:
      return { ok: true, value: entry };
  }
}

/** Confidence bands for the colour of a value (and the needs-attention queue's "low confidence"). */
export const HIGH_CONFIDENCE = 0.85;
export const LOW_CONFIDENCE = 0.6;

export function confidenceBand(confidence: number | null | undefined): 'high' | 'medium' | 'low' | 'unknown' {
  if (confidence === null || confidence === undefined) return 'unknown';
  if (confidence >= HIGH_CONFIDENCE) return 'high';
  if (confidence >= LOW_CONFIDENCE) return 'medium';
  return 'low';
}
