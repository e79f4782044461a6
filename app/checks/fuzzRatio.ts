/**
 * rapidfuzz's `fuzz.ratio` and `fuzz.partial_ratio` (rapidfuzz 3, which olmOCR-Bench's tests use: olmocr/bench/tests.py
 * decides `present`/`absent` with `partial_ratio(text, page) / 100 ≥ 1 − max_diffs / len(text)` and table cells with
 * `ratio`). Scores 0–100 over code points, as Python's strings count them:
 * - `ratio`: the normalised InDel similarity, 100 · 2·LCS / (|a| + |b|); 100 for two empty strings;
 * - `partialRatio`: the best `ratio` of the shorter string against the longer one's windows — every window of the
 *   shorter one's length, and the longer one's prefixes and suffixes shorter than that (a match running off either
 *   end); for equal lengths both ways round; 0 when one string is empty, 100 when both are. The strings are swapped
 *   when the first is the longer: so a page whose whole text is "Total" contains "Total amount due" (100), which is
 *   why a test derived from a correction must be run this way before it is kept.
 * Checked against rapidfuzz 3.14 on the cases in fuzzRatio.test.ts.
 */

const codePoints = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);

/** Length of the longest common subsequence. O(|a|·|b|) time, O(|b|) memory. */
function lcsLength(a: readonly number[], b: readonly number[], bStart = 0, bEnd = b.length): number {
  const width = bEnd - bStart;
  let previous = new Uint32Array(width + 1);
  let current = new Uint32Array(width + 1);
  for (const ca of a) {
    for (let j = 1; j <= width; j++) {
      current[j] = ca === b[bStart + j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[width]!;
}

const similarity = (lcs: number, total: number): number => (total === 0 ? 100 : (200 * lcs) / total);

export function ratio(a: string, b: string): number {
  const pa = codePoints(a);
  const pb = codePoints(b);
  return similarity(lcsLength(pa, pb), pa.length + pb.length);
}

/** The best ratio of `needle` against the windows of `haystack` (|needle| ≤ |haystack|), as described above. */
function bestWindow(needle: readonly number[], haystack: readonly number[]): number {
  const n = needle.length;
  const m = haystack.length;
  // LCS ≤ the characters a window has in common with the needle (as multisets): windows that cannot beat the best
  // so far are not compared. `common` is kept up to date as the window grows, slides and shrinks.
  const wanted = new Map<number, number>();
  for (const c of needle) wanted.set(c, (wanted.get(c) ?? 0) + 1);
  const held = new Map<number, number>();
  let common = 0;
  const add = (c: number): void => {
    const count = held.get(c) ?? 0;
    if (count < (wanted.get(c) ?? 0)) common++;
    held.set(c, count + 1);
  };
  const remove = (c: number): void => {
    const count = held.get(c)! - 1;
    held.set(c, count);
    if (count < (wanted.get(c) ?? 0)) common--;
  };
  let best = 0;
  const consider = (start: number, end: number): void => {
    const total = n + end - start;
    if (similarity(common, total) <= best) return;
    best = Math.max(best, similarity(lcsLength(needle, haystack, start, end), total));
  };
  // Prefixes shorter than the needle, then every full-length window, then suffixes shorter than the needle.
  for (let end = 1; end < n; end++) {
    add(haystack[end - 1]!);
    consider(0, end);
  }
  add(haystack[n - 1]!);
  consider(0, n);
  for (let start = 1; start + n <= m; start++) {
    remove(haystack[start - 1]!);
    add(haystack[start + n - 1]!);
    consider(start, start + n);
    if (best === 100) return best;
  }
  for (let start = m - n + 1; start < m; start++) {
    remove(haystack[start - 1]!);
    consider(start, m);
  }
  return best;
}

export function partialRatio(a: string, b: string): number {
  if (a.length === 0 && b.length === 0) return 100;
  if (a.length === 0 || b.length === 0) return 0;
  let shorter = codePoints(a);
  let longer = codePoints(b);
  if (shorter.length > longer.length) [shorter, longer] = [longer, shorter];
  if (partialRatioIsFull(a, b)) return 100;
  const best = bestWindow(shorter, longer);
  return shorter.length === longer.length ? Math.max(best, bestWindow(longer, shorter)) : best;
}

/** `partialRatio(a, b) === 100` without computing it: the shorter string occurs in the longer one (max_diffs 0). */
export function partialRatioIsFull(a: string, b: string): boolean {
  if (a.length === 0 || b.length === 0) return a.length === b.length;
  return codePoints(a).length <= codePoints(b).length ? b.includes(a) : a.includes(b);
}
