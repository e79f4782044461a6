/**
 * A graph with KV caches that stay in place (decoder or draft block; scheme in pack/packContract.ts): one fixed buffer
 * per cache, [capacity, heads, headDim] position-major, allocated once per page. Each run feeds views of the first
 * `length` positions and passes views at offset `length` as the pre-allocated outputs for the new positions, so the
 * runtime reads the past where it lies and writes the new keys and values straight into the buffer. Cutting back
 * rejected drafts only lowers `length`.
 */
import { floatTensor, int64Tensor, type Tensor, type TimedSession } from '../runtime/onnxRuntime.js';
import type { CacheNames } from '../pack/packContract.js';

export interface CacheShape {
  heads: number;
  headDim: number;
}

/** What both decoding loops need of a graph with KV caches, whatever the pack's cache form (packContract.ts). */
export interface KvCacheModel {
  readonly session: TimedSession;
  /** Cached positions. */
  readonly length: number;
  /** Pages that outgrew their reserved capacity (a copy; 0 in normal decoding). */
  readonly grows: number;
  /** Starts a page that may reach `capacity` positions (buffers allocated here, never during decoding). */
  reset(capacity: number): void;
  /**
   * Runs the graph on `count` new positions; returns the non-cache outputs named in `outputs` (the cache is updated in
   * place). `outputs` should be a constant array: the fetches object made for it is kept and reused.
   */
  forward(inputs: Record<string, Tensor>, count: number, outputs: readonly string[]): Promise<Record<string, Tensor>>;
  /** Keeps the first `length` positions. */
  truncate(length: number): void;
  /** Benchmarks: synthetic contents for `length` positions and room for `spare` more; `seek` sets any length ≤ it. */
  fill(length: number, spare: number, make: (size: number) => Float32Array): void;
  seek(length: number): void;
}

/** The 'views' cache form: see the module comment. */
export class CachedModel implements KvCacheModel {
  /** Per cache entry (key then value per layer): [capacity × heads × headDim]. */
  private buffers: Float32Array[];
  private capacity = 0;
  private valid = 0;
  private filled = 0;
  /** Pages that outgrew their reserved capacity and were moved to a larger buffer (a copy; 0 in normal decoding). */
  grows = 0;
  private readonly resident: ReadonlySet<string>;
  private readonly shapeDims: readonly [number, number];
  /**
   * Feeds and fetches objects reused by every run (their cache entries are replaced each time): fewer allocations per
   * step, so less garbage-collection time landing in the decoding loop.
   */
  private readonly feeds: Record<string, Tensor> = {};
  private readonly fetches = new FetchesByOutputs();

  constructor(
    readonly session: TimedSession,
    private readonly caches: readonly CacheNames[],
    private readonly shape: CacheShape,
  ) {
    this.buffers = caches.flatMap(() => [new Float32Array(0), new Float32Array(0)]);
    // Only the CPU provider reads a host view where it lies; a GPU provider copies every host input to the device, so
    // there the past views count as bytes moved (keeping caches on a GPU needs device buffers: docs/decoding.md).
    this.resident = new Set(session.provider === 'cpu' ? caches.flatMap((c) => [c.pastKey, c.pastValue]) : []);
    this.shapeDims = [shape.heads, shape.headDim];
  }

  /** Cached positions. */
  get length(): number {
    return this.valid;
  }

  private get rowSize(): number {
    return this.shape.heads * this.shape.headDim;
  }

  /**
   * Starts a page that may reach `capacity` positions: the buffers are allocated here (reused when large enough), never
   * during decoding.
   */
  reset(capacity: number): void {
    this.valid = 0;
    this.filled = 0;
    if (capacity > this.capacity) this.allocate(capacity, false);
  }

  /**
   * Runs the graph on `count` new positions; `inputs` are the non-cache inputs. Returns the non-cache outputs (the new
   * positions' keys and values are already in the cache buffers).
   */
  async forward(inputs: Record<string, Tensor>, count: number, outputs: readonly string[]): Promise<Record<string, Tensor>> {
    if (this.valid + count > this.capacity) this.allocate(Math.max(this.valid + count, 2 * this.capacity), true);
    const [heads, headDim] = this.shapeDims;
    const past = this.valid * this.rowSize;
    const end = past + count * this.rowSize;
    const pastDims = [1, this.valid, heads, headDim];
    const newDims = [1, count, heads, headDim];
    const { feeds } = this;
    const fetches = this.fetches.for(outputs);
    for (const name in inputs) feeds[name] = inputs[name]!;
    for (let i = 0; i < this.caches.length; i++) {
      const c = this.caches[i]!;
      const key = this.buffers[2 * i]!;
      const value = this.buffers[2 * i + 1]!;
      feeds[c.pastKey] = floatTensor(key.subarray(0, past), pastDims);
      feeds[c.pastValue] = floatTensor(value.subarray(0, past), pastDims);
      fetches[c.newKey] = floatTensor(key.subarray(past, end), newDims);
      fetches[c.newValue] = floatTensor(value.subarray(past, end), newDims);
    }
    const out = await this.session.run(feeds, fetches, this.resident);
    this.valid += count;
    return out;
  }

  /** Keeps the first `length` positions (rejected drafts are simply overwritten by the next run). */
  truncate(length: number): void {
    if (length > this.valid) throw new Error(`cannot grow a KV cache by truncation (${this.valid} → ${length})`);
    this.valid = length;
  }

  /**
   * Benchmarks: synthetic contents for `length` positions (speed does not depend on values), room for `spare` more;
   * `seek` then sets any length up to `length` (contents stay what `fill` wrote, so every context reads real numbers).
   */
  fill(length: number, spare: number, make: (size: number) => Float32Array): void {
    this.reset(length + spare);
    for (const buffer of this.buffers) buffer.set(make(length * this.rowSize));
    this.valid = length;
    this.filled = length;
  }

  seek(length: number): void {
    if (length > this.filled) throw new Error(`seek(${length}) beyond the ${this.filled} synthetic positions`);
    this.valid = length;
  }

  private allocate(capacity: number, keep: boolean): void {
    const size = capacity * this.rowSize;
    this.buffers = this.buffers.map((old) => {
      const buffer = new Float32Array(size);
      if (keep) buffer.set(old.subarray(0, this.valid * this.rowSize));
      return buffer;
    });
    if (keep) this.grows++;
    this.capacity = capacity;
  }
}

/**
 * One fetches object per list of wanted outputs (its cache entries are replaced on every run): the loops ask for a
 * few constant lists, so no object is built per step.
 */
export class FetchesByOutputs {
  private readonly byList = new Map<readonly string[], Record<string, Tensor | null>>();

  for(outputs: readonly string[]): Record<string, Tensor | null> {
    let fetches = this.byList.get(outputs);
    if (!fetches) {
      fetches = {};
      for (const name of outputs) fetches[name] = null;
      this.byList.set(outputs, fetches);
    }
    return fetches;
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

  /**
   * The kept row of `id` (read-only), or undefined if it was never embedded. Synchronous: the decoding loops look up
   * a token they have usually seen before on every draft, and an async call costs a microtask turn each time.
   */
  row(id: number): Float32Array | undefined {
    return this.rows.get(id);
  }

  /** [ids.length × H] when every id was embedded before (synchronously, as `row`), else undefined. */
  knownRows(ids: readonly number[]): Float32Array | undefined {
    const result = new Float32Array(ids.length * this.hidden);
    for (let i = 0; i < ids.length; i++) {
      const row = this.rows.get(ids[i]!);
      if (!row) return undefined;
      result.set(row, i * this.hidden);
    }
    return result;
  }

  /** [ids.length × H]; read-only (a single known id returns the kept row itself). */
  async embed(ids: readonly number[]): Promise<Float32Array> {
    if (ids.length === 1) {
      const row = this.rows.get(ids[0]!);
      if (row) return row;
    }
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
