/** Trade words in a merchant's name read back through one OCR slip; proper names and the vocabulary's own words kept. */
import { describe, expect, it } from 'vitest';
import { tradeWordsSpelled } from './tradeWords.js';
import { receiptMerchant } from './receiptReading.js';
import { wordsToLines } from './layout.js';
import { wordsFromLayoutText } from './index.js';

describe('trade words in a merchant name', () => {
  it('reads a look-alike letter, or one letter lost, back into the trade word, keeping the printed case', () => {
    expect(tradeWordsSpelled('VERBENA CONFECTIUNERY SDN BHD')).toBe('VERBENA CONFECTIONERY SDN BHD');
    expect(tradeWordsSpelled('LAVENDER CONFECTLONERY & BAKERY S/B')).toBe('LAVENDER CONFECTIONERY & BAKERY S/B');
    expect(tradeWordsSpelled('Anzel Adverising Sdn Bhd')).toBe('Anzel Advertising Sdn Bhd');
    expect(tradeWordsSpelled('KEDAI PERNIAGAAM MAJU')).toBe('KEDAI PERNIAGAAN MAJU');
    expect(tradeWordsSpelled('TSH POWER HARDWRE')).toBe('TSH POWER HARDWARE');
  });

  it('keeps a word of the vocabulary, its plural, a spelling of its own, a short word and a name a letter off', () => {
    for (const name of ['AIK HUAT ENTERPRISES', 'XYZ SUPPLIER', 'KILANG INDUSTRI', 'Caterina Bakery', 'RESTORAN MAJU', 'TRADINC CO', 'ECOSWAY.COM SDN BHD'])
      expect(tradeWordsSpelled(name)).toBe(name);
  });

  it('is how a receipt gives its merchant', () => {
    const lines = wordsToLines(wordsFromLayoutText(['VERBENA CONFECTIUNERY SDN BHD', '(123456-X)', 'NO 5, JALAN CONTOH 3', 'TOTAL  12.00'].join('\n')));
    expect(receiptMerchant(lines)?.value).toBe('VERBENA CONFECTIONERY SDN BHD');
  });
});
