/**
 * OCR reads the ruling lines a word touches as characters: a column rule as "|", "]" or "[" glued to the cell's
 * number ("102]"), or as a word of its own ("|"), a row rule as a run of dashes. Once the rules are known from the
 * image, those marks are taken off the words they sit on (and the word's box trimmed by their share of its width),
 * and words that are nothing but such marks on a rule are dropped. Text clear of every rule is left alone.
 */
import type { Box } from '../../app/model/extraction.js';

/** What a column rule reads as. */
const COLUMN_MARKS = /^[|[\]{}!]+$/u;
const LEADING_COLUMN_MARKS = /^[|[\]{}!]+/u;
const TRAILING_COLUMN_MARKS = /[|[\]{}!]+$/u;
/** What a single glyph standing on a column rule reads as besides those. */
const LONE_STEM = /^[Il1]$/u;
/** What a row rule reads as. */
const ROW_MARKS = /^[-—–_=~.]+$/u;
/** A word's edge this close (pixels, beyond the rule's half thickness) to a rule's centre touches it. */
const TOUCH = 2;

interface BoxedWord {
  text: string;
  box: Box;
}

export function withoutRuleMarks<W extends BoxedWord>(words: readonly W[], rulings: readonly Box[]): W[] {
  if (rulings.length === 0) return [...words];
  const columns = rulings.filter((b) => b[3] - b[1] > b[2] - b[0]);
  const rows = rulings.filter((b) => b[3] - b[1] <= b[2] - b[0]);
  const out: W[] = [];
  for (const word of words) {
    const [x1, y1, x2, y2] = word.box;
    const height = y2 - y1;
    const crossing = columns.filter((rule) => rule[1] <= y2 - 0.5 * height && rule[3] >= y1 + 0.5 * height);
    const touchesAt = (x: number): boolean => crossing.some((rule) => Math.abs(x - (rule[0] + rule[2]) / 2) <= (rule[2] - rule[0]) / 2 + TOUCH);
    const onColumn = (from: number, to: number): boolean => crossing.some((rule) => rule[2] + TOUCH >= from && rule[0] - TOUCH <= to);
    if (COLUMN_MARKS.test(word.text) && onColumn(x1, x2)) continue;
    if (LONE_STEM.test(word.text) && touchesAt((x1 + x2) / 2)) continue;
    if (ROW_MARKS.test(word.text) && rows.some((rule) => rule[0] - TOUCH <= x1 && rule[2] + TOUCH >= x2 && (rule[1] + rule[3]) / 2 >= y1 - TOUCH && (rule[1] + rule[3]) / 2 <= y2 + TOUCH)) continue;
    let { text } = word;
    let [left, right] = [x1, x2];
    const perChar = (x2 - x1) / Math.max(1, word.text.length);
    const trailing = TRAILING_COLUMN_MARKS.exec(text)?.[0] ?? '';
    // Tesseract's box often stops short of the rule it read as the last character: up to a character's width away.
    if (trailing && trailing.length < text.length && onColumn(right - trailing.length * perChar, right + perChar)) {
      text = text.slice(0, -trailing.length);
      right -= trailing.length * perChar;
    }
    const leading = LEADING_COLUMN_MARKS.exec(text)?.[0] ?? '';
    if (leading && leading.length < text.length && onColumn(left - perChar, left + leading.length * perChar)) {
      text = text.slice(leading.length);
      left += leading.length * perChar;
    }
    out.push(text === word.text ? word : { ...word, text, box: [left, y1, right, y2] });
  }
  return out;
}
