/**
 * Text distances: normalised edit distance (NED), character error rate (CER), and a reading-order-aware NED.
 *
 * - NED = Levenshtein(a, b) / max(|a|, |b|), in [0, 1]; 0 for two empty strings. Similarity = 1 − NED.
 * - CER = Levenshtein(hypothesis, reference) / |reference| (can exceed 1 for very long hypotheses); whitespace runs are
 *   collapsed first so layout spacing (pdftotext -layout columns) does not count as errors.
 * - Reading-order-aware NED (after OmniDocBench's block matching): both texts are split into blocks (paragraphs,
 *   i.e. blank-line separated; single lines when there are none); each reference block is matched to its most similar
 *   unused predicted block. `contentNed` is the NED after putting the predicted blocks in the reference order, so it
 *   measures what was read regardless of order; `orderNed` is the normalised edit distance between the sequence of
 *   matched predicted-block ranks and the identity order, so it measures only the order; `ned` is the plain NED of the
 *   texts as given (content and order errors together).
 */
import { distance } from 'fastest-levenshtein';

/**
 * Levenshtein distance, with the common head and tail cut off first: they never take part in an optimal alignment's
 * edits, and a corrected page differs from the engine's text in a few places — this makes comparing the two a matter
 * of the changed stretch rather than of the whole page.
 */
export function levenshtein(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let head = 0;
  while (head < limit && a.charCodeAt(head) === b.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < limit - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
  if (head === 0 && tail === 0) return distance(a, b);
  return distance(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
}

export function normalizedEditDistance(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : levenshtein(a, b) / longest;
}

export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function characterErrorRate(hypothesis: string, reference: string): number {
  const hyp = collapseSpaces(hypothesis);
  const ref = collapseSpaces(reference);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  return levenshtein(hyp, ref) / ref.length;
}

/** Levenshtein distance over arrays of tokens (numbers or strings). */
export function sequenceEditDistance<T>(a: readonly T[], b: readonly T[]): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j - 1]! + cost, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

export function splitBlocks(text: string): string[] {
  const paragraphs = text.split(/\n\s*\n/).map(collapseSpaces).filter(Boolean);
  if (paragraphs.length > 1) return paragraphs;
  return text.split(/\n/).map(collapseSpaces).filter(Boolean);
}

export interface ReadingOrderDistance {
  /** NED of the texts as given. */
  ned: number;
  /** NED with the predicted blocks put in the reference's order: content errors only. */
  contentNed: number;
  /** NED of the matched block order against the reference order: order errors only. */
  orderNed: number;
}

export function readingOrderDistance(predicted: string, reference: string): ReadingOrderDistance {
  const predictedBlocks = splitBlocks(predicted);
  const referenceBlocks = splitBlocks(reference);
  const used = new Set<number>();
  const matchedIndexes: number[] = [];
  const reordered: string[] = [];
  // Identical blocks first (the common case after a correction: most paragraphs untouched), in order; then greedy
  // matching of the rest, most similar pairs first.
  const matchOf = new Map<number, number>();
  const unusedByText = new Map<string, number[]>();
  predictedBlocks.forEach((pb, p) => unusedByText.set(pb, [...(unusedByText.get(pb) ?? []), p]));
  referenceBlocks.forEach((rb, r) => {
    const p = unusedByText.get(rb)?.shift();
    if (p !== undefined) {
      used.add(p);
      matchOf.set(r, p);
    }
  });
  const pairs: { p: number; r: number; d: number }[] = [];
  predictedBlocks.forEach((pb, p) => {
    if (used.has(p)) return;
    referenceBlocks.forEach((rb, r) => {
      if (!matchOf.has(r)) pairs.push({ p, r, d: normalizedEditDistance(pb, rb) });
    });
  });
  pairs.sort((x, y) => x.d - y.d || x.r - y.r || x.p - y.p);
  for (const { p, r, d } of pairs) {
    if (d >= 1 || used.has(p) || matchOf.has(r)) continue;
    used.add(p);
    matchOf.set(r, p);
  }
  referenceBlocks.forEach((_, r) => {
    const p = matchOf.get(r);
    if (p !== undefined) {
      matchedIndexes.push(p);
      reordered.push(predictedBlocks[p]!);
    }
  });
  predictedBlocks.forEach((pb, p) => {
    if (!used.has(p)) reordered.push(pb);
  });
  const expectedOrder = [...matchedIndexes].sort((a, b) => a - b);
  return {
    ned: normalizedEditDistance(collapseSpaces(predicted), collapseSpaces(reference)),
    contentNed: normalizedEditDistance(reordered.join(' '), referenceBlocks.join(' ')),
    orderNed:
      matchedIndexes.length === 0 ? 0 : sequenceEditDistance(matchedIndexes, expectedOrder) / matchedIndexes.length,
  };
}
