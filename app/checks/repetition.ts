/**
 * Repetition: the failure mode of autoregressive OCR models that loop ("the the the …", a table row repeated until the
 * token limit). Two measures:
 * - `tailRepeats`: olmOCR-Bench's RepeatDetector — for each character n-gram size 1..maxN, how many times the last
 *   n characters repeat back to back at the end of the (whitespace-collapsed) text;
 * - `wordLoops`: the longest run of a repeated word n-gram anywhere (n = 1..maxN words), as the fraction of words it
 *   covers, which catches loops that do not reach the end.
 */
export function tailRepeats(text: string, maxNgram = 5): number[] {
  const collapsed = text.replace(/\s+/g, ' ');
  const counts: number[] = [];
  for (let size = 1; size <= maxNgram; size++) {
    if (collapsed.length < size) {
      counts.push(0);
      continue;
    }
    const target = collapsed.slice(-size);
    let count = 0;
    for (let pos = collapsed.length - size; pos >= 0 && collapsed.slice(pos, pos + size) === target; pos -= size) count++;
    counts.push(count);
  }
  return counts;
}

export interface WordLoop {
  /** Words in the repeated unit. */
  n: number;
  /** Consecutive repetitions of the unit. */
  repeats: number;
  /** Index of the first word of the run. */
  start: number;
  /** Words covered by the run / total words. */
  coverage: number;
}

/** Longest back-to-back repetition of a word n-gram (n ≤ maxN). Null when nothing repeats. */
export function longestWordLoop(text: string, maxN = 8): WordLoop | null {
  const words = text.split(/\s+/).filter(Boolean);
  let best: WordLoop | null = null;
  for (let n = 1; n <= maxN; n++) {
    for (let start = 0; start + 2 * n <= words.length; start++) {
      let repeats = 1;
      while (start + (repeats + 1) * n <= words.length) {
        let same = true;
        for (let k = 0; k < n && same; k++) same = words[start + k] === words[start + repeats * n + k];
        if (!same) break;
        repeats++;
      }
      if (repeats > 1 && (!best || repeats * n > best.repeats * best.n)) {
        best = { n, repeats, start, coverage: (repeats * n) / words.length };
      }
      if (repeats > 1) start += (repeats - 1) * n; // skip inside the run
    }
  }
  return best;
}

export interface RepetitionReport {
  tailRepeats: number[];
  loop: WordLoop | null;
  /** Characters beyond `maxLength` (0 when within or no limit). */
  overLength: number;
  /** Score in [0, 1]: 1 = no loop; falls to 0 as a loop covers the text or the tail repeats (no floor). */
  score: number;
}

/**
 * Repetition score. A run of ≥ `minLoopRepeats` repetitions of a unit (natural text repeats a word twice, rarely more)
 * costs its coverage; a tail repeating more than `maxTailRepeats` times scores 0 (olmOCR's baseline rule, 30);
 * output longer than `maxLength` characters scales down by maxLength / length.
 */
export function repetitionReport(
  text: string,
  options: { maxLength?: number; maxTailRepeats?: number; minLoopRepeats?: number } = {},
): RepetitionReport {
  const { maxLength, maxTailRepeats = 30, minLoopRepeats = 4 } = options;
  const tail = tailRepeats(text);
  const loop = longestWordLoop(text);
  let score = 1;
  if (loop && loop.repeats >= minLoopRepeats) score *= 1 - loop.coverage;
  if (tail.some((count) => count > maxTailRepeats)) score = 0;
  const overLength = maxLength !== undefined && text.length > maxLength ? text.length - maxLength : 0;
  if (overLength > 0) score *= maxLength! / text.length;
  return { tailRepeats: tail, loop, overLength, score };
}
