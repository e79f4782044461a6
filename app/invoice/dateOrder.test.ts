import { describe, expect, it } from 'vitest';
import { parseDate } from './dates.js';
import { monthFirstDates, pageLanguage } from './dateOrder.js';

describe("the page's date order", () => {
  it('follows an unambiguous date on the page over everything else', () => {
    expect(monthFirstDates('Rechnung vom 03/04/2024, Lieferung 11/17/2024', 'EUR')).toBe(true);
    expect(monthFirstDates('Invoice date 03/04/2024, delivered 17/03/2024', 'USD')).toBe(false);
  });

  it('is day first on a page in German or French, whatever the currency', () => {
    expect(monthFirstDates('Rechnung für Ihre Bestellung, bitte zahlen Sie den Betrag bis 03/04/2024', 'USD')).toBe(false);
    expect(monthFirstDates('Facture pour votre commande, montant à payer le 03/04/2024', 'USD')).toBe(false);
  });

  it('is month first on an English page in US dollars, day first in pounds or euros', () => {
    expect(monthFirstDates('Invoice date 03/04/2024. Please pay the total amount by the due date.', 'USD')).toBe(true);
    expect(monthFirstDates('Invoice date 03/04/2024. Please pay the total amount by the due date.', 'GBP')).toBe(false);
  });

  it("is month first on an English page with a US address, not with a country code before a postcode", () => {
    expect(monthFirstDates('Corner Cafe, Springfield, IL 62701. Total 9.72, date 03/04/2018', null)).toBe(true);
    expect(monthFirstDates('Invoice from Muster Ltd, DE 12345 Leipzig. Total 9.72, date 03/04/2018', null)).toBe(false);
  });

  it('never reads a dotted date month first (the US writes slashes)', () => {
    expect(parseDate('03.04.2024', { monthFirst: true })).toBe('2024-04-03');
    expect(parseDate('03/04/2024', { monthFirst: true })).toBe('2024-03-04');
  });

  it('names the language by its function words', () => {
    expect(pageLanguage('Die Rechnung ist bitte bis zum Datum zu zahlen, der Betrag')).toBe('de');
    expect(pageLanguage('Please pay the invoice total by the due date')).toBe('en');
    expect(pageLanguage('Veuillez payer le montant de la facture')).toBe('fr');
    expect(pageLanguage('12345 678')).toBeNull();
  });
});
