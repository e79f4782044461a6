/**
 * KV caches of a 'shared-buffer' pack (packContract.ts): one [1, heads, capacity, headDim] buffer per cache, passed to
 * each run both as the past input and as the pre-allocated present output, so GroupQueryAttention writes the new rows
 * in place; the valid length is the `seqlens_k` / `total_sequence_length` inputs, and cutting back lowers it.
 *
 * Where the buffers live depends on the provider:
 * - host (CPU provider): Float32Arrays. Correct, but onnxruntime-node copies every fetched output into a new
 *   ArrayBuffer after the run, so each step returns the whole capacity — the CPU provider uses the 'views' form.
 * - device (WebGPU, session created with `preferredOutputLocation: 'gpu-buffer'` for the present outputs): the first
 *   run of the model uploads the host buffers (zeros, or the benchmark's synthetic rows) as the past and gets the
 *   present back as GPU tensors; every later run feeds those tensors and binds them as the outputs. Nothing of the
 *   caches crosses to the host again; a page that needs more capacity than the buffers have re-uploads (between pages).
 */
import { floatTensor, int32Tensor, type Tensor, type TimedSession } from '../runtime/onnxRuntime.js';
import { type CacheNames, sharedBufferInputs } from '../pack/packContract.js';
import { type CacheShape, FetchesByOutputs, type KvCacheModel } from './cachedModel.js';

/** Whether `session`'s provider keeps outputs marked 'gpu-buffer' on the device (onnxruntime-node 1.30: WebGPU only). */
export function keepsCachesOnDevice(session: Pick<TimedSession, 'provider'>): boolean {
  return session.provider === 'webgpu';
}

export class SharedBufferCache implements KvCacheModel {
  /** Host copy of each cache (key then value per layer): [heads × capacity × headDim]; the upload source on a device. */
  private host: Float32Array[];
  /** Device: the present tensors of the last run, fed back as past and bound as present; null until the first run. */
  private device: Tensor[] | null = null;
  private capacity = 0;
  private valid = 0;
  private filled = 0;
  grows = 0;
  private readonly onDevice: boolean;
  private readonly resident: ReadonlySet<string>;
  private readonly feeds: Record<string, Tensor> = {};
  private readonly fetches = new FetchesByOutputs();

  constructor(
    readonly session: TimedSession,
    private readonly caches: readonly CacheNames[],
    private readonly shape: CacheShape,
  ) {
    this.host = caches.flatMap(() => [new Float32Array(0), new Float32Array(0)]);
    this.onDevice = keepsCachesOnDevice(session);
    // On the CPU provider the past inputs are the host buffers, read in place; on a device they are device tensors
    // (counted as 0 bytes by TimedSession) except at the upload.
    this.resident = new Set(this.onDevice ? [] : caches.flatMap((c) => [c.pastKey, c.pastValue]));
  }

  get length(): number {
    return this.valid;
  }

  /** Whether the caches are device tensors now (after the first run on a device provider). */
  get residentOnDevice(): boolean {
    return this.device !== null;
  }

  reset(capacity: number): void {
    this.valid = 0;
    this.filled = 0;
    // A buffer holding another page's rows is reused as is: rows past the valid length are never read.
    if (capacity > this.capacity) this.allocate(capacity, false);
  }

  async forward(inputs: Record<string, Tensor>, count: number, outputs: readonly string[]): Promise<Record<string, Tensor>> {
    if (this.valid + count > this.capacity) {
      if (this.device) throw new Error(`KV cache full on the device (${this.capacity} positions, ${this.valid + count} needed): reserve the page's capacity with reset()`);
      this.allocate(Math.max(this.valid + count, 2 * this.capacity), true);
    }
    const { feeds } = this;
    const fetches = this.fetches.for(outputs);
    for (const name in inputs) feeds[name] = inputs[name]!;
    const total = this.valid + count;
    feeds[sharedBufferInputs.seqlensK] = int32Tensor([total - 1], [1]);
    feeds[sharedBufferInputs.totalSequenceLength] = int32Tensor([total], []);
    const dims = [1, this.shape.heads, this.capacity, this.shape.headDim];
    const uploading = this.onDevice && !this.device;
    for (let i = 0; i < this.caches.length; i++) {
      const c = this.caches[i]!;
      for (const [j, past, present] of [[0, c.pastKey, c.presentKey], [1, c.pastValue, c.presentValue]] as const) {
        const slot = 2 * i + j;
        if (this.device) {
          // Device-resident: the same tensor is the past and the pre-allocated present (in place).
          feeds[past] = this.device[slot]!;
          fetches[present] = this.device[slot]!;
        } else {
          const tensor = floatTensor(this.host[slot]!, dims);
          feeds[past] = tensor;
          // Host: the same buffer in and out (GroupQueryAttention's shared buffer). Upload: the runtime allocates the
          // present on the device (preferredOutputLocation 'gpu-buffer'), and that tensor is kept.
          fetches[present] = uploading ? null : tensor;
        }
      }
    }
    const out = await this.session.run(feeds, fetches, this.resident);
    if (uploading) this.device = this.caches.flatMap((c) => [out[c.presentKey]!, out[c.presentValue]!]);
    this.valid = total;
    return out;
  }

  truncate(length: number): void {
    if (length > this.valid) throw new Error(`cannot grow a KV cache by truncation (${this.valid} → ${length})`);
    this.valid = length;
  }

  /** Benchmarks (see CachedModel.fill): synthetic rows in the host buffers, uploaded by the next run on a device. */
  fill(length: number, spare: number, make: (size: number) => Float32Array): void {
    this.release();
    this.reset(length + spare);
    const { heads, headDim } = this.shape;
    for (const buffer of this.host) {
      const rows = make(length * headDim * heads);
      for (let h = 0; h < heads; h++) buffer.set(rows.subarray(h * length * headDim, (h + 1) * length * headDim), h * this.capacity * headDim);
    }
    this.valid = length;
    this.filled = length;
  }

  seek(length: number): void {
    if (length > this.filled) throw new Error(`seek(${length}) beyond the ${this.filled} synthetic positions`);
    this.valid = length;
  }

  /** Frees the device tensors (the next run uploads the host buffers again). */
  release(): void {
    for (const tensor of this.device ?? []) tensor.dispose();
    this.device = null;
  }

  private allocate(capacity: number, keep: boolean): void {
    this.release();
    const { heads, headDim } = this.shape;
    const old = this.capacity;
    this.host = this.host.map((buffer) => {
      const grown = new Float32Array(heads * capacity * headDim);
      // BNSH: each head's valid rows move to the head's new block.
      if (keep) for (let h = 0; h < heads; h++) grown.set(buffer.subarray(h * old * headDim, (h * old + this.valid) * headDim), h * capacity * headDim);
      return grown;
    });
    if (keep) this.grows++;
    this.capacity = capacity;
  }
}
