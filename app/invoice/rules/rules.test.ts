import { describe, expect, it } from 'vitest';
import {
  brCo10,
  brCo13,
  brCo14,
  brCo15,
  brCo16,
  brCo17,
  checkIban,
  checkVatId,
  dueAfterIssue,
  evaluateInvoiceRules,
  findIdentifiers,
  lineArithmetic,
  requiredFields,
  round2,
  type RuleInvoice,
} from './index.js';

/** A consistent invoice: 2 × 50.00 + 3 × 10.00 = 130.00, 19% VAT 24.70, total 154.70. */
function invoice(overrides: Partial<RuleInvoice> = {}): RuleInvoice {
  return {
    invoice_number: 'RE-2024-001',
    issue_date: '2024-03-01',
    due_date: '2024-03-31',
    seller: 'Muster GmbH',
    buyer: 'Beispiel AG',
    currency: 'EUR',
    subtotal: 130,
    tax: 24.7,
    total: 154.7,
    lines: [
      { description: 'Beratung', quantity: 2, unit_price: 50, amount: 100 },
      { description: 'Material', quantity: 3, unit_price: 10, amount: 30 },
    ],
    ...overrides,
  };
}

/** The same invoice as a credit note: every amount negated. */
function creditNote(): RuleInvoice {
  const base = invoice();
  return {
    ...base,
    document_type: 'credit_note',
    subtotal: -130,
    tax: -24.7,
    total: -154.7,
    amount_due: -154.7,
    lines: base.lines.map((line) => ({ ...line, quantity: -line.quantity!, amount: -line.amount! })),
    tax_breakdown: [{ rate: 19, base: -130, amount: -24.7 }],
  };
}

describe('round2', () => {
  it('rounds half away from zero at the cent boundary, despite binary fractions', () => {
    expect(round2(1.005)).toBe(1.01);
    expect(round2(1.004999)).toBe(1);
    expect(round2(-1.005)).toBe(-1.01);
    expect(round2(2.675)).toBe(2.68);
    expect(round2(0.1 + 0.2)).toBe(0.3);
  });
});

describe('BR-CO-10 sum of line amounts', () => {
  it('passes when the lines add up to the total without VAT', () => {
    const result = brCo10(invoice());
    expect(result.status).toBe('pass');
    expect(result.message).toContain('130.00');
    expect(result.fields).toEqual(['lines.0.amount', 'lines.1.amount', 'subtotal']);
  });
  it('fails naming the values and the line whose own arithmetic is off', () => {
    const wrong = invoice({ lines: [{ description: 'Beratung', quantity: 2, unit_price: 50, amount: 100 }, { description: 'Material', quantity: 3, unit_price: 10, amount: 35 }] });
    const result = brCo10(wrong);
    expect(result.status).toBe('fail');
    expect(result.message).toContain('135.00');
    expect(result.message).toContain('130.00');
    expect(result.message).toContain('Line 2 (Material)');
    expect(result.fields[0]).toBe('lines.1.amount');
  });
  it('passes where the prices include the VAT: gross items add up to the total with VAT, which net + VAT make', () => {
    // A till's receipt: 12.00 + 10.00 gross, "Amt. Excl. GST 20.75", "GST 6% 1.25", total 22.00.
    const gross = invoice({ subtotal: 20.75, tax: 1.25, total: 22, lines: [{ description: 'Bread', quantity: 1, unit_price: 12, amount: 12 }, { description: 'Coffee', quantity: 1, unit_price: 10, amount: 10 }] });
    const result = brCo10(gross);
    expect(result.status).toBe('pass');
    expect(result.message).toContain('the prices include the VAT');
    // Items that add up to the total while net + VAT do not make it: a misread, still shown.
    expect(brCo10({ ...gross, tax: 1.5 }).status).toBe('fail');
    // No VAT: nothing tells gross items from net ones that miss the total without VAT.
    expect(brCo10({ ...gross, subtotal: 21, tax: 0, total: 22 }).status).toBe('fail');
  });
  it('uses a printed line total over the total without VAT', () => {
    expect(brCo10(invoice({ line_total: 130, subtotal: 120, allowances: 10 })).status).toBe('pass');
    expect(brCo10(invoice({ line_total: 131 })).status).toBe('fail');
  });
  it('is not applicable without lines, with a line lacking its amount, or with allowances and no line total', () => {
    expect(brCo10(invoice({ lines: [] })).status).toBe('not-applicable');
    expect(brCo10(invoice({ lines: [{ description: 'x', quantity: 1, unit_price: 1, amount: null }] })).status).toBe('not-applicable');
    expect(brCo10(invoice({ allowances: 5 })).status).toBe('not-applicable');
    expect(brCo10(invoice({ subtotal: null })).status).toBe('not-applicable');
  });
  it('sums many cent amounts without float drift', () => {
    const lines = Array.from({ length: 10 }, () => ({ description: '', quantity: null, unit_price: null, amount: 0.1 }));
    expect(brCo10(invoice({ lines, subtotal: 1 })).status).toBe('pass');
  });
  it('holds for a credit note with negative amounts', () => {
    expect(brCo10(creditNote()).status).toBe('pass');
  });
});

describe('BR-CO-13 total without VAT', () => {
  it('passes: line total − allowances + charges', () => {
    expect(brCo13(invoice({ line_total: 130, allowances: 10, charges: 5, subtotal: 125 })).status).toBe('pass');
    expect(brCo13(invoice({ allowances: 10, subtotal: 120 })).status).toBe('pass');
  });
  it('fails naming the values', () => {
    const result = brCo13(invoice({ line_total: 130, allowances: 10, subtotal: 125 }));
    expect(result.status).toBe('fail');
    expect(result.message).toContain('120.00');
    expect(result.message).toContain('125.00');
    expect(result.fields).toContain('allowances');
  });
  it('is not applicable when it would repeat BR-CO-10, or without a total without VAT', () => {
    expect(brCo13(invoice()).status).toBe('not-applicable');
    expect(brCo13(invoice({ subtotal: null, line_total: 130 })).status).toBe('not-applicable');
  });
  it('holds for a credit note', () => {
    expect(brCo13({ ...creditNote(), line_total: -130 }).status).toBe('pass');
  });
});

describe('BR-CO-15 total with VAT', () => {
  it('passes, fails and is not applicable', () => {
    expect(brCo15(invoice()).status).toBe('pass');
    const wrong = brCo15(invoice({ total: 155.7 }));
    expect(wrong.status).toBe('fail');
    expect(wrong.message).toMatch(/130\.00.*24\.70.*154\.70.*155\.70/);
    expect(brCo15(invoice({ tax: null })).status).toBe('not-applicable');
    expect(brCo15(invoice({ total: null })).status).toBe('not-applicable');
  });
  it('on a receipt, passes a total paid as net + VAT rounded to the smallest coin; not on an invoice, nor off the coin', () => {
    const receipt = (total: number) => brCo15(invoice({ document_type: 'receipt', subtotal: 58.23, tax: 3.49, total }));
    expect(receipt(61.7).status).toBe('pass');
    expect(receipt(61.7).message).toContain('rounded to the smallest coin');
    expect(receipt(61.75).status).toBe('fail');
    expect(receipt(61.68).status).toBe('fail');
    expect(brCo15(invoice({ subtotal: 58.23, tax: 3.49, total: 61.7 })).status).toBe('fail');
  });
  it('compares at the cent: 0.1 + 0.2 = 0.30', () => {
    expect(brCo15(invoice({ subtotal: 0.1, tax: 0.2, total: 0.3 })).status).toBe('pass');
    expect(brCo15(invoice({ subtotal: 0.1, tax: 0.2, total: 0.31 })).status).toBe('fail');
  });
  it('holds for a credit note', () => {
    expect(brCo15(creditNote()).status).toBe('pass');
  });
});

describe('BR-CO-16 amount due', () => {
  it('passes with and without a paid amount', () => {
    expect(brCo16(invoice({ amount_due: 154.7 })).status).toBe('pass');
    expect(brCo16(invoice({ amount_due: 54.7, prepaid: 100 })).status).toBe('pass');
    expect(brCo16(invoice({ amount_due: 155, rounding: 0.3 })).status).toBe('pass');
  });
  it('fails naming the values', () => {
    const result = brCo16(invoice({ amount_due: 150 }));
    expect(result.status).toBe('fail');
    expect(result.message).toContain('150.00');
    expect(result.fields).toEqual(['total', 'amount_due']);
  });
  it('is not applicable without an amount due or a total', () => {
    expect(brCo16(invoice()).status).toBe('not-applicable');
    expect(brCo16(invoice({ amount_due: 1, total: null })).status).toBe('not-applicable');
  });
  it('holds for a credit note', () => {
    expect(brCo16(creditNote()).status).toBe('pass');
  });
});

describe('BR-CO-14 VAT total = Σ category amounts', () => {
  it('passes, fails and is not applicable', () => {
    const breakdown = [
      { rate: 19, base: 100, amount: 19 },
      { rate: 7, base: 30, amount: 2.1 },
    ];
    expect(brCo14(invoice({ tax: 21.1, tax_breakdown: breakdown })).status).toBe('pass');
    const wrong = brCo14(invoice({ tax: 21.2, tax_breakdown: breakdown }));
    expect(wrong.status).toBe('fail');
    expect(wrong.message).toContain('21.10');
    expect(wrong.fields).toEqual(['tax_breakdown.0.amount', 'tax_breakdown.1.amount', 'tax']);
    expect(brCo14(invoice()).status).toBe('not-applicable');
    expect(brCo14(invoice({ tax: null, tax_breakdown: breakdown })).status).toBe('not-applicable');
    expect(brCo14(invoice({ tax_breakdown: [{ rate: 19, base: 100, amount: null }] })).status).toBe('not-applicable');
  });
  it('holds for a credit note', () => {
    expect(brCo14(creditNote()).status).toBe('pass');
  });
});

describe('BR-CO-17 category tax = base × rate, rounded to 2 decimals', () => {
  it('passes when the printed tax is the rounded product', () => {
    expect(brCo17(invoice({ tax_breakdown: [{ rate: 19, base: 130, amount: 24.7 }] }))[0]!.status).toBe('pass');
  });
  it('rounds at the 2-decimal boundary: 10.05 × 19% = 1.9095 → 1.91, not 1.90', () => {
    expect(brCo17(invoice({ tax_breakdown: [{ rate: 19, base: 10.05, amount: 1.91 }] }))[0]!.status).toBe('pass');
    const truncated = brCo17(invoice({ tax_breakdown: [{ rate: 19, base: 10.05, amount: 1.9 }] }))[0]!;
    expect(truncated.status).toBe('fail');
    expect(truncated.message).toContain('1.91');
    // Exactly half a cent: 0.5 × 1% = 0.005 → 0.01 (half away from zero).
    expect(brCo17(invoice({ tax_breakdown: [{ rate: 1, base: 0.5, amount: 0.01 }] }))[0]!.status).toBe('pass');
    expect(brCo17(invoice({ tax_breakdown: [{ rate: 1, base: 0.5, amount: 0 }] }))[0]!.status).toBe('fail');
  });
  it('gives one result per row and is not applicable for incomplete rows or no breakdown', () => {
    const results = brCo17(invoice({ tax_breakdown: [{ rate: 19, base: 100, amount: 19 }, { rate: 7, base: 30, amount: 2.2 }, { rate: null, base: 5, amount: 1 }] }));
    expect(results.map((r) => r.status)).toEqual(['pass', 'fail', 'not-applicable']);
    expect(results[1]!.message).toContain('VAT row 2');
    expect(brCo17(invoice())[0]!.status).toBe('not-applicable');
  });
  it('on a receipt, passes a tax one cent from base × rate (the till rounds each item line\'s tax); not two, nor on an invoice', () => {
    const receipt = (amount: number) => brCo17(invoice({ document_type: 'receipt', tax_breakdown: [{ rate: 6, base: 179.25, amount }] }))[0]!;
    expect(receipt(10.76).status).toBe('pass');
    expect(receipt(10.75).status).toBe('pass');
    expect(receipt(10.75).message).toContain('rounded per item line');
    expect(receipt(10.74).status).toBe('fail');
    expect(brCo17(invoice({ tax_breakdown: [{ rate: 6, base: 179.25, amount: 10.75 }] }))[0]!.status).toBe('fail');
  });
  it('rounds a credit note half away from zero: −10.05 × 19% → −1.91', () => {
    expect(brCo17(creditNote())[0]!.status).toBe('pass');
    expect(brCo17(invoice({ tax_breakdown: [{ rate: 19, base: -10.05, amount: -1.91 }] }))[0]!.status).toBe('pass');
  });
});

describe('line arithmetic', () => {
  it('passes within two cents (3 × 3.33 vs 10.01, 9.97), fails beyond (10.02), naming the line', () => {
    expect(lineArithmetic(invoice({ lines: [{ description: 'a', quantity: 3, unit_price: 3.33, amount: 10.02 }] }))[0]!.status).toBe('fail');
    expect(lineArithmetic(invoice({ lines: [{ description: 'a', quantity: 3, unit_price: 3.33, amount: 10.01 }] }))[0]!.status).toBe('pass');
    expect(lineArithmetic(invoice({ lines: [{ description: 'a', quantity: 3, unit_price: 3.33, amount: 9.97 }] }))[0]!.status).toBe('pass');
    const wrong = lineArithmetic(invoice({ lines: [{ description: 'a', quantity: 1, unit_price: 1, amount: 1 }, { description: 'Widget', quantity: 2, unit_price: 5, amount: 12 }] }));
    expect(wrong.map((r) => r.status)).toEqual(['pass', 'fail']);
    expect(wrong[1]!.message).toContain('Line 2 (Widget)');
    expect(wrong[1]!.fields).toEqual(['lines.1.quantity', 'lines.1.unit_price', 'lines.1.amount']);
  });
  it('is not applicable without lines or values', () => {
    expect(lineArithmetic(invoice({ lines: [] }))[0]!.status).toBe('not-applicable');
    expect(lineArithmetic(invoice({ lines: [{ description: 'a', quantity: null, unit_price: 1, amount: 1 }] }))[0]!.status).toBe('not-applicable');
  });
  it('holds for credit-note lines with negative quantities', () => {
    expect(lineArithmetic(creditNote()).every((r) => r.status === 'pass')).toBe(true);
  });
});

describe('required fields and dates', () => {
  it('passes when everything is there and fails naming what is missing', () => {
    expect(requiredFields(invoice()).every((r) => r.status === 'pass')).toBe(true);
    const missing = requiredFields(invoice({ invoice_number: null, buyer: '  ', total: null }));
    expect(missing.filter((r) => r.status === 'fail').map((r) => r.rule)).toEqual(['BR-02', 'BR-07', 'BR-14']);
    expect(missing.find((r) => r.rule === 'BR-02')!.message).toContain('Invoice number (BT-1) is missing');
  });
  it('prints the present total in the document\'s number format, as every other rule does', () => {
    const german = { amount: (v: number) => v.toFixed(2).replace('.', ','), number: (v: number) => String(v).replace('.', ',') };
    const total = requiredFields(invoice({ total: 2076.76 }), german).find((r) => r.rule === 'BR-14')!;
    expect(total.message).toContain('2076,76');
    expect(total.message).not.toContain('2076.76');
  });
  it('due date on or after the issue date', () => {
    expect(dueAfterIssue(invoice()).status).toBe('pass');
    expect(dueAfterIssue(invoice({ due_date: '2024-03-01' })).status).toBe('pass');
    const early = dueAfterIssue(invoice({ due_date: '2024-02-28' }));
    expect(early.status).toBe('fail');
    expect(early.message).toContain('2024-02-28');
    expect(dueAfterIssue(invoice({ due_date: null })).status).toBe('not-applicable');
  });
});

describe('identifiers', () => {
  it('IBAN: valid check digits pass, a changed digit or wrong length fails', () => {
    expect(checkIban('DE89 3704 0044 0532 0130 00', 0).status).toBe('pass');
    expect(checkIban('GB82 WEST 1234 5698 7654 32', 0).status).toBe('pass');
    const typo = checkIban('DE89 3704 0044 0532 0130 01', 0);
    expect(typo.status).toBe('fail');
    expect(typo.message).toContain('mod 97');
    expect(checkIban('DE89 3704 0044 0532 0130', 0).message).toContain('DE IBANs have 22');
    expect(checkIban('1234', 1).fields).toEqual(['ibans.1']);
  });
  it('VAT ID: prefix and shape', () => {
    expect(checkVatId('DE 123 456 789', 0).status).toBe('pass');
    expect(checkVatId('ATU12345678', 0).status).toBe('pass');
    expect(checkVatId('FR 12 345678901', 0).status).toBe('pass');
    expect(checkVatId('NL123456789B01', 0).status).toBe('pass');
    expect(checkVatId('CHE-123.456.789 MWST', 0).status).toBe('pass');
    expect(checkVatId('123456789', 0).message).toContain('no country prefix');
    expect(checkVatId('GR123456789', 0).message).toContain('EL');
    expect(checkVatId('DE12345678', 0).message).toContain('DE VAT identifier format');
    expect(checkVatId('QQ123456789', 0).message).toContain('no VAT identifier format known for the prefix QQ');
  });
  it('not applicable when none is printed', () => {
    const results = evaluateInvoiceRules(invoice());
    expect(results.filter((r) => r.rule === 'IBAN' || r.rule === 'BR-CO-9').map((r) => r.status)).toEqual(['not-applicable', 'not-applicable']);
  });
  it('finds labelled IBANs and VAT IDs in a page, not amounts beside a VAT label', () => {
    const found = findIdentifiers(
      [
        'IBAN: DE89 3704 0044 0532 0130 00   BIC: COBADEFFXXX',
        'USt-IdNr.: DE123456789',
        'VAT 19%   24,70',
        '<table><tr><td>N° TVA intracommunautaire</td><td>FR12345678901</td></tr></table>',
      ].join('\n'),
    );
    expect(found.ibans).toEqual(['DE89 3704 0044 0532 0130 00']);
    expect(found.vat_ids).toEqual(['DE123456789', 'FR12345678901']);
  });
});

describe('evaluateInvoiceRules', () => {
  it('a consistent invoice has no failure; a credit note neither', () => {
    expect(evaluateInvoiceRules(invoice()).filter((r) => r.status === 'fail')).toEqual([]);
    expect(evaluateInvoiceRules(creditNote()).filter((r) => r.status === 'fail')).toEqual([]);
  });
});
