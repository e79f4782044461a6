/**
 * Hyphenated line ends joined inside a paragraph: "com-" at the end of a line and "pile" at the start of the next are
 * written "compile"; a hyphen that belongs to the word ("trace-" + "compilation", "non-English-" + "language") stays.
 * There is no dictionary on the machine, so the page's own vocabulary decides, then the shape of the parts:
 *  1. the joined word occurs elsewhere on the page → joined ("Trace-" + "Monkey" → "TraceMonkey");
 *  2. the hyphenated compound occurs elsewhere on the page → hyphen kept;
 *  3. either part holds a hyphen of its own (a compound going on: "interpreter-" + "to-trace"), the part after starts with a capital
 *     ("Franco-" + "German") or a digit → hyphen kept;
 *  4. both parts are words of the page of at least WHOLE_WORD_MIN_LETTERS letters ("trace", "compilation") → kept;
 *  5. else joined: in justified prose a hyphen at the line end is far more often a break than a compound.
 * Pure; the words keep their boxes (the joined word keeps the first part's box), words of the extraction are untouched.
 */
import type { LayoutBlock, LayoutWord, Row } from './layoutTypes.js';

/** Both parts must have at least this many letters to be taken as two whole words (rule 4): "be-cause" is a break. */
const WHOLE_WORD_MIN_LETTERS = 3;

const LINE_END_HYPHEN = /^(.*[\p{L}\p{M}])[-\u00ad\u2010]$/u;
const LEADING_LETTERS = /^[\p{L}\p{M}]+/u;
const TRAILING_LETTERS = /[\p{L}\p{M}]+$/u;
/** Punctuation around a word, left out of the vocabulary's entries. */
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

const JOINABLE_KINDS: ReadonlySet<LayoutBlock['kind']> = new Set(['text', 'list', 'title', 'heading', 'caption', 'footnote']);

const firstWord = (row: Row): LayoutWord | undefined => row.segments.find((segment) => segment.words.length > 0)?.words[0];
const lastWord = (row: Row): LayoutWord | undefined => row.segments.findLast((segment) => segment.words.length > 0)?.words.at(-1);

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
export function joinAcrossLine(head: string, tail: string, vocabulary: PageVocabulary): string | null {
  const hyphenated = LINE_END_HYPHEN.exec(head);
  if (!hyphenated || !/^[\p{L}\p{N}]/u.test(tail)) return null;
  const stem = hyphenated[1];
  // A number after the hyphen ("IEEE-" + "754", "COVID-" + "19") is part of the name: the hyphen stays.
  if (/^\p{N}/u.test(tail)) return `${stem}-${tail}`;
  const tailLetters = LEADING_LETTERS.exec(tail)?.[0] ?? '';
  const headLetters = TRAILING_LETTERS.exec(stem)?.[0] ?? '';
  const joined = `${stem}${tail}`;
  const kept = `${stem}-${tail}`;
  const [a, b] = [headLetters.toLowerCase(), tailLetters.toLowerCase()];
  if (vocabulary.words.has(a + b)) return joined;
  if (vocabulary.compounds.has(`${a}-${b}`)) return kept;
  if (/[-\u2010]/u.test(stem) || /^[\p{L}\p{M}]+[-\u2010]\p{L}/u.test(tail) || /^\p{Lu}/u.test(tailLetters)) return kept;
  const whole = (part: string): boolean => part.length >= WHOLE_WORD_MIN_LETTERS && vocabulary.words.has(part);
  if (whole(a) && whole(b)) return kept;
  return joined;
}


/** Every block's line-end hyphens joined or kept by `joinAcrossLine`; tables and furniture are left alone. */
export function joinHyphenatedLines(blocks: readonly LayoutBlock[]): LayoutBlock[] {
  const vocabulary = pageVocabulary(blocks);
  return blocks.map((block) => {
    if (block.table || !JOINABLE_KINDS.has(block.kind) || block.rows.length < 2) return block;
    const rows = block.rows.map((row) => ({ ...row, segments: row.segments.map((segment) => ({ ...segment, words: [...segment.words] })) }));
    let changed = false;
    for (let i = 0; i + 1 < rows.length; i++) {
      const head = lastWord(rows[i]);
      const tail = firstWord(rows[i + 1]);
      if (!head || !tail || head.formula || tail.formula) continue;
      const text = joinAcrossLine(head.text, tail.text, vocabulary);
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
