/**
 * RemoteEngine: reads pages through OpenAI-compatible chat-completions servers (vLLM serving jina-ocr-v1, or
 * `recto serve --pack`). Per page: (1) the page image as base64 PNG with jina-ocr-v1's grounding prompt, (2) a slot
 * on the endpoint with the most free capacity, (3) one streamed attempt, (4) on a retryable failure a backoff with
 * jitter (or the server's Retry-After) and another attempt, preferably elsewhere, (5) the text through the same
 * grounding parser as the local engine, so both give the same Extraction for the same text. The engine run records
 * the endpoint, the model and the timings; never the API key.
 */
import { readFile } from 'node:fs/promises';
import type { Engine, EngineDescriptor, EndpointStatus, PageInput, ReadOptions } from '../../app/model/engine.js';
import type { Extraction } from '../../app/model/extraction.js';
import { groundedExtraction } from '../../app/grounding/groundedExtraction.js';
import { chatAttempt, chatCompletionsUrl, firstListedModel, modelsUrl, type ChatAnswer } from './chatClient.js';
import { pageChatRequest } from './chatRequest.js';
import { endpointForStorage, scrubSecrets } from '../../app/model/secrets.js';
import { EndpointPool } from './endpointPool.js';
import { defaultRetryPolicy, isRetryable, retryDelayMs, type RetryPolicy } from './retryPolicy.js';

export const REMOTE_ENGINE_ID = 'remote';
export const REMOTE_ENGINE_VERSION = '0.1.0';
/** The model name vLLM serves jina-ocr-v1 under when started as `vllm serve jinaai/jina-ocr-v1`. */
export const DEFAULT_REMOTE_MODEL = 'jinaai/jina-ocr-v1';

export interface RemoteEngineOptions {
  /** Base URLs (`http://gpu1:8000`, `…/v1`, or the full chat-completions URL). */
  endpoints: string[];
  /** The served model's name; when absent, the first one each endpoint lists at /v1/models. */
  model?: string;
  /** Sent as `Authorization: Bearer …`; kept in memory only (a function: looked up per request, e.g. a keychain). */
  apiKey?: string | (() => string | undefined);
  /** Requests in flight per endpoint (vLLM batches them; its throughput grows up to ~32 on one GPU). */
  concurrency?: number;
  /** One attempt, connection to last byte. */
  timeoutMs?: number;
  /** Longest silence within a streamed answer. */
  idleTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Streamed answers (default) or one JSON object per page. */
  stream?: boolean;
  /** Left to the server when absent. */
  maxTokens?: number;
  /** Licence of the weights the servers run, when known (recorded in every extraction). */
  licence?: string | null;
  /** Tests: a fixed random source for the jitter. */
  random?: () => number;
}

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 300_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export class RemoteEngine implements Engine {
  readonly descriptor: EngineDescriptor;
  private readonly pool: EndpointPool | null;
  private readonly model: string | undefined;
  private readonly listedModels = new Map<string, Promise<string>>();
  private readonly urls: Map<string, string>;
  private readonly policy: RetryPolicy;
  private readonly wakeups = new Set<() => void>();

  constructor(private readonly options: RemoteEngineOptions) {
    this.model = options.model;
    this.policy = { ...defaultRetryPolicy, ...options.retry };
    const base = { id: REMOTE_ENGINE_ID, version: REMOTE_ENGINE_VERSION, licence: options.licence ?? null };
    const problems: string[] = [];
    this.urls = new Map();
    for (const endpoint of options.endpoints) {
      try {
        const url = chatCompletionsUrl(endpoint);
        if (!/^https?:$/.test(new URL(url).protocol)) throw new Error('not http or https');
        this.urls.set(endpoint, url);
      } catch (error) {
        problems.push(`${endpointForStorage(endpoint)}: not an endpoint URL (${scrubSecrets((error as Error).message, [this.apiKey()])})`);
      }
    }
    const name = `${this.model ?? 'remote model'} via ${describeEndpoints(options.endpoints)}`;
    if (problems.length > 0 || options.endpoints.length === 0) {
      this.descriptor = { ...base, name, available: false, unavailableReason: problems.join('; ') || 'no endpoint configured' };
      this.pool = null;
    } else {
      this.descriptor = { ...base, name, available: true };
      const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
      this.pool = new EndpointPool(options.endpoints.map((url) => ({ url, concurrency })));
    }
  }

  get parallelism(): number {
    return this.pool?.capacity ?? 1;
  }

  endpointStatus(): EndpointStatus[] {
    return this.pool?.health() ?? [];
  }

  async read(input: PageInput, options: ReadOptions = {}): Promise<Extraction> {
    const pool = this.pool;
    if (!pool) throw new Error(`${input.label}: the remote engine is not available (${this.descriptor.unavailableReason})`);
    const start = performance.now();
    let png: Buffer;
    try {
      png = await readFile(input.imagePath);
    } catch (error) {
      throw new Error(`${input.label}: cannot read the page image ${input.imagePath} (${(error as Error).message})`);
    }
    const stream = this.options.stream ?? true;
    const failedOn = new Set<string>();
    const failures: { endpoint: string; message: string }[] = [];
    const signal = options.signal;

    // (2)–(4): attempts until one answers, the failure is final, or the retries are spent.
    for (let retry = 0; ; retry++) {
      if (signal?.aborted) throw abortError(input.label);
      const queuedAt = performance.now();
      const lease = await pool.acquire(failedOn, signal).catch(() => {
        throw abortError(input.label);
      });
      const queuedMs = performance.now() - queuedAt;
      options.onEvent?.({ type: 'progress', fraction: 0, message: `reading on ${lease.url}${retry > 0 ? ` (attempt ${retry + 1})` : ''}` });
      let answer: ChatAnswer;
      let model = this.model ?? '';
      try {
        model = await this.modelFor(lease.url, signal);
        const body = pageChatRequest({ model, png, stream, maxTokens: this.options.maxTokens });
        answer = await chatAttempt({
          url: this.urls.get(lease.url)!,
          body,
          apiKey: this.apiKey(),
          timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          idleTimeoutMs: this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
          signal,
          onText: (text) => options.onEvent?.({ type: 'token', text }),
        });
      } catch (error) {
        if (signal?.aborted) {
          lease.release('cancelled');
          throw abortError(input.label);
        }
        // An upstream error body may echo the request's Authorization header: scrubbed before it is kept anywhere.
        const message = scrubSecrets(error instanceof Error ? error.message : String(error), [this.apiKey()]);
        const again = isRetryable(error) && retry < this.policy.retries;
        const delay = retryDelayMs(retry, error, this.policy, this.options.random);
        lease.release({ error: message, restMs: delay });
        failures.push({ endpoint: endpointForStorage(lease.url), message });
        failedOn.add(lease.url);
        if (!again) throw new Error(`${input.label}: ${failureSummary(failures, isRetryable(error))}`);
        options.onEvent?.({ type: 'progress', fraction: 0, message: `${endpointForStorage(lease.url)}: ${message}; trying again in ${(delay / 1000).toFixed(1)} s` });
        await this.sleep(delay, signal);
        continue;
      }
      lease.release('answered');
      return this.extraction(input, answer, { endpoint: lease.url, model, attempts: retry + 1, queuedMs, start, stream }, options);
    }
  }

  /** The model to ask for: the configured one, or what the endpoint lists (asked once; a failure is asked again). */
  private modelFor(endpoint: string, signal?: AbortSignal): Promise<string> {
    if (this.model) return Promise.resolve(this.model);
    let listed = this.listedModels.get(endpoint);
    if (!listed) {
      listed = firstListedModel({ url: modelsUrl(this.urls.get(endpoint)!), apiKey: this.apiKey(), timeoutMs: this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, signal });
      listed.catch(() => this.listedModels.delete(endpoint));
      this.listedModels.set(endpoint, listed);
    }
    return listed;
  }

  private apiKey(): string | undefined {
    const key = this.options.apiKey;
    return typeof key === 'function' ? key() : key;
  }

  async dispose(): Promise<void> {
    for (const wake of this.wakeups) wake();
  }

  /** (5) The answer's text as an Extraction, with the run's endpoint, model and timings. */
  private extraction(
    input: PageInput,
    answer: ChatAnswer,
    run: { endpoint: string; model: string; attempts: number; queuedMs: number; start: number; stream: boolean },
    options: ReadOptions,
  ): Extraction {
    const hitMaxTokens = answer.finishReason === 'length';
    const tokens = answer.usage?.completion_tokens;
    const extraction = groundedExtraction({
      text: answer.text,
      page: { width: input.width, height: input.height },
      startedAt: run.start,
      stoppedShort: hitMaxTokens ? `the server stopped at its token limit: probable repetition` : undefined,
      engine: {
        id: REMOTE_ENGINE_ID,
        name: `${answer.model || run.model} (remote)`,
        version: REMOTE_ENGINE_VERSION,
        packSha256: null,
        licence: this.options.licence ?? null,
        provider: 'remote',
        settings: {
          endpoint: endpointForStorage(run.endpoint),
          model: answer.model || run.model,
          requestedModel: run.model,
          stream: run.stream,
          attempts: run.attempts,
          finishReason: answer.finishReason,
          promptTokens: answer.usage?.prompt_tokens ?? null,
          timings: { queuedMs: round(run.queuedMs), headersMs: round(answer.timings.headersMs), firstTextMs: answer.timings.firstTextMs === null ? null : round(answer.timings.firstTextMs), requestMs: round(answer.timings.totalMs) },
        },
      },
      stats: {
        ...(tokens !== undefined ? { tokens, tokensPerSecond: answer.timings.totalMs > 0 ? (tokens / answer.timings.totalMs) * 1000 : 0 } : {}),
        hitMaxTokens,
      },
    });
    options.onEvent?.({ type: 'stats', stats: extraction.stats });
    return extraction;
  }

  /** A backoff that a cancel or dispose ends early. */
  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wakeups.delete(done);
        resolve();
      };
      const timer = setTimeout(done, signal?.aborted ? 0 : ms);
      signal?.addEventListener('abort', done, { once: true });
      this.wakeups.add(done);
    });
  }
}

/** The per-page error: what each endpoint last said, and whether retrying was tried or pointless. */
function failureSummary(failures: { endpoint: string; message: string }[], wasRetryable: boolean): string {
  const last = new Map<string, string>();
  for (const { endpoint, message } of failures) last.set(endpoint, message);
  const detail = [...last].map(([endpoint, message]) => `${endpoint}: ${message}`).join('; ');
  if (!wasRetryable) return `the server refused the page (${detail})`;
  const where = last.size === 1 ? [...last.keys()][0] : `any of ${last.size} endpoints`;
  return `no answer from ${where} after ${failures.length} attempt${failures.length === 1 ? '' : 's'} (${detail})`;
}

function describeEndpoints(endpoints: string[]): string {
  const hosts = endpoints.map((endpoint) => {
    try {
      return new URL(endpoint).host;
    } catch {
      return endpoint;
    }
  });
  return hosts.length <= 2 ? hosts.join(', ') || 'no endpoint' : `${hosts[0]} and ${hosts.length - 1} more`;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function abortError(label: string): Error {
  const error = new Error(`${label}: reading was cancelled`);
  error.name = 'AbortError';
  return error;
}
