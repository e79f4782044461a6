/**
 * A graph with a past/present KV cache (decoder or draft block): feeds the past tensors, keeps the present ones, and
 * cuts the cache back to a given length after speculative tokens were rejected.
 */
import { floatTensor, int64Tensor, type Tensor, type TimedSession } from '../runtime/onnxRuntime.js';
import type { CacheNames } from '../pack/packContract.js';

export interface CacheShape {
  heads: number;
  headDim: number;
}

export class CachedModel {
  /** Per cache entry: [1, nh, stored, dh] key then value. */
  private tensors: Float32Array[];
  private stored = 0;
  /** Positions that count; ≤ stored. The rest are rejected speculative entries, removed before the next run. */
  private valid = 0;
  /** Milliseconds spent cutting caches back (JS side). */
  trimMs = 0;

  constructor(
    readonly session: TimedSession,
    private readonly caches: readonly CacheNames[],
    private readonly shape: CacheShape,
  ) {
    this.tensors = caches.flatMap(() => [new Float32Array(0), new Float32Array(0)]);
  }

  /** Cached positions. */
  get length(): number {
    return this.valid;
  }

  /** Runs the graph on new positions; `inputs` are the non-cache inputs. Returns the non-cache outputs. */
  async forward(inputs: Record<string, Tensor>): Promise<Record<string, Tensor>> {
    this.applyTrim();
    const { heads, headDim } = this.shape;
    const feeds: Record<string, Tensor> = { ...inputs };
    this.caches.forEach((c, i) => {
      feeds[c.pastKey] = floatTensor(this.tensors[2 * i]!, [1, heads, this.stored, headDim]);
      feeds[c.pastValue] = floatTensor(this.tensors[2 * i + 1]!, [1, heads, this.stored, headDim]);
    });
    const out = await this.session.run(feeds);
    this.caches.forEach((c, i) => {
      this.tensors[2 * i] = out[c.presentKey]!.data as Float32Array;
      this.tensors[2 * i + 1] = out[c.presentValue]!.data as Float32Array;
    });
    const added = out[this.caches[0]!.presentKey]!.dims[2]! - this.stored;
    this.stored += added;
    this.valid = this.stored;
    return out;
  }

  /** Keeps the first `length` positions; the copy happens lazily before the next run. */
  truncate(length: number): void {
    if (length > this.valid) throw new Error(`cannot grow a KV cache by truncation (${this.valid} → ${length})`);
    this.valid = length;
  }

  /** Drops everything (a new page). */
  reset(): void {
    this.tensors = this.tensors.map(() => new Float32Array(0));
    this.stored = 0;
    this.valid = 0;
  }

  /** Replaces the cache with given contents ([1, nh, length, dh] each): the benchmark's synthetic long contexts. */
  fill(length: number, make: (size: number) => Float32Array): void {
    const size = this.shape.heads * length * this.shape.headDim;
    this.tensors = this.tensors.map(() => make(size));
    this.stored = length;
    this.valid = length;
  }

  /** The current cache, by reference (runs never write into cache arrays; they replace them). */
  snapshot(): { tensors: Float32Array[]; length: number } {
    this.applyTrim();
    return { tensors: [...this.tensors], length: this.stored };
  }

  restore(snapshot: { tensors: Float32Array[]; length: number }): void {
    this.tensors = [...snapshot.tensors];
    this.stored = snapshot.length;
    this.valid = snapshot.length;
  }

  private applyTrim(): void {
    if (this.valid === this.stored) return;
    const start = performance.now();
    const { heads, headDim } = this.shape;
    const oldRow = this.stored * headDim;
    const newRow = this.valid * headDim;
    this.tensors = this.tensors.map((t) => {
      const out = new Float32Array(heads * newRow);
      for (let h = 0; h < heads; h++) out.set(t.subarray(h * oldRow, h * oldRow + newRow), h * newRow);
      return out;
    });
    this.stored = this.valid;
    this.trimMs += performance.now() - start;
  }
}

/** Token id → embedding row, through the pack's embedding graph; rows are kept, as decoding revisits tokens. */
export class TokenEmbedder {
  private readonly rows = new Map<number, Float32Array>();

  constructor(
    readonly session: TimedSession,
    private readonly hidden: number,
    private readonly names: { inputIds: string; inputsEmbeds: string },
  ) {}

  /** [ids.length × H] */
  async embed(ids: readonly number[]): Promise<Float32Array> {
    const missing = [...new Set(ids.filter((id) => !this.rows.has(id)))];
    if (missing.length > 0) {
      const out = await this.session.run({ [this.names.inputIds]: int64Tensor(missing, [1, missing.length]) });
      const data = out[this.names.inputsEmbeds]!.data as Float32Array;
      missing.forEach((id, i) => this.rows.set(id, data.slice(i * this.hidden, (i + 1) * this.hidden)));
    }
    const result = new Float32Array(ids.length * this.hidden);
    ids.forEach((id, i) => result.set(this.rows.get(id)!, i * this.hidden));
    return result;
  }
}
