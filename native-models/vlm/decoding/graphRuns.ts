/**
 * One run of the decoder or of the draft block, as both decoding loops make them: the inputs built from host rows and
 * earlier outputs, the outputs fetched, and nothing else. What comes back to the host is the candidate token ids; the
 * hidden states stay a tensor where the provider made it (on WebGPU a device tensor) and go into the draft block's
 * next run as they are, with the rows it should use (pack format 3, packContract.ts).
 */
import { tensorNames } from '../pack/packContract.js';
import { floatTensor, int64Tensor, type Tensor } from '../runtime/onnxRuntime.js';
import type { KvCacheModel } from './cachedModel.js';
import type { DecodeModels } from './decodeTypes.js';
import type { CandidateRow } from './logitsProcessors.js';

/** The candidates of a graph run ([1, T, C] token ids, best first): all the host sees of the logits. */
export class Candidates {
  readonly width: number;
  private readonly ids: Int32Array;

  constructor(out: Record<string, Tensor>, names: { candidateIds: string }) {
    const ids = out[names.candidateIds]!;
    this.width = ids.dims[2]!;
    this.ids = ids.data as Int32Array;
  }

  get rows(): number {
    return this.ids.length / this.width;
  }

  /** Row `row`: token ids by decreasing logit (lower id first on ties). */
  row(row: number): CandidateRow {
    return { ids: this.ids.subarray(row * this.width, (row + 1) * this.width) };
  }
}

/**
 * Rows of a hidden-state output ([1, S, H]) the draft block is to read: the tensor as the runtime returned it and
 * the row indices. Whoever holds one releases it once the run that reads it is done (`releaseHidden`).
 */
export interface HiddenRows {
  tensor: Tensor;
  rows: Tensor; // [n] int64
}

// The fetch lists are constants: the cache models keep one fetches object per list (cachedModel.ts FetchesByOutputs).
const decoderCandidates = [tensorNames.decoder.candidateIds] as const;
const decoderCandidatesAndHidden = [tensorNames.decoder.candidateIds, tensorNames.decoder.lastHiddenState] as const;
const draftOutputs = [tensorNames.draft.candidateIds, tensorNames.draft.hiddenStatesOut] as const;

/**
 * One inputs object per model, refilled by every run (forward() reads it before it awaits anything): the loops run
 * the graphs a few hundred times per page, and a new object per run is garbage-collection work inside the loop.
 */
const inputsByModel = new WeakMap<KvCacheModel, Record<string, Tensor>>();
function inputsOf(model: KvCacheModel): Record<string, Tensor> {
  let inputs = inputsByModel.get(model);
  if (!inputs) inputsByModel.set(model, (inputs = {}));
  return inputs;
}

/** A decoder pass over `count` rows; `withHidden`: also return its hidden states (FastMTP's draft block reads them). */
export async function runDecoder(models: DecodeModels, embeds: Float32Array, count: number, withHidden = false): Promise<{ candidates: Candidates; hidden: Tensor | null }> {
  const inputs = inputsOf(models.decoder);
  inputs[tensorNames.decoder.inputsEmbeds] = floatTensor(embeds, [1, count, models.hidden]);
  const out = await models.decoder.forward(inputs, count, withHidden ? decoderCandidatesAndHidden : decoderCandidates);
  return { candidates: new Candidates(out, tensorNames.decoder), hidden: withHidden ? out[tensorNames.decoder.lastHiddenState]! : null };
}

/**
 * A draft-block pass over the pairs (hidden state of position i − 1, embedding of token i): `embeds` [n × H] on the
 * host, the hidden states as `hidden` selects them. Returns the candidates and the block's own hidden states [1, n, H].
 */
export async function runDraft(models: DecodeModels, embeds: Float32Array, hidden: HiddenRows): Promise<{ candidates: Candidates; hidden: Tensor }> {
  const count = embeds.length / models.hidden;
  const draft = models.draft!;
  const inputs = inputsOf(draft);
  inputs[tensorNames.draft.inputsEmbeds] = floatTensor(embeds, [1, count, models.hidden]);
  inputs[tensorNames.draft.hiddenStates] = hidden.tensor;
  inputs[tensorNames.draft.hiddenRows] = hidden.rows;
  const out = await draft.forward(inputs, count, draftOutputs);
  return { candidates: new Candidates(out, tensorNames.draft), hidden: out[tensorNames.draft.hiddenStatesOut]! };
}

/** Frees a hidden-state output that lives on a device (a host tensor is left to the garbage collector). */
export function releaseHidden(tensor: Tensor | null): void {
  if (tensor && tensor.location !== 'cpu') tensor.dispose();
}

/**
 * Row-index tensors, made once per distinct range: a step asks for the first m + 1 rows of a verify pass or the last
 * row of a draft pass, so a page needs only a handful.
 */
export class RowIndices {
  private readonly made = new Map<number, Tensor>();

  /** Rows from … from + count − 1. */
  range(from: number, count: number): Tensor {
    const key = from * 65_536 + count;
    let tensor = this.made.get(key);
    if (!tensor) {
      tensor = int64Tensor(Array.from({ length: count }, (_, i) => from + i), [count]);
      if (count <= 64) this.made.set(key, tensor); // the prompt's range is used once: not kept
    }
    return tensor;
  }
}
