/**
 * Dates that OCR printed with slips, read back where the evidence is strong enough (a scanned receipt's faded print:
 * "D3/06/3017", "17/61:2018", "fate 1 05 lan 2017 12:41pm"). Only the date's own shape is read — two digits, two
 * digits, four (or two) with separators, a year first (4+2+2), or a day, a month name and a year — so a phone,
 * registration or invoice number never becomes a date; a time ("12:41:00") has colons for both separators and is not
 * one either. Within that shape:
 * - a letter or mark OCR prints for a digit is the digit (O/o/D/Q→0, l/I/i/|/!→1, Z/z→2, S/s/$→5, B→8, G/b→6,
 *   g/q→9), two at most, and every group keeps a digit of its own (a year three);
 * - one of the separators may be `:`, `,` or a space where the other is `/` or `-`;
 * - a year no receipt can have (before 1990, after `latestYear`) is repaired only where exactly one change of one
 *   digit gives a plausible year and a valid date; a lost year digit ("201¢") is never guessed;
 * - an impossible month or day is repaired only where exactly one change of one digit into a look-alike (6↔0, 8↔3…)
 *   gives a valid date, and only on a four-digit year;
 * - a month name one edit away from exactly one month ("lan" → Jan), only with a day and a year beside it and a date
 *   label (read through one edit: "fate") before it or a time after it;
 * - the second separator read as a look-alike stroke ("02/1212017": a slash as 1, l, I or |; as 7 only in a date's
 *   context) or spaced off from the year ("21-03- 2018"), only as printed otherwise;
 * - a four-digit year with one or two digits glued after it (the time's, the space between lost: "17/01/20184"), only
 *   where the date as printed is valid with its real separators;
 * - the second separator lost, the month run into the year ("28/0717"), only with a date label before it or a time
 *   after it;
 * - a space inside a group — a four-digit year split before its last digit ("08-03-201 8"), a month split in two
 *   ("06/1 2/2016") — or for a separator beside a one-digit day or month ("5 3/2018"), only with a four-digit year
 *   and a date label before it or a time after it.
 * An exact date (dates.ts) is never read here; a repaired one is weaker evidence, and `slipRepairedDate` uses it only
 * where no exact date is on the page, or beside a date label where the exact ones are not.
 */
import { levenshtein } from '../checks/textDistance.js';
import { findDates, monthNames, type DateMatch } from './dates.js';
import type { FieldValue } from './fieldValues.js';
import type { TextLine } from './layout.js';

export interface RepairedDate extends DateMatch {
  /** What was read through, in reading order: "D→0", ":→/", "lan→jan", "year 3017→2017", "month 61→01". */
  slips: string[];
  /** The date label just before it, as OCR printed it ("fate", "Date"); null where none. */
  label: string | null;
  /** A time of day printed right after it (a till prints the sale's date and time together). */
  timed: boolean;
}

export interface RepairOptions {
  monthFirst?: boolean;
  /** The latest year a document may carry; default next year (a receipt is not dated in the future). */
  latestYear?: number;
}

/** In a label, marks a value read through OCR's slips: its confidence is held low (fieldConfidence.ts). */
export const READ_THROUGH_SLIPS = 'read through OCR slips';
/** The most confidence a value read through OCR's slips may show: below every label's own, so the queue shows it. */
export const SLIP_REPAIRED_CEILING = 0.2;

const EARLIEST_YEAR = 1990;
const MAX_LETTER_SLIPS = 2;

/** Letters and marks OCR prints for a digit, by the glyph's shape. */
const letterDigit: Record<string, string> = {
  O: '0', o: '0', D: '0', Q: '0', l: '1', I: '1', i: '1', '|': '1', '!': '1', Z: '2', z: '2', S: '5', s: '5', $: '5', B: '8', G: '6', b: '6', g: '9', q: '9',
};
/** Digits OCR reads for one another (closed loops, similar strokes); symmetric. */
const digitLookalikes: Record<string, string> = { 0: '689', 1: '47', 2: '7', 3: '589', 4: '1', 5: '368', 6: '058', 7: '12', 8: '03569', 9: '038' };
/** Whether OCR reads digit `a` for `b` (digitLookalikes). */
export const lookalikeDigits = (a: string, b: string): boolean => (digitLookalikes[a] ?? '').includes(b);

const DIGIT = '[0-9OoDQlIi|!ZzSs$BGbgq]';
const SEPARATOR = '[/\\-.:,]|\\s';
const EDGE_BEFORE = '(?<![\\p{L}\\p{N}])';
const EDGE_AFTER = '(?![\\p{L}\\p{N}])';
const dayMonthYear = new RegExp(`${EDGE_BEFORE}(${DIGIT}{2})(${SEPARATOR})(${DIGIT}{2})(${SEPARATOR})(${DIGIT}{4}|${DIGIT}{2})${EDGE_AFTER}`, 'gu');
const yearMonthDay = new RegExp(`${EDGE_BEFORE}(${DIGIT}{4})([/\\-.])(${DIGIT}{2})([/\\-.])(${DIGIT}{2})${EDGE_AFTER}`, 'gu');
const dayNameYear = new RegExp(`${EDGE_BEFORE}(${DIGIT}{1,2})\\.?\\s*(\\p{L}{3,9})\\.?,?\\s+(${DIGIT}{4})${EDGE_AFTER}`, 'gu');
/** A date whose four-digit year has a time's first digits glued after it, the space between them lost ("17/01/20184 4 2153"). */
const gluedYear = new RegExp(`${EDGE_BEFORE}(\\d{2})([/\\-])(\\d{2})\\2(\\d{4})(\\d{1,2})${EDGE_AFTER}`, 'gu');
/** The same with the month's name ("05/Apr/201812 :49" for 05/Apr/2018 12:49). */
const gluedNameYear = new RegExp(`${EDGE_BEFORE}(\\d{1,2})([/\\-])(\\p{L}{3,9})\\2(\\d{4})(\\d{1,2})${EDGE_AFTER}`, 'gu');
/**
 * A date whose second separator OCR read as a look-alike stroke — a slash as 1, l, I or | ("02/1212017"), or as 7 (a
 * slash with a serif: "25/1272018", only in a date's context, where a phone number's digits may also run so) — or
 * spaced off from the year ("21-03- 2018"): the first separator printed, the second the same or its slip.
 */
const slippedSeparator = new RegExp(`${EDGE_BEFORE}(\\d{2})([/\\-])(\\d{2})(?:[1lI|7]|\\2\\s)(\\d{4})${EDGE_AFTER}`, 'gu');
/**
 * A date with a space inside one of its groups, a gap in faded print read as one: the year split before its last
 * digit ("08-03-201 8 05:01PM") or the month split in two ("06/1 2/2016 20:09:40"). Read only with a date label before
 * it or the time of the sale after it, and only with a four-digit year. (A day split in two, "1 7/03/2018", leaves a
 * date as printed after the space: that one is read, a count before it as likely as a slip.)
 */
const spacedYearDigit = new RegExp(`${EDGE_BEFORE}(\\d{2})([/\\-])(\\d{2})\\2(\\d{3}) (\\d)${EDGE_AFTER}`, 'gu');
const spacedMonth = new RegExp(`${EDGE_BEFORE}(\\d{1,2})([/\\-])(\\d) (\\d)\\2(\\d{4})${EDGE_AFTER}`, 'gu');
/**
 * A date with one separator read as a space and the other printed ("Date = 5 3/2018", "21 03-2018 14:29:00"), its
 * day or month of one digit (two digits each are dayMonthYear's): read only with a date label before it or the time
 * of the sale after it, only with a four-digit year, and not inside a longer date ("16/1 9/2016" is no 1 September).
 */
const spacedSeparator = new RegExp(`${EDGE_BEFORE}(?<![/\\-.,:])(\\d{1,2})(?: (\\d{1,2})([/\\-])|([/\\-])(\\d{1,2}) )(\\d{4})${EDGE_AFTER}`, 'gu');
/**
 * A date whose second separator OCR lost, the month run into the year ("28/0717 9:48:42" for 28/07/17): read only with
 * the time of the sale after it or a date label before it, where a till prints its date.
 */
const lostSeparator = new RegExp(`${EDGE_BEFORE}(\\d{1,2})([/\\-])(\\d{2})(\\d{2}|\\d{4})${EDGE_AFTER}`, 'gu');
const nameDayYear = new RegExp(`${EDGE_BEFORE}(\\p{L}{3,9})\\.?\\s+(${DIGIT}{1,2})(?:st|nd|rd|th)?(?:\\s*,)?\\s*(${DIGIT}{4})${EDGE_AFTER}`, 'gu');

/** Words that label a date, in the languages of the receipts read (English, Malay, German, Spanish). */
const dateLabels = ['date', 'datum', 'tarikh', 'fecha'];
const timeAfter = /^[\s,]*\d{1,2}[:.]\d{2}(?!\d)/;

/** Whether two words differ by at most one insertion, deletion or substitution. */
export function withinOneEdit(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) <= 1 && levenshtein(a, b) <= 1;
}

/** The date label among the (at most three) words before `index`, read through one edit; null where none. */
function labelBefore(text: string, index: number): string | null {
  const words = text.slice(0, index).split(/\s+/).filter(Boolean).slice(-3).reverse();
  for (const word of words) {
    const letters = word.replace(/[^\p{L}]/gu, '').toLowerCase();
    if (letters.length >= 4 && dateLabels.some((label) => withinOneEdit(letters, label))) return word.replace(/[:;.,]+$/, '');
  }
  return null;
}

/** A valid calendar date as ISO, or null. */
function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A group's characters read as digits (letters by their look-alike digit, each a slip); null where it has too few digits. */
function groupDigits(group: string, minDigits: number, slips: string[]): string | null {
  let digits = '';
  let own = 0;
  for (const ch of group) {
    if (/\d/.test(ch)) {
      digits += ch;
      own++;
    } else {
      digits += letterDigit[ch]!;
      slips.push(`${ch}→${letterDigit[ch]!}`);
    }
  }
  return own >= minDigits ? digits : null;
}

/** Every string with one digit changed, each to `choices(digit)`. */
function oneDigitChanges(digits: string, choices: (digit: string) => string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  for (let at = 0; at < digits.length; at++) for (const d of choices(digits[at]!)) out.push({ text: digits.slice(0, at) + d + digits.slice(at + 1), at });
  return out;
}
const anyOtherDigit = (d: string): string => '0123456789'.replace(d, '');
const lookalikesOf = (d: string): string => digitLookalikes[d] ?? '';

interface Reading {
  iso: string;
  slip: string | null;
}

/**
 * The one date the components make, as printed or with one repair: the year where it is implausible, else a day or
 * month that is impossible (look-alike digits only). Null where no date or more than one can be made.
 */
function uniqueDate(
  parts: { first: string; second: string; year: string },
  order: (a: number, b: number) => [day: number, month: number],
  latestYear: number,
  allowRepair: boolean,
): Reading | null {
  const yearOf = (text: string): number | null => {
    let year = Number(text);
    if (text.length === 2) year += year >= 70 ? 1900 : 2000;
    return year >= EARLIEST_YEAR && year <= latestYear ? year : null;
  };
  const make = (first: string, second: string, year: number | null): string | null => {
    if (year === null) return null;
    const [day, month] = order(Number(first), Number(second));
    return isoDate(year, month, day);
  };
  const asPrinted = make(parts.first, parts.second, yearOf(parts.year));
  if (asPrinted) return { iso: asPrinted, slip: null };
  if (!allowRepair || parts.year.length !== 4) return null;
  const found = new Map<string, string>();
  if (yearOf(parts.year) === null) {
    // A year no document can have: one digit changed, whichever, into a plausible year that makes a valid date.
    for (const { text } of oneDigitChanges(parts.year, anyOtherDigit)) {
      const iso = make(parts.first, parts.second, yearOf(text));
      if (iso) found.set(iso, `year ${parts.year}→${text}`);
    }
  } else {
    // An impossible day or month: one digit read for its look-alike.
    const year = yearOf(parts.year);
    for (const { text } of oneDigitChanges(parts.first, lookalikesOf)) {
      const iso = make(text, parts.second, year);
      if (iso) found.set(iso, `${parts.first}→${text}`);
    }
    for (const { text } of oneDigitChanges(parts.second, lookalikesOf)) {
      const iso = make(parts.first, text, year);
      if (iso) found.set(iso, `${parts.second}→${text}`);
    }
  }
  if (found.size !== 1) return null;
  const [iso, slip] = [...found][0]!;
  return { iso, slip };
}

/** Day/month order of two numeric components as dates.ts reads them: one above 12 is the day; else the page's order. */
const pageOrder =
  (monthFirst: boolean, dotted: boolean) =>
  (a: number, b: number): [number, number] => {
    if (a > 12) return [a, b];
    if (b > 12) return [b, a];
    return monthFirst && !dotted ? [b, a] : [a, b];
  };

/** The month a word names, read through one edit where exactly one month is that close; null otherwise. */
function monthOf(word: string): { month: number; slip: string | null } | null {
  const lower = word.toLowerCase();
  const exact = monthNames[lower];
  if (exact) return { month: exact, slip: null };
  const near = new Map<number, string>();
  for (const [name, month] of Object.entries(monthNames)) if (withinOneEdit(lower, name)) near.set(month, name);
  if (near.size !== 1) return null;
  const [month, name] = [...near][0]!;
  return { month, slip: `${word}→${name}` };
}

/** Every date in the text that OCR printed with slips and that reads back uniquely; exact dates are not among them. */
export function findRepairedDates(text: string, options: RepairOptions = {}): RepairedDate[] {
  const monthFirst = options.monthFirst ?? false;
  const latestYear = options.latestYear ?? new Date().getUTCFullYear() + 1;
  const exact = findDates(text, { monthFirst });
  const found: RepairedDate[] = [];
  const taken = (index: number, end: number): boolean =>
    exact.some((d) => index < d.index + d.text.length && end > d.index) || found.some((d) => index < d.index + d.text.length && end > d.index);
  const accept = (index: number, matched: string, iso: string, slips: string[]): void => {
    const end = index + matched.length;
    if (slips.length === 0 || taken(index, end)) return;
    found.push({ iso, text: matched, index, slips, label: labelBefore(text, index), timed: timeAfter.test(text.slice(end)) });
  };
  // A phone number's label just before digits says they are a number ("Tel 03-12-20184", "Tel 03/1212017").
  const afterPhoneLabel = (index: number): boolean => /(?<![\p{L}])(?:tel|fax|phone|h\/?p|mobile|hp)\b[^\p{L}]*$/iu.test(text.slice(Math.max(0, index - 12), index));
  // Where a till prints its date: after a date label or before the time of the sale, and not after a phone label.
  const inDateContext = (m: RegExpExecArray): boolean =>
    !afterPhoneLabel(m.index) && (labelBefore(text, m.index) !== null || timeAfter.test(text.slice(m.index + m[0].length)));
  // Matches may overlap (a refused one must not hide the next), so every start is tried.
  const each = (pattern: RegExp, read: (m: RegExpExecArray) => void): void => {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      read(m);
      pattern.lastIndex = m.index + 1;
    }
  };

  each(dayMonthYear, (m) => {
    const [, first, sep1, second, sep2, year] = m as unknown as string[];
    const slips: string[] = [];
    const real = (s: string): boolean => s === '/' || s === '-';
    const twoDigitYear = year!.length === 2;
    // A two-digit year keeps its printed separators (both alike): "12:41:00" and "12.41 00" are times or numbers.
    if (twoDigitYear ? !(real(sep1!) || sep1 === '.') || sep1 !== sep2 : !(real(sep1!) || real(sep2!) || (sep1 === '.' && sep2 === '.'))) return;
    for (const sep of [sep1!, sep2!]) if (!real(sep) && sep !== '.') slips.push(`${/\s/.test(sep) ? 'space' : sep}→/`);
    const a = groupDigits(first!, 1, slips);
    const b = groupDigits(second!, 1, slips);
    const y = groupDigits(year!, twoDigitYear ? 1 : 3, slips);
    if (a === null || b === null || y === null || slips.filter((s) => !s.endsWith('→/')).length > MAX_LETTER_SLIPS) return;
    const reading = uniqueDate({ first: a, second: b, year: y }, pageOrder(monthFirst, sep1 === '.' && sep2 === '.'), latestYear, !twoDigitYear);
    if (reading) accept(m.index, m[0], reading.iso, reading.slip ? [...slips, reading.slip] : slips);
  });
  each(yearMonthDay, (m) => {
    const [, year, , month, , day] = m as unknown as string[];
    const slips: string[] = [];
    const y = groupDigits(year!, 3, slips);
    const mo = groupDigits(month!, 1, slips);
    const d = groupDigits(day!, 1, slips);
    if (y === null || mo === null || d === null || slips.length > MAX_LETTER_SLIPS) return;
    const reading = uniqueDate({ first: d, second: mo, year: y }, (a, b) => [a, b], latestYear, true);
    if (reading) accept(m.index, m[0], reading.iso, reading.slip ? [...slips, reading.slip] : slips);
  });
  each(gluedYear, (m) => {
    const [, first, , second, year, glued] = m as unknown as string[];
    // Only as printed: a date read through a second slip on top of a lost space is too weak to read.
    if (afterPhoneLabel(m.index)) return;
    const reading = uniqueDate({ first: first!, second: second!, year: year! }, pageOrder(monthFirst, false), latestYear, false);
    if (reading) accept(m.index, m[0].slice(0, -glued!.length), reading.iso, [`space lost before ${glued!}`]);
  });
  each(slippedSeparator, (m) => {
    const [, first, separator, second, year] = m as unknown as string[];
    if (afterPhoneLabel(m.index) || (m[0].charAt(5) === '7' && !inDateContext(m))) return;
    const reading = uniqueDate({ first: first!, second: second!, year: year! }, pageOrder(monthFirst, false), latestYear, false);
    const slip = m[0].charAt(5) === separator ? 'space after the separator' : `${m[0].charAt(5)}→${separator!}`;
    if (reading) accept(m.index, m[0], reading.iso, [slip]);
  });
  each(spacedYearDigit, (m) => {
    const [, first, , second, year, last] = m as unknown as string[];
    if (!inDateContext(m)) return;
    const reading = uniqueDate({ first: first!, second: second!, year: `${year!}${last!}` }, pageOrder(monthFirst, false), latestYear, false);
    if (reading) accept(m.index, m[0], reading.iso, [`space inside the year ${year!} ${last!}`]);
  });
  each(spacedMonth, (m) => {
    const [, first, , high, low, year] = m as unknown as string[];
    if (!inDateContext(m)) return;
    const reading = uniqueDate({ first: first!, second: `${high!}${low!}`, year: year! }, pageOrder(monthFirst, false), latestYear, false);
    if (reading) accept(m.index, m[0], reading.iso, [`space inside ${high!} ${low!}`]);
  });
  each(spacedSeparator, (m) => {
    const [, first, spacedSecond, , , printedSecond, year] = m as unknown as string[];
    const second = spacedSecond ?? printedSecond!;
    if ((first!.length === 2 && second.length === 2) || !inDateContext(m)) return;
    const reading = uniqueDate({ first: first!, second, year: year! }, pageOrder(monthFirst, false), latestYear, false);
    if (reading) accept(m.index, m[0], reading.iso, ['space→/']);
  });
  each(lostSeparator, (m) => {
    const [, first, separator, second, year] = m as unknown as string[];
    if (!inDateContext(m)) return;
    // Four digits after the separator that are a year ("9/2016", "12/2018") print a month and its year — an expiry,
    // a period — or a date's tail whose day OCR split off ("06/1 2/2016"): no day, month and year run together.
    const run = Number(`${second!}${year!}`);
    if (year!.length === 2 && run >= EARLIEST_YEAR && run <= latestYear) return;
    const reading = uniqueDate({ first: first!, second: second!, year: year! }, pageOrder(monthFirst, false), latestYear, false);
    if (reading) accept(m.index, m[0], reading.iso, [`${separator} lost before ${year}`]);
  });
  const named = (index: number, matched: string, dayGroup: string, word: string, yearGroup: string, lost: string[] = []): void => {
    const month = monthOf(word);
    if (!month) return;
    const slips: string[] = [...lost];
    const day = groupDigits(dayGroup, 1, slips);
    const year = groupDigits(yearGroup, 3, slips);
    if (day === null || year === null || slips.length > MAX_LETTER_SLIPS) return;
    if (month.slip) {
      // A word one edit from a month ("set", "sun") is a month only in a date's own context, with no other slip.
      const end = index + matched.length;
      if (slips.length > 0 || (!labelBefore(text, index) && !timeAfter.test(text.slice(end)))) return;
      slips.push(month.slip);
    }
    // A space lost already (`lost`): the date only as printed, no look-alike digit read back on top of it.
    const reading = uniqueDate({ first: day, second: String(month.month), year }, (a, b) => [a, b], latestYear, !month.slip && lost.length === 0);
    if (reading) accept(index, matched, reading.iso, reading.slip ? [...slips, reading.slip] : slips);
  };
  each(dayNameYear, (m) => named(m.index, m[0], m[1]!, m[2]!, m[3]!));
  each(nameDayYear, (m) => named(m.index, m[0], m[2]!, m[1]!, m[3]!));
  // Only as printed, as gluedYear: the month's name exact, its day and year digits.
  each(gluedNameYear, (m) => {
    const [, day, , word, year, glued] = m as unknown as string[];
    if (afterPhoneLabel(m.index) || monthOf(word!)?.slip) return;
    named(m.index, m[0].slice(0, -glued!.length), day!, word!, year!, [`space lost before ${glued!}`]);
  });
  return found.sort((a, b) => a.index - b.index);
}

/**
 * The issue date where OCR's slips hide it: a repaired date beside a date label where the date read (`exact`) has no
 * label, or the first repaired date (a timed one first) where no exact date was read. Otherwise `exact` stands. The
 * label says the value was read through slips, so its confidence stays low and the review queue shows it.
 */
export function slipRepairedDate(lines: readonly TextLine[], exact: FieldValue<string> | null, options: RepairOptions = {}): FieldValue<string> | null {
  if (exact?.label) return exact;
  const repaired = lines.flatMap((line) => findRepairedDates(line.text, options).map((date) => ({ date, line })));
  const labelled = repaired.find((r) => r.date.label);
  const chosen = labelled ?? (exact ? undefined : (repaired.find((r) => r.date.timed) ?? repaired[0]));
  if (!chosen) return exact;
  const { date, line } = chosen;
  const tokens = date.text.split(/\s+/);
  const words = line.words.filter((w) => tokens.includes(w.text) || (w.text.length >= 3 && date.text.includes(w.text)) || w.text.includes(date.text));
  const label = `${date.label ? `${date.label} ` : ''}(${READ_THROUGH_SLIPS}: ${date.slips.join(', ')})`;
  return { value: date.iso, text: date.text, words: words.length > 0 ? words : line.words, label };
}
