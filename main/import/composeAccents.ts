/**
 * Accented letters that a PDF draws as two glyphs: a spacing accent (´ ˇ ˆ ¨ …) placed over a plain letter. TeX does
 * this for every accent of its 7-bit fonts (`J\'an Min\'a\v{c}`): the accent comes first in the stream, then a
 * negative kern, then the letter, so pdf.js returns "J´" and "an" as separate runs and the text reads "J´ an".
 *
 * Each accent is composed with the letter it sits over — the last letter before it or the first after it, with no
 * space between, whichever its centre lies over — as the letter plus the combining mark, NFC-normalised ("á"),
 * and the pieces it separated are joined back into one word. An accent over no letter (a lone "´" used as a quote
 * mark, an accent after a space) stays as it is. Runs of one font that touch on one baseline with no space between
 * are one word too: PDFs set small capitals as a separate, smaller run ("GPT-4" + "O", "A" + "CKNOWLEDGEMENTS").
 * Pure: works on words with their positions along the text line.
 */

/** Spacing accents and the combining marks they stand for. */
export const SPACING_ACCENTS: Readonly<Record<string, string>> = {
  '\u00b4': '\u0301', // ´ acute
  '\u02ca': '\u0301',
  '\u0060': '\u0300', // ` grave
  '\u02cb': '\u0300',
  '\u02c6': '\u0302', // ˆ circumflex
  '\u02dc': '\u0303', // ˜ tilde
  '\u00af': '\u0304', // ¯ macron
  '\u02c9': '\u0304',
  '\u02d8': '\u0306', // ˘ breve
  '\u02d9': '\u0307', // ˙ dot above
  '\u00a8': '\u0308', // ¨ diaeresis
  '\u02da': '\u030a', // ˚ ring above
  '\u02dd': '\u030b', // ˝ double acute
  '\u02c7': '\u030c', // ˇ caron
  '\u00b8': '\u0327', // ¸ cedilla
  '\u02db': '\u0328', // ˛ ogonek
};

const COMBINING = /^[\u0300-\u036f]+$/u;

/**
 * The combining mark(s) a text stands for when it is an accent on its own (a spacing accent, or combining marks with
 * no letter before them in the run), else undefined.
 */
export function accentMark(text: string): string | undefined {
  if (COMBINING.test(text)) return text;
  return SPACING_ACCENTS[text];
}

/** A word with where it lies along its line (any unit, increasing in reading direction). */
export interface PlacedWord {
  text: string;
  /** [start, end] along the line. */
  along: [number, number];
  /** Position across the line (its baseline); words of one line share it. */
  across: number;
  fontSize: number;
  /** The font's name as pdf.js keys it (one per embedded font). */
  font: string;
  /** Whitespace (or a line end) comes between this word and the one before it in the stream. */
  spaceBefore: boolean;
  /** [start, end] along the line of the character at code-unit index `index` of `text`. */
  charSpan(index: number): [number, number];
}

export interface AccentComposition {
  /** Index of the accent word (to drop). */
  accent: number;
  /** Index of the word whose letter took the accent, and that letter's code-unit index. */
  target: number;
  letterIndex: number;
  mark: string;
}

export interface AccentPlan {
  compositions: AccentComposition[];
  /** Indices of words to join with the next word kept: the composed accents between them were all that split them. */
  joinsNext: Set<number>;
}

/** Dotless i / j take an accent as i / j do: TeX writes `\'{\i}` as "ı" + "´". */
const DOTLESS: Record<string, string> = { ı: 'i', ȷ: 'j' };

/**
 * Decides, for each accent word, the letter it goes over. Words are in stream order; only the neighbours not
 * separated from the accent by whitespace are considered, and only when they are on the same line.
 */
export function planAccents(words: readonly PlacedWord[]): AccentPlan {
  const found: AccentComposition[] = [];
  words.forEach((word, index) => {
    const mark = accentMark(word.text);
    if (!mark) return;
    const centre = (word.along[0] + word.along[1]) / 2;
    const sameLine = (other: PlacedWord | undefined): other is PlacedWord =>
      other !== undefined && Math.abs(other.across - word.across) <= 0.3 * word.fontSize && !accentMark(other.text);
    const previous = words[index - 1];
    const next = words[index + 1];
    const candidates: { target: number; letterIndex: number }[] = [];
    if (sameLine(previous) && !word.spaceBefore) candidates.push({ target: index - 1, letterIndex: lastLetterIndex(previous.text) });
    if (sameLine(next) && !next.spaceBefore) candidates.push({ target: index + 1, letterIndex: 0 });
    let best: { target: number; letterIndex: number; distance: number } | undefined;
    for (const candidate of candidates) {
      const text = words[candidate.target].text;
      if (candidate.letterIndex < 0 || !/\p{L}/u.test(text[candidate.letterIndex] ?? '')) continue;
      const [start, end] = words[candidate.target].charSpan(candidate.letterIndex);
      const slack = 0.1 * word.fontSize;
      if (centre < start - slack || centre > end + slack) continue;
      const distance = Math.abs(centre - (start + end) / 2);
      if (!best || distance < best.distance) best = { ...candidate, distance };
    }
    if (!best) return;
    found.push({ accent: index, target: best.target, letterIndex: best.letterIndex, mark });
  });
  return { compositions: found, joinsNext: joinsOfFragments(words, new Set(found.map((c) => c.accent))) };
}

/**
 * Words to join with the next word kept: consecutive words with no whitespace between them (nor before any accent
 * composed between them), on one line, touching, and either
 * - separated by composed accents, of one size ("J" ´ "an" → "Ján"), or
 * - pieces of one font on one baseline that the PDF drew as separate runs, as it does for small capitals set in a
 *   smaller size ("GPT-4" + "O" → "GPT-4O", "A" + "CKNOWLEDGEMENTS").
 */
function joinsOfFragments(words: readonly PlacedWord[], dropped: ReadonlySet<number>): Set<number> {
  const joins = new Set<number>();
  let previous = -1;
  let unbroken = true;
  words.forEach((word, index) => {
    if (dropped.has(index)) {
      unbroken &&= !word.spaceBefore;
      return;
    }
    if (previous >= 0 && unbroken && !word.spaceBefore) {
      const before = words[previous];
      const size = Math.max(before.fontSize, word.fontSize);
      const gap = word.along[0] - before.along[1];
      if (index > previous + 1) {
        const sameLine = Math.abs(before.across - word.across) <= 0.3 * word.fontSize;
        const similarSize = Math.abs(before.fontSize - word.fontSize) <= 0.05 * size;
        if (sameLine && similarSize && gap <= 0.3 * word.fontSize) joins.add(previous);
      } else {
        const sameBaseline = Math.abs(before.across - word.across) <= 0.05 * size;
        const smallCapitals = Math.min(before.fontSize, word.fontSize) >= 0.6 * size;
        if (before.font === word.font && sameBaseline && smallCapitals && gap >= -0.3 * size && gap <= 0.12 * size) joins.add(previous);
      }
    }
    previous = index;
    unbroken = true;
  });
  return joins;
}

/** Index of the last letter of `text` when text ends with a letter (else -1). */
function lastLetterIndex(text: string): number {
  const index = text.length - 1;
  return index >= 0 && /\p{L}/u.test(text[index]) ? index : -1;
}

/** `text` with the mark put on the letter at `letterIndex`, NFC-normalised. */
export function addMark(text: string, letterIndex: number, mark: string): string {
  const letter = text[letterIndex];
  const base = DOTLESS[letter] ?? letter;
  return (text.slice(0, letterIndex) + base + mark + text.slice(letterIndex + 1)).normalize('NFC');
}
