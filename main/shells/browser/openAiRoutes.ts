/**
 * `/v1/chat/completions` and `/v1/models` on the browser shell's server (`recto serve --pack DIR`): the local
 * jina-ocr-v1 runtime behind the OpenAI-compatible API that vLLM speaks, so Recto's remote engine, a team's batch runs
 * or any OpenAI client can read pages through one workstation's GPU.
 *
 * Every request is checked before any work: the per-launch token as a Bearer token, JSON of bounded size, the
 * chat-completions schema (the same zod schema the remote engine is tested against), the served model's name, and one
 * user message with one page image as a `data:` URL (this server fetches nothing) that sharp can read. A bad request
 * gets a 4xx with an OpenAI-style error body; an engine failure a 500 (or an error event inside a stream).
 * A client that hangs up cancels its page. Pages are read one at a time by the engine's worker; requests beyond
 * MAX_WAITING get 429 with Retry-After, so clients back off instead of piling up.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import type { ReadOptions } from '../../../app/model/engine.js';
import { chatCompletionRequestSchema, type ChatCompletionRequest } from '../../../native-models/remote/index.js';
import { modelIdFromPath, stopStrings, StopSequences, unsupportedParameter } from './v1Parameters.js';

/** The engine side: a page image and a prompt in, the model's raw text (grounding tags kept) out. */
export interface ChatModel {
  readText(
    imagePath: string,
    label: string,
    request: { prompt?: string; maxNewTokens?: number },
    options?: ReadOptions,
  ): Promise<{ text: string; tokens: number; promptTokens: number; hitMaxTokens: boolean }>;
}

export interface OpenAiRoutesOptions {
  /** The name clients must ask for (and /v1/models lists). */
  modelId: string;
  /** Licence of the weights, listed with the model. */
  licence: string | null;
  /** The engine, started on first use. */
  model: () => Promise<ChatModel>;
  /** Where request images are written while they are read (emptied as each request ends). */
  scratchDir: string;
}

/** Handles a request if it is one of these routes; false otherwise. */
export type ExtraRoutes = (request: http.IncomingMessage, response: http.ServerResponse, url: URL, isToken: (candidate: string | null | undefined) => boolean) => Promise<boolean>;

/** A page image as base64 (~4/3 of its bytes): pages render to a few MB; 48 MB leaves room for 600-dpi scans. */
const MAX_BODY_BYTES = 48 * 1024 * 1024;
/** Larger images are refused before decoding (a decompression bomb in a PNG header must not reach the encoder). */
const MAX_IMAGE_PIXELS = 100_000_000;
/** Requests queued behind the one being read before new ones are told to come back later. */
const MAX_WAITING = 64;
/** What a 429 asks the client to wait, in seconds. */
const RETRY_AFTER_S = 2;
const DATA_URL = /^data:image\/(png|jpeg|jpg|webp|tiff|gif);base64,/i;

export function openAiRoutes(options: OpenAiRoutesOptions): ExtraRoutes {
  let inFlight = 0;
  const created = Math.floor(Date.now() / 1000);
  fs.mkdirSync(options.scratchDir, { recursive: true });

  return async (request, response, url, isToken) => {
    if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return false;
    const bearer = (request.headers.authorization ?? '').match(/^Bearer\s+(.+)$/i)?.[1];
    if (!isToken(bearer)) return refuse(response, 401, 'invalid_api_key', 'Bearer token required: the per-launch token that `recto serve` printed');

    const model = { id: options.modelId, object: 'model', created, owned_by: 'recto', licence: options.licence };
    if (url.pathname === '/v1/models') {
      if (request.method !== 'GET') return refuse(response, 405, 'method_not_allowed', 'GET only');
      sendJson(response, 200, { object: 'list', data: [model] });
      return true;
    }
    // GET /v1/models/{id}: what the OpenAI SDK's models.retrieve() asks (v1Parameters.ts).
    const modelId = modelIdFromPath(url.pathname);
    if (modelId !== null) {
      if (request.method !== 'GET') return refuse(response, 405, 'method_not_allowed', 'GET only');
      if (modelId !== options.modelId) return refuse(response, 404, 'model_not_found', `The model "${modelId}" does not exist here; this server runs "${options.modelId}"`);
      sendJson(response, 200, model);
      return true;
    }
    if (url.pathname !== '/v1/chat/completions') return refuse(response, 404, 'not_found', `No route ${url.pathname}; this server answers /v1/models, /v1/models/{id} and /v1/chat/completions`);
    if (request.method !== 'POST') return refuse(response, 405, 'method_not_allowed', 'POST only');
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return refuse(response, 415, 'unsupported_media_type', 'Content-Type must be application/json');

    const body = await readBody(request, MAX_BODY_BYTES);
    if (body === null) return refuse(response, 413, 'request_too_large', `Request body over ${MAX_BODY_BYTES / 1024 / 1024} MB`);
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return refuse(response, 400, 'invalid_json', 'Request body is not JSON');
    }
    const parsed = chatCompletionRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(response, 400, 'invalid_request', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
    }
    const chat = parsed.data;
    const unsupported = unsupportedParameter(json as Record<string, unknown>);
    if (unsupported) return refuse(response, 400, 'unsupported_parameter', unsupported);
    if (chat.model !== options.modelId) return refuse(response, 404, 'model_not_found', `The model "${chat.model}" does not exist here; this server runs "${options.modelId}"`);
    const page = pageOf(chat);
    if (typeof page === 'string') return refuse(response, 400, 'invalid_request', page);
    const image = Buffer.from(page.base64, 'base64');
    try {
      const meta = await sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
      if (!meta.width || !meta.height) throw new Error('no size');
    } catch (error) {
      return refuse(response, 400, 'invalid_image', `The image cannot be read (${(error as Error).message})`);
    }
    if (inFlight > MAX_WAITING) {
      response.setHeader('retry-after', String(RETRY_AFTER_S));
      return refuse(response, 429, 'rate_limited', `${inFlight} pages are waiting; try again shortly`);
    }

    inFlight += 1;
    const file = path.join(options.scratchDir, `${randomUUID()}.img`);
    const controller = new AbortController();
    // A client that hangs up before the answer is complete cancels its page.
    response.on('close', () => {
      if (!response.writableFinished) controller.abort();
    });
    try {
      fs.writeFileSync(file, image);
      const stream = chat.stream === true;
      const answer = new AnswerWriter(response, chat.model, stream, chat.stream_options?.include_usage === true);
      const stops = new StopSequences(stopStrings((json as { stop?: unknown }).stop));
      try {
        const engine = await options.model();
        const result = await engine.readText(file, 'chat request', { prompt: `<image>\n${page.prompt}`, maxNewTokens: chat.max_completion_tokens ?? chat.max_tokens }, {
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'token') answer.text(stops.push(event.text));
          },
        });
        const ended = stops.finish(result.text);
        answer.finish(ended.text, ended.stopped || !result.hitMaxTokens ? 'stop' : 'length', { prompt_tokens: result.promptTokens, completion_tokens: result.tokens, total_tokens: result.promptTokens + result.tokens });
      } catch (error) {
        if (controller.signal.aborted) return true;
        answer.error(error instanceof Error ? error.message : String(error));
      }
    } finally {
      inFlight -= 1;
      fs.rmSync(file, { force: true });
    }
    return true;
  };
}

/** The page image and the prompt text of a one-page request, or why the request is not one. */
function pageOf(chat: ChatCompletionRequest): { base64: string; prompt: string } | string {
  const oneUser = 'this server reads one page per request: one user message with one image_url part and the prompt as text';
  if (chat.messages.length !== 1 || chat.messages[0]!.role !== 'user') return `messages: ${oneUser}`;
  const content = chat.messages[0]!.content;
  if (typeof content === 'string') return `messages.0.content: no image; ${oneUser}`;
  const images = content.filter((part) => part.type === 'image_url');
  if (images.length !== 1) return `messages.0.content: ${images.length} images; ${oneUser}`;
  const url = images[0]!.type === 'image_url' ? images[0]!.image_url.url : '';
  const match = url.match(DATA_URL);
  if (!match) return 'messages.0.content: the image must be a data:image/…;base64 URL (this server fetches nothing)';
  const prompt = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  if (prompt.includes('<image>')) return 'messages.0.content: the prompt text must not contain <image> (the image part places it)';
  return { base64: url.slice(match[0].length), prompt };
}

/** Writes the answer as one JSON object, or as chat.completion.chunk events ending with [DONE]. */
class AnswerWriter {
  private readonly id = `chatcmpl-${randomUUID()}`;
  private readonly created = Math.floor(Date.now() / 1000);
  private sent = '';
  private started = false;

  constructor(
    private readonly response: http.ServerResponse,
    private readonly model: string,
    private readonly stream: boolean,
    private readonly includeUsage: boolean,
  ) {}

  text(piece: string): void {
    if (!this.stream || !piece) return;
    this.start();
    this.sent += piece;
    this.event({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }

  finish(text: string, finishReason: 'stop' | 'length', usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number }): void {
    if (!this.stream) {
      sendJson(this.response, 200, {
        id: this.id,
        object: 'chat.completion',
        created: this.created,
        model: this.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }],
        usage,
      });
      return;
    }
    this.start();
    // The streamed pieces are the decoded text as it came; anything the detokenizer still held goes out now.
    const rest = text.startsWith(this.sent) ? text.slice(this.sent.length) : '';
    this.event({ choices: [{ index: 0, delta: rest ? { content: rest } : {}, finish_reason: finishReason }] });
    if (this.includeUsage) this.event({ choices: [], usage });
    this.response.end('data: [DONE]\n\n');
  }

  error(message: string): void {
    if (!this.started) return fail(this.response, 500, 'engine_error', message);
    this.response.end(`data: ${JSON.stringify({ error: { message, type: 'server_error', code: 'engine_error' } })}\n\n`);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    this.event({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  }

  private event(fields: Record<string, unknown>): void {
    this.response.write(`data: ${JSON.stringify({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, ...fields })}\n\n`);
  }
}

/** Answers with an error and says the request was handled. */
function refuse(response: http.ServerResponse, status: number, code: string, message: string): true {
  fail(response, status, code, message);
  return true;
}

function fail(response: http.ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code } });
}

function sendJson(response: http.ServerResponse, status: number, value: unknown): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...(response.getHeader('retry-after') ? { 'retry-after': String(response.getHeader('retry-after')) } : {}) });
  response.end(JSON.stringify(value));
}

/** The body, or null once it passes `limit` (the rest is drained, not kept). */
function readBody(request: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
