import { describe, expect, it } from 'vitest';
import { nameDigitsRead } from './nameDigits.js';

describe('nameDigitsRead: a look-alike digit inside a name word is its letter', () => {
  it('reads 0, 1, 5 and 8 inside a word of letters, or first before three letters, as the letter of that shape and case', () => {
    expect(nameDigitsRead('URBAN 1DEA SDN BHD')).toBe('URBAN IDEA SDN BHD');
    expect(nameDigitsRead('C0FFEE H0LDINGS')).toBe('COFFEE HOLDINGS');
    expect(nameDigitsRead('KEDAI RUN5IT')).toBe('KEDAI RUNSIT');
    expect(nameDigitsRead('AM8ER')).toBe('AMBER');
    expect(nameDigitsRead('Gl0bal Ca5h')).toBe('Global Cash');
  });

  it('leaves numbers, a branch number at a word\'s end or after a hyphen, other digits and short words as printed', () => {
    for (const name of ['99 SPEED MART', '10 GRAM GOURMET', 'OLIVE9 PHARMACY', 'KL123 - CONTOH', 'STORE1', 'OUTLET-1', 'A1 MART', 'B1G', 'H0T P0T', 'Ho1iday', 'CAFE 1O1']) {
      expect(nameDigitsRead(name)).toBe(name);
    }
  });
});
