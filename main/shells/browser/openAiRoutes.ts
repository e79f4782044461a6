/**
 * `/v1/chat/completions` and `/v1/models` on the browser shell's server (`recto serve --pack DIR`): the local
 * jina-ocr-v1 runtime behind the OpenAI-compatible API that vLLM speaks, so Recto's remote engine, a team's batch runs
 * or any OpenAI client can read pages through one workstation's GPU.
 *
 * Every request is checked before any work: the per-launch /v1 key as a Bearer token (v1Auth.ts: never the RPC
 * token), its size and the server's load from its headers before the body is read (v1Limits.ts: 413, 429 with
 * Retry-After), JSON, the chat-completions schema (the same zod schema the remote engine is tested against), the served
 * model's name, one user message with one page image as a `data:` URL (this server fetches nothing) whose header gives
 * a size within the import's limits, and a prompt the model's positions can hold. A bad request gets a 4xx with an
 * OpenAI-style error body and a plain message; an engine failure a 500 whose message names no file (or an error event
 * inside a stream). A client that hangs up cancels its page. Pages are read one at a time by the engine's worker.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import type { ReadOptions } from '../../../app/model/engine.js';
import { chatCompletionRequestSchema, type ChatCompletionRequest } from '../../../native-models/remote/index.js';
import { PROMPT_TOO_LONG } from '../../../native-models/vlm/index.js';
import { bearerIs } from './v1Auth.js';
import { imageSizeProblem, MAX_BODY_BYTES, plainEngineMessage, promptLengthProblem, readBoundedBody, RETRY_AFTER_S, V1Admission } from './v1Limits.js';
import { modelIdFromPath, stopStrings, StopSequences, unsupportedParameter } from './v1Parameters.js';

/** The engine side: a page image and a prompt in, the model's raw text (grounding tags kept) out. */
export interface ChatModel {
  /** The pack's position table (prompt + image + answer), which bounds the prompt. */
  packInfo(): Promise<{ maxPositions: number }>;
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
  /** The per-launch /v1 key (v1Auth.ts); the only Bearer token these routes accept. */
  apiKey: string;
  /** Licence of the weights, listed with the model. */
  licence: string | null;
  /** The engine, started on first use. */
  model: () => Promise<ChatModel>;
  /** Where request images are written while they are read (emptied as each request ends). */
  scratchDir: string;
}

/**
 * Handles a request if it is one of these routes; false otherwise. The routes authorise requests themselves (the /v1
 * key): the server's RPC token is deliberately not handed to them.
 */
export type ExtraRoutes = (request: http.IncomingMessage, response: http.ServerResponse, url: URL) => Promise<boolean>;

const DATA_URL = /^data:image\/(png|jpeg|jpg|webp|tiff|gif);base64,/i;

export function openAiRoutes(options: OpenAiRoutesOptions): ExtraRoutes {
  const admission = new V1Admission();
  const created = Math.floor(Date.now() / 1000);
  fs.mkdirSync(options.scratchDir, { recursive: true });

  return async (request, response, url) => {
    if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return false;
    if (!bearerIs(request.headers.authorization, options.apiKey)) {
      return refuse(response, 401, 'invalid_api_key', 'Bearer token required: the /v1 API key that `recto serve` printed beside the /v1 URL');
    }

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

    // Size and load are judged from the headers, before a byte of the body is buffered.
    const admitted = admission.admit(request);
    if (!admitted.ok) {
      if (admitted.status === 429) response.setHeader('retry-after', String(RETRY_AFTER_S));
      response.setHeader('connection', 'close'); // the unread body is not drained
      return refuse(response, admitted.status, admitted.code, admitted.message);
    }
    try {
      return await answerChat(request, response, options);
    } finally {
      admitted.release();
    }
  };
}

/** One admitted chat-completions request: the body read within its limit, checked, then the page read. */
async function answerChat(request: http.IncomingMessage, response: http.ServerResponse, options: OpenAiRoutesOptions): Promise<true> {
  const body = await readBoundedBody(request, MAX_BODY_BYTES);
  if (body === 'aborted') {
    // A client that stops halfway is not an error of ours: one line, no stack.
    console.error(`recto: a /v1 request ended before its body was complete (the client hung up)`);
    return true;
  }
  if (body === 'too-large') {
    response.setHeader('connection', 'close');
    return refuse(response, 413, 'request_too_large', `Request body over ${MAX_BODY_BYTES / 1024 / 1024} MB`);
  }
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
  // What greedy decoding cannot honour is refused, never ignored (v1Parameters.ts).
  const unsupported = unsupportedParameter(json as Record<string, unknown>);
  if (unsupported) return refuse(response, 400, 'unsupported_parameter', unsupported);
  if (chat.model !== options.modelId) return refuse(response, 404, 'model_not_found', `The model "${chat.model}" does not exist here; this server runs "${options.modelId}"`);
  const page = pageOf(chat);
  if (typeof page === 'string') return refuse(response, 400, 'invalid_request', page);
  const image = Buffer.from(page.base64, 'base64');
  let size: { width: number; height: number };
  try {
    // The header only: sides, pixels and aspect are judged before anything is decoded.
    const meta = await sharp(image, { limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height) throw new Error('no size');
    size = { width: meta.width, height: meta.pageHeight ?? meta.height };
  } catch (error) {
    return refuse(response, 400, 'invalid_image', `The image cannot be read (${plainEngineMessage((error as Error).message)})`);
  }
  const tooBig = imageSizeProblem(size.width, size.height);
  if (tooBig) return refuse(response, 400, 'invalid_image', `${tooBig.charAt(0).toUpperCase()}${tooBig.slice(1)}`);

  const controller = new AbortController();
  // A client that hangs up before the answer is complete cancels its page.
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  let engine: ChatModel;
  try {
    engine = await options.model();
    const tooLong = promptLengthProblem(page.prompt, (await engine.packInfo()).maxPositions);
    if (tooLong) return refuse(response, 400, 'context_length_exceeded', `messages.0.content: ${tooLong}`);
  } catch (error) {
    return refuse(response, 503, 'engine_unavailable', plainEngineMessage(error instanceof Error ? error.message : String(error)));
  }
  const file = path.join(options.scratchDir, `${randomUUID()}.img`);
  try {
    fs.writeFileSync(file, image);
    const answer = new AnswerWriter(response, chat.model, chat.stream === true, chat.stream_options?.include_usage === true);
    const stops = new StopSequences(stopStrings((json as { stop?: unknown }).stop));
    try {
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
      const message = plainEngineMessage(error instanceof Error ? error.message : String(error));
      // The engine's exact count of prompt and image positions (pageReader.ts) is the client's doing, not ours.
      if (message.includes(`${PROMPT_TOO_LONG}:`)) answer.refused(400, 'context_length_exceeded', message);
      else answer.error(message);
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
  return true;
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

  /** A request the engine found it cannot serve (4xx before streaming, an error event after). */
  refused(status: number, code: string, message: string): void {
    if (!this.started) return fail(this.response, status, code, message);
    this.response.end(`data: ${JSON.stringify({ error: { message, type: 'invalid_request_error', code } })}\n\n`);
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
