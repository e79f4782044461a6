/**
 * Hyphenated line ends joined inside a paragraph: "com-" at the end of a line and "pile" at the start of the next are
 * written "compile"; a hyphen that belongs to the word ("trace-" + "compilation", "mixed-" + "mode") stays.
 * The page's own vocabulary decides first, then the page language's lexicon (when the engine has one for it), then
 * the shape of the parts — the table in docs/reading.md:
 *  0. a soft hyphen (U+00AD, the typesetter's own mark of a break) → joined;
 *  1. the part after the hyphen starts with a digit ("IEEE-" + "754") → kept; it is a conjunction (a suspended
 *     compound: "Kunden-" + "und Rechnungsnummer", "pre-" + "and post-processing") → left as printed, two words;
 *  2. the joined word occurs elsewhere on the page → joined ("Trace-" + "Monkey" → "TraceMonkey");
 *  3. the hyphenated compound occurs elsewhere on the page → kept;
 *  4. either part holds a hyphen of its own (a compound going on: "interpreter-" + "to-trace"), or the part after
 *     starts with a capital ("Franco-" + "German", German "Umsatzsteuer-" + "Identifikationsnummer") → kept;
 *  5. the joined word is a word of the lexicon ("responsi-" + "bility") → joined;
 *  6. the hyphenated compound is a word of the lexicon (French "peut-" + "être") → kept;
 *  7. the language writes compounds closed (German: "Haus-" + "tür" is "Haustür") → joined;
 *  8. both parts are words (of the page or the lexicon) of at least WHOLE_WORD_MIN_LETTERS letters and the joined
 *     form is not ("mixed" + "mode", "age" + "eligible") → kept;
 *  9. else joined: in justified prose a hyphen at the line end is far more often a break than a compound.
 * Without a lexicon (language unknown) rules 5–7 are skipped and rule 8 asks the page alone.
 * Pure; the words keep their boxes (the joined word keeps the first part's box), words of the extraction are untouched.
 */
import type { LayoutBlock, LayoutWord, Row } from './layoutTypes.js';

/** Both parts must have at least this many letters to be taken as two whole words (rule 8): "be-cause" is a break. */
const WHOLE_WORD_MIN_LETTERS = 3;
/**
 * Conjunctions after a hyphen mark a suspended compound ("Kunden- und Rechnungsnummer", "pre- and post-processing",
 * "pré- et post-traitement"): the two words stay as printed, whatever the lexicon says of the joined letters.
 */
const SUSPENDED_COMPOUND_CONJUNCTIONS: ReadonlySet<string> = new Set(['and', 'or', 'nor', 'und', 'oder', 'bzw', 'sowie', 'et', 'ou']);

const LINE_END_HYPHEN = /^(.*[\p{L}\p{M}])[-\u00ad\u2010]$/u;
const LEADING_LETTERS = /^[\p{L}\p{M}]+/u;
const TRAILING_LETTERS = /[\p{L}\p{M}]+$/u;
/** Punctuation around a word, left out of the vocabulary's entries. */
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

const JOINABLE_KINDS: ReadonlySet<LayoutBlock['kind']> = new Set(['text', 'list', 'title', 'heading', 'caption', 'footnote']);

/** Could any of these words end a line with a hyphen? (The engine loads a lexicon only for pages where one may.) */
export const mayHaveLineEndHyphens = (texts: Iterable<string>): boolean => {
  for (const text of texts) if (LINE_END_HYPHEN.test(text)) return true;
  return false;
};

const firstWord = (row: Row): LayoutWord | undefined => row.segments.find((segment) => segment.words.length > 0)?.words[0];
const lastWord = (row: Row): LayoutWord | undefined => row.segments.findLast((segment) => segment.words.length > 0)?.words.at(-1);

/** What the engine knows of the page's language for hyphenation (native-models/bundled/lexicons.ts loads it). */
export interface HyphenationLanguage {
  /** Tesseract's code (ISO 639-3): eng, deu, fra. */
  code: string;
  /** Is this a word of the language, as printed (any case; letters and inner hyphens only)? Absent: no lexicon. */
  isWord?: (word: string) => boolean;
  /** Compounds are written closed (German): a break before a lower-case part is joined whatever the parts are. */
  closedCompounds?: boolean;
}

export interface PageVocabulary {
  words: ReadonlySet<string>;
  compounds: ReadonlySet<string>;
}

/** Lower-cased words of the page (edge punctuation stripped), line-end fragments left out, and its hyphenated compounds. */
export function pageVocabulary(blocks: readonly LayoutBlock[]): PageVocabulary {
  const words = new Set<string>();
  const compounds = new Set<string>();
  for (const block of blocks) {
    block.rows.forEach((row, index) => {
      // The word after a line-end hyphen is half a word until decided: it is no evidence for itself.
      const previous = index > 0 ? lastWord(block.rows[index - 1]) : undefined;
      const tail = previous && LINE_END_HYPHEN.test(previous.text) ? firstWord(row) : undefined;
      for (const segment of row.segments) {
        for (const word of segment.words) {
          if (word === tail || LINE_END_HYPHEN.test(word.text)) continue;
          const bare = word.text.replace(EDGE_PUNCTUATION, '').toLowerCase();
          if (!bare) continue;
          if (/[\p{L}]-[\p{L}]/u.test(bare)) {
            compounds.add(bare);
            for (const part of bare.split('-')) if (part) words.add(part);
          } else words.add(bare);
        }
      }
    });
  }
  return { words, compounds };
}

/** How a line-end hyphen between `head` ("com-") and `tail` ("pile.") is written, or null when it is no line-end hyphen. */
export function joinAcrossLine(head: string, tail: string, vocabulary: PageVocabulary, language?: HyphenationLanguage): string | null {
  const hyphenated = LINE_END_HYPHEN.exec(head);
  if (!hyphenated || !/^[\p{L}\p{N}]/u.test(tail)) return null;
  const stem = hyphenated[1];
  const joined = `${stem}${tail}`;
  const kept = `${stem}-${tail}`;
  if (head.endsWith('\u00ad')) return joined;
  if (SUSPENDED_COMPOUND_CONJUNCTIONS.has(tail.replace(/[.,;:]$/u, '').toLowerCase())) return null;
  if (/^\p{N}/u.test(tail)) return kept;
  const tailLetters = LEADING_LETTERS.exec(tail)?.[0] ?? '';
  const headLetters = TRAILING_LETTERS.exec(stem)?.[0] ?? '';
  const [a, b] = [headLetters.toLowerCase(), tailLetters.toLowerCase()];
  if (vocabulary.words.has(a + b)) return joined;
  if (vocabulary.compounds.has(`${a}-${b}`)) return kept;
  if (/[-\u2010]/u.test(stem) || /^[\p{L}\p{M}]+[-\u2010]\p{L}/u.test(tail) || /^\p{Lu}/u.test(tailLetters)) return kept;
  const isWord = language?.isWord;
  if (isWord?.(headLetters + tailLetters)) return joined;
  if (isWord?.(`${headLetters}-${tailLetters}`)) return kept;
  if (language?.closedCompounds) return joined;
  const whole = (part: string, printed: string): boolean => part.length >= WHOLE_WORD_MIN_LETTERS && (vocabulary.words.has(part) || isWord?.(printed) === true);
  if (whole(a, headLetters) && whole(b, tailLetters)) return kept;
  return joined;
}

/** Every block's line-end hyphens joined or kept by `joinAcrossLine`; tables and furniture are left alone. */
export function joinHyphenatedLines(blocks: readonly LayoutBlock[], language?: HyphenationLanguage): LayoutBlock[] {
  const vocabulary = pageVocabulary(blocks);
  return blocks.map((block) => {
    if (block.table || !JOINABLE_KINDS.has(block.kind) || block.rows.length < 2) return block;
    const rows = block.rows.map((row) => ({ ...row, segments: row.segments.map((segment) => ({ ...segment, words: [...segment.words] })) }));
    let changed = false;
    for (let i = 0; i + 1 < rows.length; i++) {
      const head = lastWord(rows[i]);
      const tail = firstWord(rows[i + 1]);
      if (!head || !tail || head.formula || tail.formula) continue;
      const text = joinAcrossLine(head.text, tail.text, vocabulary, language);
      if (text === null) continue;
      const headSegment = rows[i].segments.findLast((segment) => segment.words.length > 0)!;
      headSegment.words[headSegment.words.length - 1] = { ...head, text };
      const tailSegment = rows[i + 1].segments.find((segment) => segment.words.length > 0)!;
      tailSegment.words.shift();
      changed = true;
    }
    if (!changed) return block;
    return { ...block, rows: rows.filter((row) => row.segments.some((segment) => segment.words.length > 0)) };
  });
}
