/**
 * Which kinds of element an analyst corrected: the engine's Markdown is diffed against the corrected Markdown
 * character by character, and every removed character (and every inserted run) is charged to the element whose span
 * in the engine's Markdown covers it. Characters outside every element are charged to "other" (and counted in its
 * chars, so no kind ever has more characters removed than it had).
 */
import { diffChars, diffLines, type ChangeObject } from 'diff';
import type { Element, ElementKind } from '../model/extraction.js';

export interface KindChange {
  kind: ElementKind;
  /** Elements of this kind in the extraction. */
  elements: number;
  /** Characters of the engine's Markdown inside elements of this kind ("other": also those outside every element). */
  chars: number;
  /** Characters removed from or inserted into elements of this kind by the correction. */
  changedChars: number;
  /** The inserted part of changedChars (text the engine missed or the analyst added). */
  insertedChars: number;
}

export interface ChangeAttribution {
  /** One entry per kind present in the extraction or touched by the correction, sorted by kind. */
  kinds: KindChange[];
  /** Removed plus inserted characters over the whole page. */
  changedChars: number;
}

/** Character diffs are O(N·D); past this many edits the line diff is used (a rewrite is a rewrite either way). */
const maxCharEdits = 1500;

/** The diff of the two texts; the common head and tail are cut off first (a correction is usually local). */
function diffOf(engine: string, corrected: string): ChangeObject<string>[] {
  const limit = Math.min(engine.length, corrected.length);
  let head = 0;
  while (head < limit && engine.charCodeAt(head) === corrected.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < limit - head && engine.charCodeAt(engine.length - 1 - tail) === corrected.charCodeAt(corrected.length - 1 - tail)) tail++;
  const a = engine.slice(head, engine.length - tail);
  const b = corrected.slice(head, corrected.length - tail);
  const middle = diffChars(a, b, { maxEditLength: maxCharEdits }) ?? diffLines(a, b);
  const same = (value: string): ChangeObject<string> => ({ value, count: value.length, added: false, removed: false });
  return [same(engine.slice(0, head)), ...middle, same(engine.slice(engine.length - tail))];
}

export function attributeChanges(engineMarkdown: string, correctedMarkdown: string, elements: readonly Element[]): ChangeAttribution {
  const byKind = new Map<ElementKind, KindChange>();
  const entry = (kind: ElementKind): KindChange => {
    let found = byKind.get(kind);
    if (!found) byKind.set(kind, (found = { kind, elements: 0, chars: 0, changedChars: 0, insertedChars: 0 }));
    return found;
  };
  // Spans sorted by start; spans of one extraction rarely overlap, and where they do each kind is charged.
  const spans = elements
    .map((e) => ({ kind: e.kind, start: Math.min(e.span[0], engineMarkdown.length), end: Math.min(e.span[1], engineMarkdown.length) }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  for (const element of elements) entry(element.kind).elements += 1;
  for (const span of spans) entry(span.kind).chars += Math.max(0, span.end - span.start);
  // Text outside every element is "other" text: counted, so that what is removed from it never exceeds it (a
  // kind's change rate stays in [0, 1]). Listed only when it holds more than the blank lines between elements,
  // or when a correction touches it (below).
  let uncovered = 0;
  let uncoveredText = false;
  let covered = 0;
  const gap = (from: number, to: number) => {
    if (to <= from) return;
    uncovered += to - from;
    if (!uncoveredText && /\S/.test(engineMarkdown.slice(from, to))) uncoveredText = true;
  };
  for (const span of spans) {
    gap(covered, span.start);
    covered = Math.max(covered, span.end);
  }
  gap(covered, engineMarkdown.length);
  if (uncoveredText) entry('other');

  /** Charges `count` characters at [from, to) of the engine text (to = from for an insertion at `from`). */
  const charge = (from: number, to: number, inserted: number): void => {
    if (inserted > 0) {
      // An insertion belongs to the element it lands in, else the one it touches on the left, else "other".
      const inside = spans.find((s) => s.start <= from && from < s.end) ?? spans.find((s) => s.end === from && s.end > s.start);
      const charged = entry(inside?.kind ?? 'other');
      charged.changedChars += inserted;
      charged.insertedChars += inserted;
      return;
    }
    let covered = 0;
    for (const s of spans) {
      if (s.start >= to) break;
      const overlap = Math.min(to, s.end) - Math.max(from, s.start);
      if (overlap > 0) {
        entry(s.kind).changedChars += overlap;
        covered += overlap;
      }
    }
    if (to - from - covered > 0) entry('other').changedChars += to - from - covered;
  };

  let position = 0;
  let changedChars = 0;
  for (const part of diffOf(engineMarkdown, correctedMarkdown)) {
    const length = part.value.length;
    if (part.removed) {
      charge(position, position + length, 0);
      position += length;
      changedChars += length;
    } else if (part.added) {
      charge(position, position, length);
      changedChars += length;
    } else {
      position += length;
    }
  }
  const other = byKind.get('other');
  if (other) other.chars += uncovered;
  return { kinds: [...byKind.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0)), changedChars };
}
