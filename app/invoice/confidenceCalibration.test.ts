import { describe, expect, it } from 'vitest';
import { line } from '../../testing/syntheticWords.js';
import { calibratedConfidence, CALIBRATED_HIGH, evidenceSignature } from './confidenceCalibration.js';
import { extractInvoiceFields } from './extractFields.js';
import { scoreInvoiceFields } from './fieldConfidence.js';

describe('calibrated first-seen confidence', () => {
  it('signs evidence by field, label kind and arithmetic checks; OCR doubt signs nothing', () => {
    expect(evidenceSignature('total', ['label:specific', 'arithmetic:total=subtotal+tax:holds'])).toBe('total|label:specific|total=subtotal+tax:holds');
    expect(evidenceSignature('invoice_number', ['label:specific', 'ocr:uncertain'])).toBeNull();
  });

  it('shows high an invoice number under a specific label and an ISO currency code, never a party name or a guess', () => {
    expect(calibratedConfidence('invoice_number', ['label:specific'])).toBe(CALIBRATED_HIGH);
    expect(calibratedConfidence('currency', ['iso-code'])).toBe(CALIBRATED_HIGH);
    expect(calibratedConfidence('currency', ['symbol'])).toBeNull();
    expect(calibratedConfidence('invoice_number', ['label:generic'])).toBeNull();
    expect(calibratedConfidence('seller', ['label:specific'])).toBeNull();
    expect(calibratedConfidence('issue_date', ['label:none', 'arithmetic:due>=issue:holds'])).toBeNull();
  });

  it('applies to a reading, and can be left out to measure the evidence alone', () => {
    const words = [...line('Rechnungsnummer: RE-2024-0042', 40, 40), ...line('Gesamtbetrag 119,00 EUR', 40, 100)];
    const fields = extractInvoiceFields({ words });
    const text = words.map((w) => w.text).join(' ');
    expect(scoreInvoiceFields(fields, text).invoice_number).toMatchObject({ confidence: CALIBRATED_HIGH });
    expect(scoreInvoiceFields(fields, text).invoice_number!.evidence).toContain('calibrated');
    expect(scoreInvoiceFields(fields, text, { calibrated: false }).invoice_number!.confidence).toBe(0.7);
  });
});
