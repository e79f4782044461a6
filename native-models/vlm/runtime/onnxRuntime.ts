/**
 * The one module that imports onnxruntime-node: provider discovery and choice, session creation with fallback, and a
 * thin session wrapper that records how long was spent inside onnxruntime (for the benchmark's overhead figure).
 *
 * Providers of onnxruntime-node 1.30 (`listSupportedBackends()`): on Linux x64 `cpu` and `webgpu` are bundled
 * (WebGPU runs through Dawn on Vulkan), `cuda` / `tensorrt` need libraries from NuGet that are not bundled; on Windows
 * `dml` is bundled; on macOS `coreml`.
 *
 * What onnxruntime-node 1.30 does with tensors on CPU (measured, see docs/decoding.md): a CPU input is wrapped in
 * place (no copy), so a view of a larger buffer is read where it lies; a pre-allocated output passed in `fetches` is
 * written in place, but every fetched output is then copied once more into a fresh ArrayBuffer for the result. Hence
 * the decoding loop passes only small outputs as pre-allocated views, and counts the bytes each run moves.
 */
import * as ort from 'onnxruntime-node';

export type ProviderId = 'cpu' | 'cuda' | 'dml' | 'coreml' | 'webgpu' | 'tensorrt';
export type ProviderPreference = 'auto' | ProviderId;

/** Order tried by `auto`: the fastest usual choice first, CPU last. */
const AUTO_ORDER: ProviderId[] = ['cuda', 'dml', 'coreml', 'webgpu', 'cpu'];

export interface ProviderInfo {
  name: string;
  bundled: boolean;
}

export function supportedProviders(): ProviderInfo[] {
  return ort.listSupportedBackends().map((b) => ({ name: b.name, bundled: b.bundled }));
}

/**
 * The providers to try, in order, for a preference. `auto` only tries bundled GPU providers other than WebGPU
 * (WebGPU on Linux needs a Vulkan driver and is opt-in: ask for it by name); CPU always comes last.
 */
export function providerCandidates(preference: ProviderPreference, available = supportedProviders()): ProviderId[] {
  const names = new Set(available.map((p) => p.name));
  if (preference !== 'auto') return preference === 'cpu' ? ['cpu'] : [preference, 'cpu'];
  const bundled = new Set(available.filter((p) => p.bundled).map((p) => p.name));
  return AUTO_ORDER.filter((p) => p === 'cpu' || (bundled.has(p) && names.has(p) && p !== 'webgpu'));
}

export interface SessionOptions {
  provider: ProviderPreference;
  intraOpThreads?: number;
  /** Called once when a provider fails to load and the next one is used. */
  onFallback?: (message: string) => void;
  /**
   * Outputs that feed the next run (KV caches): kept on the device by providers that can (WebGPU:
   * `preferredOutputLocation: 'gpu-buffer'`), returned as GPU tensors instead of being copied to the host.
   */
  deviceOutputs?: readonly string[];
}

/** Providers whose outputs onnxruntime-node 1.30 can leave on the device ('gpu-buffer' tensors). */
const DEVICE_OUTPUT_PROVIDERS: ReadonlySet<ProviderId> = new Set(['webgpu']);

/** The session options for `provider`: the device outputs are marked 'gpu-buffer' where the provider keeps them. */
export function sessionOptionsFor(provider: ProviderId, options: Pick<SessionOptions, 'intraOpThreads' | 'deviceOutputs'>): ort.InferenceSession.SessionOptions {
  const deviceOutputs = DEVICE_OUTPUT_PROVIDERS.has(provider) ? (options.deviceOutputs ?? []) : [];
  return {
    executionProviders: [provider],
    graphOptimizationLevel: 'all',
    ...(options.intraOpThreads ? { intraOpNumThreads: options.intraOpThreads } : {}),
    ...(deviceOutputs.length > 0 ? { preferredOutputLocation: Object.fromEntries(deviceOutputs.map((name) => [name, 'gpu-buffer' as const])) } : {}),
  };
}

/** A session and the provider it ended up on. */
export class TimedSession {
  /** Milliseconds spent inside `session.run` since the last `resetTiming`. */
  ortMs = 0;
  runs = 0;
  /** Bytes of inputs handed to the runtime that are not resident buffers (see `run`), and of outputs it returned. */
  bytesToDevice = 0;
  bytesToHost = 0;

  constructor(
    private readonly session: ort.InferenceSession,
    readonly provider: ProviderId,
    readonly label: string,
  ) {}

  get inputNames(): readonly string[] {
    return this.session.inputNames;
  }

  get outputNames(): readonly string[] {
    return this.session.outputNames;
  }

  /**
   * Runs the graph. `fetches`: outputs to return (null: allocated by the runtime; a tensor: written into it).
   * `resident`: inputs that are views of buffers the runtime keeps between runs (KV caches) — not counted as moved.
   */
  async run(feeds: Record<string, ort.Tensor>, fetches?: Record<string, ort.Tensor | null>, resident?: ReadonlySet<string>): Promise<Record<string, ort.Tensor>> {
    // for…in rather than Object.entries/values: this bookkeeping runs on every step, and arrays made here are garbage.
    for (const name in feeds) if (!resident?.has(name)) this.bytesToDevice += byteSize(feeds[name]!);
    const start = performance.now();
    const out = fetches ? await this.session.run(feeds, fetches) : await this.session.run(feeds);
    this.ortMs += performance.now() - start;
    this.runs++;
    for (const name in out) this.bytesToHost += byteSize(out[name]!);
    return out;
  }

  resetTiming(): void {
    this.ortMs = 0;
    this.runs = 0;
    this.bytesToDevice = 0;
    this.bytesToHost = 0;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

/** A session over a graph file, or over its bytes (`source`); `path` names it in messages. */
export async function createSession(source: string | Uint8Array, path: string, label: string, options: SessionOptions): Promise<TimedSession> {
  const candidates = providerCandidates(options.provider);
  let lastError: unknown = null;
  for (const provider of candidates) {
    try {
      const sessionOptions = sessionOptionsFor(provider, options);
      const session =
        typeof source === 'string' ? await ort.InferenceSession.create(source, sessionOptions) : await ort.InferenceSession.create(source, sessionOptions);
      return new TimedSession(session, provider, label);
    } catch (error) {
      lastError = error;
      const next = candidates[candidates.indexOf(provider) + 1];
      if (next) options.onFallback?.(`execution provider ${provider} could not load ${label} (${firstLine(error)}); using ${next}`);
    }
  }
  throw new Error(`${path}: onnxruntime could not load this graph: ${firstLine(lastError)}`);
}

export function floatTensor(data: Float32Array, dims: readonly number[]): ort.Tensor {
  return new ort.Tensor('float32', data, dims);
}

function byteSize(tensor: ort.Tensor): number {
  return tensor.location === 'cpu' ? (tensor.data as ArrayBufferView).byteLength : 0;
}

export function int32Tensor(values: readonly number[], dims: readonly number[]): ort.Tensor {
  return new ort.Tensor('int32', Int32Array.from(values), dims);
}

export function int64Tensor(values: readonly number[], dims: readonly number[]): ort.Tensor {
  return new ort.Tensor('int64', BigInt64Array.from(values, (v) => BigInt(v)), dims);
}

export type { Tensor } from 'onnxruntime-node';

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 300);
}
