/**
 * Dates as printed on invoices → ISO `YYYY-MM-DD`. Numeric (`2014-08-03`, `03/08/2014`, `20.10.2015`, `8-9-2022`,
 * two-digit years) and with month names in English, German, French, Dutch (`August 3, 2014`, `7. Mai 2014`,
 * `02 Juillet 2015`, `19 april 2014`, `Jan 1, 2022`, `05-Jan-2017`, `30 Dec 17`).
 *
 * Numeric day/month order: year first is ISO; otherwise day-first unless `monthFirst` is set (US invoices) — a
 * component above 12 decides by itself, and a dotted date is day first in every locale that writes one.
 */
/** Month names and abbreviations (lower case) → month number; also what ocrDateRepair.ts reads through one edit. */
export const monthNames: Record<string, number> = {};
const addMonths = (names: string[]): void => names.forEach((n, i) => n.split('|').forEach((v) => (monthNames[v] = i + 1)));
addMonths(['january|jan', 'february|feb', 'march|mar', 'april|apr', 'may', 'june|jun', 'july|jul', 'august|aug', 'september|sep|sept', 'october|oct', 'november|nov', 'december|dec']);
addMonths(['januar|jän|jänner', 'februar', 'märz|maerz|mär', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober|okt', 'november', 'dezember|dez']);
addMonths(['janvier|janv', 'février|fevrier|févr|fevr', 'mars', 'avril|avr', 'mai', 'juin', 'juillet|juil', 'août|aout', 'septembre', 'octobre', 'novembre', 'décembre|decembre|déc']);
addMonths(['januari', 'februari', 'maart|mrt', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december']);

const monthAlternation = Object.keys(monthNames)
  .sort((a, b) => b.length - a.length)
  .join('|');

export interface DateMatch {
  iso: string;
  text: string;
  index: number;
}

function iso(year: number, month: number, day: number): string | null {
  if (year < 100) year += year >= 70 ? 1900 : 2000;
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || year > 2200) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const patterns: { re: RegExp; toIso: (m: RegExpMatchArray, monthFirst: boolean) => string | null }[] = [
  { re: /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/gi, toIso: (m) => iso(+m[1]!, +m[2]!, +m[3]!) },
  {
    // Not inside a longer run of groups: "05.22.95.66.66" is a (French) phone number, not 1995-05-22. A time joined
    // on by a hyphen ("12/06/2016-13:30:10", a till's date and time) is no further group.
    re: /(?<![\d.])(\d{1,2})([-/.])(\d{1,2})[-/.](\d{4}|\d{2})(?!\d|[-/.](?!\d{1,2}\s?:\s?\d{2}(?!\d))\d)/gi,
    toIso: (m, monthFirst) => {
      const a = +m[1]!;
      const b = +m[3]!;
      const y = +m[4]!;
      if (a > 12) return iso(y, b, a);
      if (b > 12) return iso(y, a, b);
      // Dotted numeric dates are day first wherever they are written (de, fr, nl, pl…); the US writes slashes.
      return monthFirst && m[2] !== '.' ? iso(y, a, b) : iso(y, b, a);
    },
  },
  {
    // Day, month name, year, spaced or dashed ("7. Mai 2014", "05-Jan-2017", "24 Mar-2018"); a two-digit year only
    // where no time follows it ("30 Dec 17 18:40", not "5 Mar 12:30").
    re: new RegExp(`(?<![\\p{L}\\d])(\\d{1,2})(?:[-/]|\\.?\\s*(?:de\\s+)?)(${monthAlternation})(?:[-/]|\\.?,?\\s+)(\\d{4}(?!\\d)|\\d{2}(?![\\d:.]))`, 'giu'),
    toIso: (m) => iso(+m[3]!, monthNames[m[2]!.toLowerCase()]!, +m[1]!),
  },
  {
    re: new RegExp(`(?<![\\p{L}])(${monthAlternation})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s*(?:,\\s*)?(\\d{4})(?!\\d)`, 'giu'),
    toIso: (m) => iso(+m[3]!, monthNames[m[1]!.toLowerCase()]!, +m[2]!),
  },
];

/** All dates in a text, left to right (overlapping matches resolved in favour of the earlier, longer one). */
export function findDates(text: string, options: { monthFirst?: boolean } = {}): DateMatch[] {
  const found: DateMatch[] = [];
  for (const { re, toIso } of patterns) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const value = toIso(m, options.monthFirst ?? false);
      if (!value) continue;
      const index = m.index ?? 0;
      const end = index + m[0].length;
      if (found.some((f) => index < f.index + f.text.length && end > f.index)) continue;
      found.push({ iso: value, text: m[0], index });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

export function parseDate(text: string, options: { monthFirst?: boolean } = {}): string | null {
  return findDates(text, options)[0]?.iso ?? null;
}
