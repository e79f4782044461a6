import { describe, expect, it } from 'vitest';
import { isPageLanguage, pageLanguage } from './pageLanguage.js';

const words = (text: string): string[] => text.split(/\s+/u);

describe('pageLanguage', () => {
  it('tells English, German and French prose by their function words', () => {
    expect(pageLanguage(words('Dynamic languages such as JavaScript are more difficult to compile than statically typed ones. This is the case for the types of values, which are not known, and it is hard to compile them with the usual techniques.'))).toBe('eng');
    expect(pageLanguage(words('Die Rechnung ist nicht bezahlt. Der Betrag wird mit dem Zins von der Bank auf das Konto des Kunden gebucht, und die Mahnung ist auch bei uns eingegangen.'))).toBe('deu');
    expect(pageLanguage(words('La facture est payée par le client. Les montants sont indiqués dans le tableau, et la TVA est due pour une livraison au taux normal sur les produits.'))).toBe('fra');
  });

  it('leaves a page of labels and figures unknown, and a mixed page too', () => {
    expect(pageLanguage(words('Invoice 12345 Total 100.00 EUR Date 2024-01-01 Qty Price Amount'))).toBeNull();
    expect(pageLanguage([])).toBeNull();
    expect(pageLanguage(words('the of and to is that for with le la les et est du une'))).toBeNull();
  });

  it('leaves a page in a language it has no rules for unknown (Spanish shares "la", "que" with French)', () => {
    expect(pageLanguage(words('La votación del proyecto de ley en la Cámara de Diputados: los votos a favor y en contra de la reforma, con el resultado que se publica para el registro.'))).toBeNull();
  });

  it('ignores punctuation and case around words', () => {
    expect(pageLanguage(words('(The) THE, the; "of" and. To is that'))).toBe('eng');
  });

  it('names the languages it knows', () => {
    expect(isPageLanguage('deu')).toBe(true);
    expect(isPageLanguage('spa')).toBe(false);
  });
});
