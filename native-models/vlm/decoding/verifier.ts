/**
 * The FastMTP verifier: a pure function of the drafts and the decoder's own greedy choices.
 *
 * One verify pass feeds the decoder `[newest, d_1, …, d_K]` and yields K + 1 greedy choices `a_0 … a_K`, where `a_i`
 * is what the decoder would emit after having consumed `newest, d_1 … d_i`. Definitions (after vLLM's rejection
 * sampler, specialised to greedy):
 * - accepted tokens: the longest prefix `d_1 … d_m` with `d_i === a_{i-1}` for every i ≤ m;
 * - bonus token: `a_m`, the decoder's own choice right after the accepted prefix. It is always committed, so a step
 *   commits m + 1 tokens, and the committed sequence is exactly the greedy one.
 */
export interface VerifyResult {
  /** The accepted drafts d_1 … d_m (m = accepted.length, 0 ≤ m ≤ K). */
  accepted: number[];
  /** a_m: the decoder's greedy token after the accepted prefix; committed after `accepted`. */
  bonus: number;
}

/**
 * @param drafts        [K]     the draft block's proposals d_1 … d_K
 * @param targetArgmax  [K + 1] the decoder's greedy choices a_0 … a_K from the same verify pass
 */
export function verifyDrafts(drafts: ArrayLike<number>, targetArgmax: ArrayLike<number>): VerifyResult {
  if (targetArgmax.length !== drafts.length + 1) {
    throw new Error(`verifyDrafts: need K + 1 = ${drafts.length + 1} target choices, got ${targetArgmax.length}`);
  }
  const accepted: number[] = [];
  while (accepted.length < drafts.length && drafts[accepted.length] === targetArgmax[accepted.length]) {
    accepted.push(drafts[accepted.length]!);
  }
  return { accepted, bonus: targetArgmax[accepted.length]! };
}
