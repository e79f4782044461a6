/**
 * Keeps element spans (character ranges into the engine's Markdown) pointing at the same text while the analyst
 * edits. Two sources of change:
 *  - on load, the text may already differ from `extraction.markdown` (a saved revision): a character diff maps the
 *    original offsets onto the revision;
 *  - while typing, each editor change (offset, removed length, inserted text) shifts the spans exactly.
 * A span whose text was deleted collapses to an empty range and is simply not highlighted.
 */
import { diffChars } from 'diff';
import type { Span } from '../../../app/model/extraction.js';

/** One editor change in the coordinates of the text before it (Monaco's `rangeOffset`/`rangeLength`/`text`). */
export interface TextChange {
  offset: number;
  removedLength: number;
  insertedLength: number;
}

/** Where a span boundary goes when [offset, offset+removed) is replaced by `inserted` characters. */
function shiftBoundary(position: number, change: TextChange, isEnd: boolean): number {
  const { offset, removedLength, insertedLength } = change;
  const removedEnd = offset + removedLength;
  if (isEnd) {
    if (position < offset) return position;
    // Typing right after an element's last character grows the element (p === offset with nothing removed).
    if (position >= removedEnd) return position + insertedLength - removedLength;
    return offset + insertedLength;
  }
  // Typing right before an element's first character grows the element too.
  if (position <= offset) return position;
  if (position >= removedEnd) return position + insertedLength - removedLength;
  return offset;
}

export function applyChangeToSpan(span: Span, change: TextChange): Span {
  const start = shiftBoundary(span[0], change, false);
  const end = Math.max(start, shiftBoundary(span[1], change, true));
  return [start, end];
}

/**
 * Applies the changes of one editor event. Monaco reports them all against the text before the event, so they are
 * applied from the last offset to the first: a later change never moves an earlier one's offset.
 */
export function applyChangesToSpans(spans: readonly Span[], changes: readonly TextChange[]): Span[] {
  const ordered = [...changes].sort((a, b) => b.offset - a.offset);
  return spans.map((span) => ordered.reduce<Span>((s, change) => applyChangeToSpan(s, change), span));
}

/** Above this many edited characters the diff is skipped and only a common prefix/suffix is trusted. */
const maxDiffEditLength = 20_000;

/**
 * Maps spans into `edited`, given they index into `original`. Each stretch of text both share keeps its spans;
 * text that was replaced collapses onto the replacement.
 */
export function mapSpansThroughEdit(original: string, edited: string, spans: readonly Span[]): Span[] {
  if (original === edited) return spans.map((s) => [s[0], s[1]]);
  const changes = diffToChanges(original, edited);
  return applyChangesToSpans(spans, changes);
}

/** Turns a character diff into changes in `original`'s coordinates. */
export function diffToChanges(original: string, edited: string): TextChange[] {
  const parts = diffChars(original, edited, { maxEditLength: maxDiffEditLength });
  if (!parts) return [prefixSuffixChange(original, edited)];
  const changes: TextChange[] = [];
  let originalPos = 0;
  let pending: TextChange | null = null;
  for (const part of parts) {
    const length = part.value.length;
    if (!part.added && !part.removed) {
      if (pending) changes.push(pending);
      pending = null;
      originalPos += length;
      continue;
    }
    pending ??= { offset: originalPos, removedLength: 0, insertedLength: 0 };
    if (part.removed) {
      pending.removedLength += length;
      originalPos += length;
    } else {
      pending.insertedLength += length;
    }
  }
  if (pending) changes.push(pending);
  return changes;
}

/** The whole difference as one replaced middle stretch: exact outside it, collapsed inside. */
function prefixSuffixChange(original: string, edited: string): TextChange {
  let prefix = 0;
  const shorter = Math.min(original.length, edited.length);
  while (prefix < shorter && original[prefix] === edited[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    original[original.length - 1 - suffix] === edited[edited.length - 1 - suffix]
  ) {
    suffix++;
  }
  return {
    offset: prefix,
    removedLength: original.length - prefix - suffix,
    insertedLength: edited.length - prefix - suffix,
  };
}

/**
 * The element whose span holds the cursor: the narrowest one, so a table cell's formula wins over the table.
 * A cursor right after the last character still counts (that is where it sits after clicking at a line end).
 */
export function elementAtOffset<T extends { span: Span }>(items: readonly T[], offset: number): T | null {
  let best: T | null = null;
  for (const item of items) {
    const [start, end] = item.span;
    if (end <= start) continue;
    if (offset < start || offset > end) continue;
    if (!best || end - start < best.span[1] - best.span[0]) best = item;
  }
  return best;
}
