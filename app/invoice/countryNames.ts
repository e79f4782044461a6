/**
 * Country names, for telling an address's last line ("MALAYSIA", "Deutschland") from a name. Built from the ICU data
 * Node ships (Intl.DisplayNames) rather than a hand-kept list: every ISO 3166 region code's name in the languages the
 * documents come in, compared as capital letters only.
 */
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'ms', 'id', 'sv', 'da'];

let names: Set<string> | null = null;

const letters = (text: string): string => text.toUpperCase().replace(/[^\p{L}]/gu, '');

function countryNames(): Set<string> {
  if (names) return names;
  names = new Set();
  const codes: string[] = [];
  for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) codes.push(String.fromCharCode(a, b));
  for (const language of LANGUAGES) {
    const display = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    for (const code of codes) {
      const name = display.of(code);
      // Two letters back is no name (an unknown or private-use code); a name of three letters or fewer is too short
      // to tell from a word ("Oman" stays, "UK" does not).
      if (name && name !== code && letters(name).length >= 4) names.add(letters(name));
    }
  }
  return names;
}

/** Whether the text is a country's name and nothing else ("MALAYSIA", "Deutschland.", "United Kingdom"). */
export function isCountryName(text: string): boolean {
  const key = letters(text);
  return key.length >= 4 && countryNames().has(key);
}
