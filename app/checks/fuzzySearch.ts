/**
 * Approximate substring search (Sellers' algorithm): the Levenshtein distance between a pattern and its best-matching
 * substring of a text, and where such matches start. fastest-levenshtein compares whole strings only; olmOCR-Bench
 * tests ask "does this text appear, with at most `max_diffs` edits, anywhere in the page".
 *
 * Cost: O(|pattern| · |text|) time, O(|pattern|) memory per pass.
 */

/** Minimum edit distance of `pattern` to any substring of `text` (0 for an empty pattern). */
export function bestSubstringDistance(pattern: string, text: string): number {
  const m = pattern.length;
  if (m === 0) return 0;
  // column[i] = distance of pattern[0..i) to the best substring of text ending at the current position.
  let column = new Uint32Array(m + 1);
  let next = new Uint32Array(m + 1);
  for (let i = 0; i <= m; i++) column[i] = i;
  let best = m;
  for (let j = 0; j < text.length; j++) {
    const t = text.charCodeAt(j);
    next[0] = 0; // a match may start anywhere: free leading text
    for (let i = 1; i <= m; i++) {
      const substitute = column[i - 1]! + (pattern.charCodeAt(i - 1) === t ? 0 : 1);
      next[i] = Math.min(substitute, column[i]! + 1, next[i - 1]! + 1);
    }
    if (next[m]! < best) best = next[m]!;
    [column, next] = [next, column];
    if (best === 0) return 0;
  }
  return best;
}

/** End offsets (exclusive) in `text` of substrings within `maxDistance` edits of `pattern`. */
function matchEnds(pattern: string, text: string, maxDistance: number): number[] {
  const m = pattern.length;
  const ends: number[] = [];
  let column = new Uint32Array(m + 1);
  let next = new Uint32Array(m + 1);
  for (let i = 0; i <= m; i++) column[i] = i;
  if (m <= maxDistance) ends.push(0);
  for (let j = 0; j < text.length; j++) {
    const t = text.charCodeAt(j);
    next[0] = 0;
    for (let i = 1; i <= m; i++) {
      const substitute = column[i - 1]! + (pattern.charCodeAt(i - 1) === t ? 0 : 1);
      next[i] = Math.min(substitute, column[i]! + 1, next[i - 1]! + 1);
    }
    if (next[m]! <= maxDistance) ends.push(j + 1);
    [column, next] = [next, column];
  }
  return ends;
}

function reverse(s: string): string {
  return Array.from(s).reverse().join('');
}

/**
 * Start offsets in `text` at which some substring within `maxDistance` edits of `pattern` begins, ascending.
 * Computed as the match ends of the reversed pattern in the reversed text. Works on UTF-16 code units; the reversal
 * keeps surrogate pairs together, so offsets stay consistent for astral characters too.
 */
export function fuzzyMatchStarts(pattern: string, text: string, maxDistance: number): number[] {
  if (pattern.length === 0) return [0];
  if (maxDistance <= 0) {
    // Exact occurrences (overlapping ones included): the same answer as the dynamic programme, without its |p|·|t| cost.
    const starts: number[] = [];
    for (let at = text.indexOf(pattern); at >= 0; at = text.indexOf(pattern, at + 1)) starts.push(at);
    return starts;
  }
  const reversedText = reverse(text);
  const n = reversedText.length;
  return matchEnds(reverse(pattern), reversedText, maxDistance)
    .map((end) => n - end)
    .sort((a, b) => a - b);
}

/** True when `pattern` occurs in `text` with at most `maxDistance` edits. */
export function fuzzyContains(pattern: string, text: string, maxDistance: number): boolean {
  if (maxDistance <= 0) return text.includes(pattern);
  return bestSubstringDistance(pattern, text) <= maxDistance;
}
