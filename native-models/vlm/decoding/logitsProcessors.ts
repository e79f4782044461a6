/**
 * Logits processors: rules applied to one row of logits before the greedy choice. Both decoders (greedy and FastMTP,
 * draft and verify) call the same processors with the same context, which is what keeps FastMTP lossless.
 */
export interface LogitsProcessor {
  /** Edits `logits` ([vocab]) in place, given the tokens generated so far (not the prompt). */
  process(generated: readonly number[], logits: Float32Array): void;
  /**
   * For processors that only ban tokens (set them to −∞): the banned set, so the greedy choice can skip them without
   * copying a [vocab] row (129,280 floats for the real model) on every pick. It may be reused by the next call.
   */
  bannedTokens?(generated: readonly number[]): ReadonlySet<number>;
}

export interface NoRepeatNgramOptions {
  /** n: an n-gram that already occurred in the window may not be completed again. DeepSeek-OCR uses 30. */
  ngramSize: number;
  /** How many most recent tokens are searched. DeepSeek-OCR uses 90. */
  windowSize: number;
  /** Tokens that may always repeat (DeepSeek-OCR: `<td>`, `</td>`, as table rows repeat them legitimately). */
  exemptTokenIds: readonly number[];
}

/**
 * DeepSeek-OCR's NoRepeatNGramLogitsProcessor (vLLM variant: it sees the output tokens only). For every n-gram in the
 * last `windowSize` tokens whose first n − 1 tokens equal the current last n − 1 tokens, its last token is banned.
 */
export class NoRepeatNgramProcessor implements LogitsProcessor {
  private readonly exempt: ReadonlySet<number>;
  /** Returned by every bannedTokens call, cleared first: a pick happens several times per step and needs it briefly. */
  private readonly banned = new Set<number>();

  constructor(private readonly options: NoRepeatNgramOptions) {
    if (!Number.isInteger(options.ngramSize) || options.ngramSize < 2) {
      throw new Error(`no-repeat n-gram: ngramSize must be an integer ≥ 2, got ${options.ngramSize}`);
    }
    if (!Number.isInteger(options.windowSize) || options.windowSize < options.ngramSize) {
      throw new Error(`no-repeat n-gram: windowSize must be an integer ≥ ngramSize, got ${options.windowSize}`);
    }
    this.exempt = new Set(options.exemptTokenIds);
  }

  /** The tokens banned after `generated`; the set is reused by the next call (copy it to keep it). */
  bannedTokens(generated: readonly number[]): ReadonlySet<number> {
    const n = this.options.ngramSize;
    const len = generated.length;
    const banned = this.banned;
    banned.clear();
    if (len < n - 1) return banned;
    const prefixStart = len - (n - 1);
    const searchStart = Math.max(0, len - this.options.windowSize);
    for (let i = searchStart; i <= len - n; i++) {
      let matches = true;
      for (let j = 0; j < n - 1; j++) {
        if (generated[i + j] !== generated[prefixStart + j]) {
          matches = false;
          break;
        }
      }
      if (matches) banned.add(generated[i + n - 1]!);
    }
    for (const token of this.exempt) banned.delete(token);
    return banned;
  }

  process(generated: readonly number[], logits: Float32Array): void {
    for (const token of this.bannedTokens(generated)) {
      if (token >= 0 && token < logits.length) logits[token] = Number.NEGATIVE_INFINITY;
    }
  }
}

/** Index of the largest value; the lowest index wins ties (as torch.argmax). */
export function argmax(row: Float32Array): number {
  let best = 0;
  let bestValue = row[0]!;
  for (let i = 1; i < row.length; i++) {
    if (row[i]! > bestValue) {
      bestValue = row[i]!;
      best = i;
    }
  }
  return best;
}

/** Index of the largest value outside `excluded` (lowest index on ties); 0 if everything is excluded. */
export function argmaxExcluding(row: Float32Array, excluded: ReadonlySet<number>): number {
  if (excluded.size === 0) return argmax(row);
  let best = -1;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < row.length; i++) {
    if (row[i]! > bestValue && !excluded.has(i)) {
      bestValue = row[i]!;
      best = i;
    }
  }
  return best < 0 ? 0 : best;
}

/** One row of a graph's candidates: token ids by decreasing logit, lower id first on ties (ONNX TopK). The order is
 * all a pick needs, so the logits themselves are not fetched. */
export interface CandidateRow {
  ids: Int32Array;
}

/**
 * The greedy choice from a row's candidates: the first candidate no processor bans. Equal to `pickGreedy` on the full
 * row as long as some candidate is not banned — which the pack guarantees by returning more candidates than the rules
 * can ban (packContract.ts `minimumCandidates`). Processors must ban only (`bannedTokens`).
 */
export function pickCandidate(row: CandidateRow, generated: readonly number[], processors: readonly LogitsProcessor[]): number {
  let banned: ReadonlySet<number>;
  if (processors.length === 1) {
    banned = bannedBy(processors[0]!, generated); // the usual case: one rule, its set as is (no union per pick)
  } else {
    const union = new Set<number>();
    for (const p of processors) for (const token of bannedBy(p, generated)) union.add(token);
    banned = union;
  }
  for (const id of row.ids) if (!banned.has(id)) return id;
  throw new Error(`all ${row.ids.length} candidates are banned by the no-repeat rule: the pack returns too few candidates`);
}

function bannedBy(processor: LogitsProcessor, generated: readonly number[]): ReadonlySet<number> {
  if (!processor.bannedTokens) throw new Error('a logits processor that edits logits needs the full row; the pack returns candidates only');
  return processor.bannedTokens(generated);
}

/** Applies the processors (to a copy of `row` unless they only ban tokens) and returns the greedy choice. */
export function pickGreedy(row: Float32Array, generated: readonly number[], processors: readonly LogitsProcessor[]): number {
  if (processors.length === 0) return argmax(row);
  if (processors.every((p) => p.bannedTokens)) {
    const banned = new Set<number>();
    for (const p of processors) for (const token of p.bannedTokens!(generated)) banned.add(token);
    return argmaxExcluding(row, banned);
  }
  const work = new Float32Array(row);
  for (const processor of processors) processor.process(generated, work);
  return argmax(work);
}
