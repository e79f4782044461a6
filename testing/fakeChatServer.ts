/**
 * A chat-completions server on 127.0.0.1 for tests, scripted per request: answers a page with grounding text derived
 * from the image's bytes (so each page has its own reading), or fails in a chosen way — an HTTP status (with
 * Retry-After), a connection dropped mid-stream, a stream that stalls. Records every request body.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Sends part of the streamed answer, then destroys the socket. */
  | { kind: 'drop' }
  /** Sends the headers and a first chunk, then nothing. */
  | { kind: 'stall' }
  /** Holds the request this long before answering normally. */
  | { kind: 'delay'; ms: number }
  /**
   * Starts the stream, then sends an error event in one of vLLM's shapes (native-models/remote/errorShapes.ts):
   * `nested` `{"error": {…, "code"}}`, `flat` (vLLM's older ErrorResponse) `{"object": "error", …, "code"}`.
   */
  | { kind: 'streamError'; shape: 'nested' | 'flat'; code: number }
  /** Answers with an HTTP status and vLLM's older flat error body. */
  | { kind: 'flatStatus'; status: number };

export interface FakeChatServer {
  url: string;
  /** Every request body, parsed, in arrival order. */
  requests: unknown[];
  /** Faults for the next requests, in order; requests beyond them are answered. */
  faults: Fault[];
  /** Bodies of the pages answered (not failed). */
  answered: number;
  close(): Promise<void>;
}

/** The reading the fake server gives a page: a title with the image's hash and a text block, both with boxes. */
export function fakeReading(imageBase64: string): string {
  const id = createHash('sha256').update(imageBase64).digest('hex').slice(0, 12);
  return `<|ref|>title<|/ref|><|det|>[[100, 50, 900, 120]]<|/det|>\n# Page ${id}\n\n<|ref|>text<|/ref|><|det|>[[100, 200, 900, 300]]<|/det|>\nTotal due: 42.00 EUR\n\n`;
}

export async function startFakeChatServer(options: { model?: string; /** Every answer waits this long. */ delayMs?: number } = {}): Promise<FakeChatServer> {
  const model = options.model ?? 'fake-ocr';
  const sockets = new Set<import('node:net').Socket>();
  const state = { requests: [] as unknown[], faults: [] as Fault[], answered: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url?.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'test' }] }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean; messages: { content: { type: string; image_url?: { url: string } }[] }[] };
      state.requests.push(body);
      const fault = state.faults.shift();
      const image = body.messages[0]?.content.find((part) => part.type === 'image_url')?.image_url?.url ?? '';
      const text = fakeReading(image.slice(image.indexOf(',') + 1));
      const answer = () => {
        state.answered += 1;
        if (!body.stream) {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 30, total_tokens: 40 } }));
          return;
        }
        streamHead(response);
        for (let i = 0; i < text.length; i += 16) chunk(response, { content: text.slice(i, i + 16) });
        chunk(response, {}, 'stop');
        response.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 30, total_tokens: 40 } })}\n\n`);
        response.end('data: [DONE]\n\n');
      };
      const chunk = (res: http.ServerResponse, delta: object, finish: string | null = null) =>
        res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      if (!fault) return options.delayMs ? void setTimeout(answer, options.delayMs) : answer();
      switch (fault.kind) {
        case 'status':
          response.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) });
          response.end(JSON.stringify({ error: { message: `scripted ${fault.status}`, type: 'server_error', code: fault.status } }));
          return;
        case 'drop':
          streamHead(response);
          chunk(response, { content: text.slice(0, 20) });
          setTimeout(() => request.socket.destroy(), 20);
          return;
        case 'stall':
          streamHead(response);
          chunk(response, { content: text.slice(0, 20) });
          return;
        case 'delay':
          setTimeout(answer, fault.ms);
          return;
        case 'streamError': {
          streamHead(response);
          chunk(response, { content: text.slice(0, 20) });
          const error = { message: `scripted ${fault.code} mid-stream`, type: fault.code >= 500 ? 'InternalServerError' : 'BadRequestError', param: null, code: fault.code };
          response.end(`data: ${JSON.stringify(fault.shape === 'nested' ? { error } : { object: 'error', ...error })}\n\n`);
          return;
        }
        case 'flatStatus':
          response.writeHead(fault.status, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ object: 'error', message: `scripted flat ${fault.status}`, type: 'BadRequestError', param: null, code: fault.status }));
          return;
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

function streamHead(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'x', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`);
}
