import { describe, expect, it } from 'vitest';
import { line } from '../../testing/syntheticWords.js';
import { extractInvoiceFields } from './extractFields.js';

describe('the issue date on the title line', () => {
  it('beats the first date of the page when no label names the issue date', () => {
    const words = [
      ...line('Mo.-Fr. 08.30 - 12.30 Uhr', 40, 40),
      ...line('Rechnungszeitraum: 01.04.2014 - 30.06.2014', 40, 100),
      ...line('Beitragsrechnung zur Kraftfahrtversicherung Nr. 00.123.456.7', 40, 160),
      ...line('11. März 2014', 900, 160),
      ...line('Gesamtbetrag 220,00 €', 40, 300),
    ];
    expect(extractInvoiceFields({ words }).issue_date?.value).toBe('2014-03-11');
  });

  it('leaves periods and due dates on a title-like line alone', () => {
    const words = [...line('Invoice period 01/04/2024 - 30/04/2024', 40, 40), ...line('Invoice due 15/05/2024', 40, 80), ...line('Printed 02/05/2024', 40, 120), ...line('Total 10.00', 40, 200)];
    expect(extractInvoiceFields({ words }).issue_date?.value).toBe('2024-04-01');
  });
});

describe('a title that wraps onto the next line', () => {
  it('takes the date the dating word ties to the title ("… Nr. 4711 vom" over the date)', () => {
    const words = [
      ...line('Stylesheet-Version: 2.0 vom 18.10.2018', 40, 40),
      ...line('Rechnung des Versicherers Nr. 01.234.567.8-2018-1 vom', 40, 120),
      ...line('06.12.2018', 40, 150),
      ...line('Gesamtbetrag 50,00 €', 40, 300),
    ];
    expect(extractInvoiceFields({ words }).issue_date?.value).toBe('2018-12-06');
  });

  it('takes "vom <date>" under the title line ("Gutschrift Nr. 4711" over "vom 31.10.2018")', () => {
    const words = [
      ...line('Version 2.1 vom 24.03.2020', 40, 40),
      ...line('Gutschrift Nr. 47110818', 40, 120),
      ...line('vom 31.10.2018', 40, 150),
      ...line('Gesamtbetrag 50,00 €', 40, 300),
    ];
    expect(extractInvoiceFields({ words }).issue_date?.value).toBe('2018-10-31');
  });

  it('does not take a date two lines down or one without a dating word', () => {
    const words = [...line('Invoice 2024-17', 40, 40), ...line('Printed 02/05/2024', 40, 70), ...line('Total 10.00', 40, 200)];
    expect(extractInvoiceFields({ words }).issue_date?.value).toBe('2024-05-02');
    expect(extractInvoiceFields({ words }).issue_date?.label).toBeNull();
  });
});
