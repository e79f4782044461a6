/**
 * One chat-completions request to one endpoint: POST the body, then read the answer — as server-sent events
 * (eventsource-parser) when streaming, as one JSON object otherwise — into the page's text. Every way it can fail
 * becomes a RemoteRequestError whose kind the retry policy judges: an HTTP status (with Retry-After), no connection or
 * a connection dropped before the answer ended, the per-request timeout, a stream gone silent, or an answer that is not
 * the API's shape.
 */
import { createParser } from 'eventsource-parser';
import { chatCompletionChunkSchema, chatCompletionSchema, modelListSchema, type ChatCompletionRequest, type Usage } from './openAiSchema.js';
import { serverErrorOf } from './errorShapes.js';
import { parseRetryAfter, RemoteRequestError } from './retryPolicy.js';

export interface ChatAttemptOptions {
  /** The chat-completions URL (see chatCompletionsUrl). */
  url: string;
  body: ChatCompletionRequest;
  apiKey?: string;
  /** The whole attempt, connection to last byte. */
  timeoutMs: number;
  /** Longest silence while the answer streams (vLLM sends a chunk per token, so silence means a stall). */
  idleTimeoutMs: number;
  signal?: AbortSignal;
  /** Text as it arrives (streaming only). */
  onText?: (text: string) => void;
}

export interface ChatAnswer {
  text: string;
  finishReason: string | null;
  /** The model name the server says it ran. */
  model: string;
  usage: Usage | null;
  /** From sending the request to the response headers, to the first text, and to the end. */
  timings: { headersMs: number; firstTextMs: number | null; totalMs: number };
}

/** `http://h:8000`, `http://h:8000/v1` and the full URL all name the same endpoint. */
export function chatCompletionsUrl(endpoint: string): string {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/chat/completions')) return url.href;
  url.pathname = path.endsWith('/v1') ? `${path}/chat/completions` : `${path}/v1/chat/completions`;
  return url.href;
}

export async function chatAttempt(options: ChatAttemptOptions): Promise<ChatAnswer> {
  const start = performance.now();
  const controller = new AbortController();
  let reason: RemoteRequestError | null = null;
  const stop = (error: RemoteRequestError) => {
    reason ??= error;
    controller.abort();
  };
  const total = setTimeout(() => stop(new RemoteRequestError('timeout', `no complete answer within ${seconds(options.timeoutMs)}`)), options.timeoutMs);
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop(new RemoteRequestError('timeout', `the answer stalled (nothing for ${seconds(options.idleTimeoutMs)})`)), options.idleTimeoutMs);
  };
  const onCallerAbort = () => {
    reason ??= new RemoteRequestError('connection', 'cancelled');
    controller.abort();
  };
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    touch();
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: options.body.stream ? 'text/event-stream' : 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify(options.body),
        signal: controller.signal,
      });
    } catch (error) {
      throw reason ?? new RemoteRequestError('connection', `cannot connect (${causeOf(error)})`);
    }
    const headersMs = performance.now() - start;
    if (!response.ok) throw await httpError(response);
    touch();
    const read = options.body.stream ? readStream(response, touch, options.onText) : readJson(response);
    let answer: Omit<ChatAnswer, 'timings'> & { firstTextMs: number | null };
    try {
      answer = await read(start);
    } catch (error) {
      if (reason) throw reason;
      if (error instanceof RemoteRequestError) throw error;
      throw new RemoteRequestError('connection', `the connection dropped during the answer (${causeOf(error)})`);
    }
    const { firstTextMs, ...rest } = answer;
    return { ...rest, timings: { headersMs, firstTextMs, totalMs: performance.now() - start } };
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

type Reader = (start: number) => Promise<Omit<ChatAnswer, 'timings'> & { firstTextMs: number | null }>;

function readStream(response: Response, touch: () => void, onText?: (text: string) => void): Reader {
  return async (start) => {
    let text = '';
    let model = '';
    let usage: Usage | null = null;
    let finishReason: string | null = null;
    let done = false;
    let firstTextMs: number | null = null;
    let bad: RemoteRequestError | null = null;
    const parser = createParser({
      onEvent: (event) => {
        if (bad) return;
        if (event.data === '[DONE]') {
          done = true;
          return;
        }
        let json: unknown;
        try {
          json = JSON.parse(event.data);
        } catch {
          bad = new RemoteRequestError('protocol', `a streamed event is not JSON: ${event.data.slice(0, 80)}`);
          return;
        }
        const error = serverErrorOf(json);
        if (error) {
          // vLLM reports a failure inside the stream as an error event (either shape: errorShapes.ts), with the status
          // it would have answered; without one it is a server failure (500), which is tried again.
          bad = new RemoteRequestError('http', `the server failed during the answer: ${error.message}`, error.status ?? 500);
          return;
        }
        const chunk = chatCompletionChunkSchema.safeParse(json);
        if (!chunk.success) {
          bad = new RemoteRequestError('protocol', `a streamed event is not a chat.completion.chunk (${chunk.error.issues[0]?.message ?? 'bad shape'})`);
          return;
        }
        model = chunk.data.model;
        if (chunk.data.usage) usage = chunk.data.usage;
        const choice = chunk.data.choices[0];
        const piece = choice?.delta.content ?? '';
        if (piece) {
          firstTextMs ??= performance.now() - start;
          text += piece;
          onText?.(piece);
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
      },
    });
    const decoder = new TextDecoder();
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      touch();
      parser.feed(decoder.decode(bytes, { stream: true }));
      if (bad) throw bad;
    }
    parser.feed(decoder.decode());
    if (bad) throw bad;
    // Without [DONE] or a finish reason the connection ended early: what came is a truncated page, not an answer.
    if (!done && finishReason === null) throw new RemoteRequestError('connection', `the connection dropped during the answer (after ${text.length} characters)`);
    return { text, model, usage, finishReason, firstTextMs };
  };
}

function readJson(response: Response): Reader {
  return async (start) => {
    const raw = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new RemoteRequestError('protocol', `the answer is not JSON: ${raw.slice(0, 80)}`);
    }
    const parsed = chatCompletionSchema.safeParse(json);
    if (!parsed.success) throw new RemoteRequestError('protocol', `the answer is not a chat.completion (${parsed.error.issues[0]?.message ?? 'bad shape'})`);
    const choice = parsed.data.choices[0]!;
    return {
      text: choice.message.content ?? '',
      model: parsed.data.model,
      usage: parsed.data.usage ?? null,
      finishReason: choice.finish_reason,
      firstTextMs: performance.now() - start,
    };
  };
}

async function httpError(response: Response): Promise<RemoteRequestError> {
  let detail = response.statusText;
  try {
    const body = await response.text();
    const parsed = serverErrorOf(JSON.parse(body));
    detail = parsed ? parsed.message : body.slice(0, 200) || detail;
  } catch {
    // no body, or not JSON: the status line says enough
  }
  return new RemoteRequestError('http', `HTTP ${response.status}${detail ? ` ${detail}` : ''}`, response.status, parseRetryAfter(response.headers.get('retry-after')));
}

/** undici hides the socket error in `cause` (ECONNREFUSED, UND_ERR_SOCKET, …). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${ms} ms`;
}

/** `…/v1/models` beside a chat-completions URL. */
export function modelsUrl(chatUrl: string): string {
  const url = new URL(chatUrl);
  url.pathname = url.pathname.replace(/\/chat\/completions$/, '/models');
  return url.href;
}

/** The first model the server lists (vLLM serves one per process). */
export async function firstListedModel(options: { url: string; apiKey?: string; timeoutMs: number; signal?: AbortSignal }): Promise<string> {
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  let response: Response;
  try {
    response = await fetch(options.url, { headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}, signal: AbortSignal.any(signals) });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new RemoteRequestError('timeout', `no model list within ${seconds(options.timeoutMs)}`);
    throw new RemoteRequestError('connection', `cannot connect (${causeOf(error)})`);
  }
  if (!response.ok) throw await httpError(response);
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new RemoteRequestError('protocol', `${options.url}: the model list is not JSON`);
  }
  const parsed = modelListSchema.safeParse(json);
  const id = parsed.success ? parsed.data.data[0]?.id : undefined;
  if (!id) throw new RemoteRequestError('protocol', `${options.url} lists no model; give one with --model`);
  return id;
}
