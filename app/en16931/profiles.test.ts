/**
 * Profiles by their own rules (issue 36): the declared profile is named; Factur-X MINIMUM and BASIC WL are said to be
 * incomplete invoices and are checked by the EN 16931 rules on the terms they carry — not failed for lacking lines.
 */
import { describe, expect, it } from 'vitest';
import { facturXMinimum } from '../../testing/facturXMinimum.js';
import { declaredProfile, validateEInvoiceXml } from './index.js';

/** A Factur-X MINIMUM invoice declaring `guideline` (testing/facturXMinimum.ts). */
const minimum = (guideline: string, options: { id?: string; grandTotal?: string } = {}): string => facturXMinimum({ guideline, ...options });

const fatalIds = (xml: string, rules?: 'en16931') => validateEInvoiceXml(xml, rules ? { rules } : {}).failed.filter((f) => f.flag === 'fatal' && f.id.startsWith('BR-')).map((f) => f.id);

describe('declared profiles', () => {
  it.each([
    ['urn:cen.eu:en16931:2017', 'EN 16931', true],
    ['urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0', 'XRechnung 3.0', true],
    ['urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.0', 'XRechnung 2.0', true],
    ['urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0', 'Peppol BIS Billing 3.0', true],
    ['urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic', 'Factur-X BASIC', true],
    ['urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended', 'Factur-X EXTENDED', true],
    ['urn:factur-x.eu:1p0:minimum', 'Factur-X MINIMUM', false],
    ['urn:zugferd.de:2p0:minimum', 'Factur-X MINIMUM', false],
    ['urn:factur-x.eu:1p0:basicwl', 'Factur-X BASIC WL', false],
    ['urn:ferd:CrossIndustryDocument:invoice:1p0:comfort', 'ZUGFeRD 1.0 COMFORT', true],
    [null, 'no profile declared', true],
  ] as const)('%s → %s', (id, name, complete) => {
    expect(declaredProfile(id)).toMatchObject({ name, complete });
  });
});

describe('Factur-X MINIMUM and BASIC WL: not complete invoices, checked for what their profile requires', () => {
  it('MINIMUM: said to be incomplete; no rule on lines or terms outside the profile fires', () => {
    const report = validateEInvoiceXml(minimum('urn:factur-x.eu:1p0:minimum'));
    expect(report.profileName).toBe('Factur-X MINIMUM');
    expect(report.incomplete).toMatch(/not a complete invoice/);
    expect(fatalIds(minimum('urn:factur-x.eu:1p0:minimum'))).toEqual([]);
    expect(report.notApplicable).toEqual(expect.arrayContaining(['BR-16', 'BR-21']));
  });

  it('MINIMUM: the rules on the terms it carries still fire (invoice number, totals)', () => {
    expect(fatalIds(minimum('urn:factur-x.eu:1p0:minimum', { id: '' }))).toContain('BR-02');
    expect(fatalIds(minimum('urn:factur-x.eu:1p0:minimum', { grandTotal: '120.00' }))).toContain('BR-CO-15');
  });

  it('the same document forced to EN 16931 fails for lacking lines; BASIC WL is judged without its lines', () => {
    expect(fatalIds(minimum('urn:factur-x.eu:1p0:minimum'), 'en16931')).toContain('BR-16');
    const basicWl = validateEInvoiceXml(minimum('urn:factur-x.eu:1p0:basicwl'));
    expect(basicWl.profileName).toBe('Factur-X BASIC WL');
    expect(basicWl.incomplete).toMatch(/not a complete invoice \(no lines\)/);
    expect(basicWl.failed.map((f) => f.id)).not.toContain('BR-16');
    // BASIC WL carries the buyer's address and the sum of line amounts (BT-106): their rules apply.
    expect(fatalIds(minimum('urn:factur-x.eu:1p0:basicwl'))).toEqual(expect.arrayContaining(['BR-10', 'BR-12']));
  });
});
