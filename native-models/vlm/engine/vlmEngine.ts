/**
 * VlmEngine: the jina-ocr-v1 family engine (DeepSeek-OCR encoder + MoE decoder + FastMTP draft block) behind the
 * Engine interface. The model runs in a worker thread (engineWorker.ts); this side relays its events, cancels it,
 * survives its crashes (the read fails with a clear message and the next read starts a fresh worker), and turns the
 * decoded text into an Extraction through the grounding parser in app/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Engine, EngineDescriptor, PageInput, ReadOptions } from '../../../app/model/engine.js';
import type { Extraction } from '../../../app/model/extraction.js';
import { groundedExtraction } from '../../../app/grounding/groundedExtraction.js';
import type { ImageModeName } from '../preprocess/imageModes.js';
import type { ProviderPreference } from '../runtime/onnxRuntime.js';
import type { FromWorker, ToWorker, WorkerInit } from './engineProtocol.js';
import type { DecoderKind, PackInfo, ReadSettings } from './pageReader.js';

export const VLM_ENGINE_ID = 'vlm';
export const VLM_ENGINE_VERSION = '0.1.0';

export interface VlmEngineOptions {
  packDir: string;
  provider?: ProviderPreference;
  decoder?: DecoderKind;
  draftDepth?: number;
  imageMode?: ImageModeName;
  maxNewTokens?: number;
  /** onnxruntime intra-op threads (default: onnxruntime's choice). */
  threads?: number;
}

interface PendingRead {
  id: number;
  label: string;
  resolve: (result: Extract<FromWorker, { type: 'done' }>['result']) => void;
  reject: (error: Error) => void;
  onEvent?: ReadOptions['onEvent'];
}

export class VlmEngine implements Engine {
  readonly descriptor: EngineDescriptor;
  private worker: Worker | null = null;
  private ready: Promise<PackInfo> | null = null;
  private readonly pending = new Map<number, PendingRead>();
  private nextId = 1;

  constructor(private readonly options: VlmEngineOptions) {
    this.descriptor = describePack(options.packDir);
  }

  async read(input: PageInput, options: ReadOptions = {}): Promise<Extraction> {
    const start = performance.now();
    const { result, info, settings } = await this.decode(input.imagePath, input.label, {}, options);
    const extraction = groundedExtraction({
      text: result.text,
      page: { width: input.width, height: input.height },
      startedAt: start,
      warnings: info.warnings,
      stoppedShort: result.hitMaxTokens ? `decoding stopped at ${settings.maxNewTokens} tokens: probable repetition` : undefined,
      engine: {
        id: VLM_ENGINE_ID,
        name: `${info.name} (${settings.decoder === 'fastmtp' ? `FastMTP K=${settings.draftDepth}` : 'greedy'})`,
        version: `${VLM_ENGINE_VERSION}+${info.version}`,
        packSha256: info.manifestSha256,
        licence: info.licence,
        provider: info.provider,
        settings: { ...settings, visualTokens: result.visualTokens, promptTokens: result.promptTokens },
      },
      stats: {
        tokens: result.tokens,
        tokensPerSecond: result.decodeMs > 0 ? (result.tokens / result.decodeMs) * 1000 : 0,
        ...(result.meanAcceptedLength !== undefined ? { meanAcceptedLength: result.meanAcceptedLength, acceptancePerPosition: result.acceptancePerPosition } : {}),
        hitMaxTokens: result.hitMaxTokens,
      },
    });
    options.onEvent?.({ type: 'stats', stats: extraction.stats });
    return extraction;
  }

  /**
   * The model's raw text for a page image (grounding tags kept), for serving the engine over the chat-completions
   * API. `prompt` replaces the pack's (with `<image>` where the visual tokens go); `maxNewTokens` is capped at the
   * pack's default.
   */
  async readText(
    imagePath: string,
    label: string,
    request: { prompt?: string; maxNewTokens?: number },
    options: ReadOptions = {},
  ): Promise<{ text: string; tokens: number; promptTokens: number; hitMaxTokens: boolean; info: PackInfo }> {
    const { result, info } = await this.decode(imagePath, label, request, options);
    return { text: result.text, tokens: result.tokens, promptTokens: result.promptTokens, hitMaxTokens: result.hitMaxTokens, info };
  }

  /** The pack's name, licence and defaults (starts the worker). */
  async packInfo(): Promise<PackInfo> {
    return this.start('model pack');
  }

  /** One page through the worker: relays its events, cancels it on abort. */
  private async decode(
    imagePath: string,
    label: string,
    request: { prompt?: string; maxNewTokens?: number },
    options: ReadOptions,
  ): Promise<{ result: Extract<FromWorker, { type: 'done' }>['result']; info: PackInfo; settings: ReadSettings }> {
    if (!this.descriptor.available) throw new Error(`${label}: the VLM engine is not available (${this.descriptor.unavailableReason})`);
    if (options.signal?.aborted) throw abortError(label);
    const info = await this.start(label);
    const packMax = this.options.maxNewTokens ?? info.defaults.maxNewTokens;
    const settings: ReadSettings = {
      imageMode: this.options.imageMode ?? info.defaults.imageMode,
      decoder: this.options.decoder ?? 'fastmtp',
      draftDepth: this.options.draftDepth ?? info.defaults.draftDepth,
      maxNewTokens: request.maxNewTokens ? Math.min(request.maxNewTokens, packMax) : packMax,
      ...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
    };
    const id = this.nextId++;
    const cancelFlag = new SharedArrayBuffer(4);
    const onAbort = () => Atomics.store(new Int32Array(cancelFlag), 0, 1);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await new Promise<Extract<FromWorker, { type: 'done' }>['result']>((resolve, reject) => {
        this.pending.set(id, { id, label, resolve, reject, onEvent: options.onEvent });
        this.post({ type: 'read', id, imagePath, settings, cancelFlag });
      });
      if (result.cancelled) throw abortError(label);
      return { result, info, settings };
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      this.pending.delete(id);
    }
  }

  /** Test hook: kills the worker as a native crash would. */
  crashWorkerForTest(): void {
    this.post({ type: 'crash-for-test' });
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }

  /** Starts the worker once; a worker that died is replaced on the next read. */
  private start(label: string): Promise<PackInfo> {
    if (this.ready) return this.ready;
    const init: WorkerInit = { packDir: this.options.packDir, provider: this.options.provider ?? 'auto', threads: this.options.threads };
    const worker = startWorker(init);
    this.worker = worker;
    this.ready = new Promise<PackInfo>((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') return resolve(message.info);
        if (message.type === 'open-failed') return reject(new Error(`${label}: cannot open model pack: ${message.message}`));
        this.onWorkerMessage(message);
      });
      const died = (reason: string) => {
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
        reject(new Error(`${label}: the VLM engine worker stopped before it was ready (${reason})`));
        for (const read of this.pending.values()) read.reject(new Error(`${read.label}: the VLM engine crashed (${reason}); the app is unaffected, try again`));
        this.pending.clear();
      };
      worker.on('error', (error) => died(error.message));
      worker.on('exit', (code) => died(`worker exited with code ${code}`));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private onWorkerMessage(message: FromWorker): void {
    if (!('id' in message)) return;
    const read = this.pending.get(message.id);
    if (!read) return;
    switch (message.type) {
      case 'text':
        read.onEvent?.({ type: 'token', text: message.text });
        break;
      case 'progress':
        read.onEvent?.({ type: 'progress', fraction: message.fraction, message: message.message });
        break;
      case 'stats': {
        const s = message.stats;
        read.onEvent?.({
          type: 'stats',
          stats: {
            durationMs: s.elapsedMs,
            tokens: s.tokens,
            tokensPerSecond: s.tokensPerSecond,
            ...(s.meanAcceptedLength !== undefined ? { meanAcceptedLength: s.meanAcceptedLength, acceptancePerPosition: s.acceptancePerPosition } : {}),
          },
        });
        break;
      }
      case 'done':
        read.resolve(message.result);
        break;
      case 'failed':
        read.reject(new Error(`${read.label}: ${message.message}`));
        break;
    }
  }

  private post(message: ToWorker): void {
    this.worker?.postMessage(message);
  }
}

/** Reads the manifest for the descriptor without loading any graph. */
function describePack(packDir: string): EngineDescriptor {
  const base = { id: VLM_ENGINE_ID, name: 'jina-ocr-v1 (FastMTP)', version: VLM_ENGINE_VERSION, licence: null };
  const manifestPath = join(packDir, 'manifest.json');
  if (!existsSync(manifestPath)) return { ...base, available: false, unavailableReason: `${manifestPath} not found` };
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: string; version?: string; licence?: string };
    return { ...base, name: `${manifest.name ?? 'model pack'} (FastMTP)`, licence: manifest.licence ?? null, available: true };
  } catch (error) {
    return { ...base, available: false, unavailableReason: `${manifestPath}: ${(error as Error).message}` };
  }
}

/**
 * Compiled code runs engineWorker.js. Under tsx / vitest this module is .ts: the worker then boots through tsx's
 * `tsImport` (on Node 20, `execArgv: ['--import', 'tsx']` does not reach a worker's entry module).
 */
function startWorker(init: WorkerInit): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./engineWorker.js', import.meta.url), { workerData: init });
  // The ESM build of tsx's API (its CJS build does not load from an eval worker).
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./engineWorker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true, workerData: init });
}

function abortError(label: string): Error {
  const error = new Error(`${label}: reading was cancelled`);
  error.name = 'AbortError';
  return error;
}
