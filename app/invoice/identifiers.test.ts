import { describe, expect, it } from 'vitest';
import { bicProblem, countryOfVatId, ibanProblem, vatIdProblem } from './identifiers.js';

describe('identifiers by their definitions', () => {
  it('checks an IBAN by length per country and mod 97', () => {
    expect(ibanProblem('DE89 3704 0044 0532 0130 00')).toBeNull();
    expect(ibanProblem('FR14 2004 1010 0505 0001 3M02 606')).toBeNull();
    expect(ibanProblem('DE89 3704 0044 0532 0130 01')).toMatch(/mod 97/);
    expect(ibanProblem('DE89 3704 0044 0532 0130')).toMatch(/DE IBANs have 22/);
    expect(ibanProblem('VA59 0011 2300 0012 3456 78')).toBeNull();
    expect(ibanProblem('hello')).toMatch(/not an IBAN/);
  });

  it('checks a VAT identifier against its country format', () => {
    for (const ok of ['DE123456789', 'ATU12345678', 'FR 40 303265045', 'NL123456789B01', 'EL123456789', 'BE0123456789']) expect(vatIdProblem(ok), ok).toBeNull();
    expect(vatIdProblem('DE12345678')).toMatch(/DE VAT/);
    expect(vatIdProblem('NL123456789')).toMatch(/NL VAT/);
    expect(vatIdProblem('QQ123')).toMatch(/no VAT identifier format/);
    expect(vatIdProblem('123456789')).toMatch(/no country prefix/);
    expect(vatIdProblem('GR123456789')).toMatch(/prefix EL, not GR/);
    expect(vatIdProblem('CHE-123.456.789 MWST')).toBeNull();
    expect(countryOfVatId('EL123456789')).toBe('GR');
    expect(countryOfVatId('DE123456789')).toBe('DE');
    expect(bicProblem('COBADEFFXXX')).toBeNull();
    expect(bicProblem('COBA')).not.toBeNull();
  });
});
