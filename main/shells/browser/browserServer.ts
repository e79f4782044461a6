/**
 * The browser shell: the contract on 127.0.0.1 — requests over HTTP or over the WebSocket that carries the events
 * (socketRequests.ts), events over that WebSocket — and the built renderer.
 *
 * Guarded by a random per-launch token, or in team mode by personal tokens (requestAccess.ts). HTTP requests carry
 * it in the `x-recto-token` header, which a page from another origin cannot set without a CORS preflight that this
 * server never answers; the page image and event URLs carry a credential as a query parameter because <img> and
 * WebSocket cannot send headers. The Host header must name this server, so a DNS-rebinding page cannot reach it
 * under another name. In team mode each account's requests are rate-limited (accountRateLimit.ts) and every request
 * dispatches with the account it acts for.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { maxImportBytes } from '../../../app/contract/methods.js';
import { errorCodes, maxSocketRequestBytes, type ReplyEnvelope } from '../../../app/contract/wire.js';
import type { RequestContext } from '../../services/requestContext.js';
import { AccountRateLimit } from './accountRateLimit.js';
import { launchTokenAccess, type RequestAccess } from './requestAccess.js';
import { parseScreenImageWidth, type ScreenImageWidth } from '../../../app/contract/screenImage.js';
import type { Dispatch } from '../../services/dispatch.js';
import type { EventBus } from '../../events/eventBus.js';
import { contentSecurityPolicy, EVALUATION_REPORT_HEADERS } from '../contentSecurityPolicy.js';
import type { ExtraRoutes } from './openAiRoutes.js';
import { answerSocketRequests } from './socketRequests.js';
import { resolveStaticFile } from './staticFiles.js';

export interface BrowserServerOptions {
  dispatch: Dispatch;
  bus: EventBus;
  /** The page image on disk for a page id (rendered if missing). */
  /** The page image, or its screen copy of that width where there is one (app/contract/screenImage.ts). */
  pageImagePath: (pageId: string, screenWidth: ScreenImageWidth | null) => Promise<string>;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token (tests); random otherwise. Not used in team mode. */
  token?: string;
  /** Team mode: personal tokens instead of the launch token (requestAccess.ts teamAccess). */
  access?: RequestAccess;
  /** The address to listen on: 127.0.0.1 unless given (`recto serve --listen`, which says what another exposes). */
  host?: string;
  /** The origin people reach the server under through a reverse proxy (https://recto.example.com): allowed as Host and Origin. */
  publicOrigin?: string;
  /** The open project's latest evaluation report (served at /api/evaluation-report), or null when there is none. */
  evaluationReportPath?: () => string | null;
  /** More routes behind the same host check (the OpenAI-compatible /v1 routes of `recto serve --pack`). */
  extraRoutes?: ExtraRoutes;
  /** A window whose socket named it in `presence.set` closed that socket: it shows nothing any more. */
  onViewerGone?: (viewer: string) => void;
}

export interface BrowserServer {
  /** The URL to open, token included (in the fragment, so it never reaches a log or a Referer). */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** The credential page image and report URLs carry for the request's person (the launch token, or a per-account key). */
  urlCredentialFor(context: RequestContext | undefined): string;
  close(): Promise<void>;
}

const maxBodyBytes = Math.ceil((maxImportBytes * 4) / 3) + 64 * 1024;

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const access = options.access ?? launchTokenAccess(token);
  const limits = access.team ? new AccountRateLimit() : null;
  const listenHost = options.host ?? '127.0.0.1';
  const publicOrigin = options.publicOrigin ? new URL(options.publicOrigin) : null;
  let port = 0;
  const allowedHosts = () => {
    const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    if (listenHost !== '127.0.0.1') hosts.add(`${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`);
    if (publicOrigin) hosts.add(publicOrigin.host);
    return hosts;
  };
  const wildcard = listenHost === '0.0.0.0' || listenHost === '::';
  // Bound to every interface, the server cannot know the names it is reached by: any Host is taken (every request
  // still needs a token in a header, or in the socket's URL, which a rebinding page does not have).
  const hostOk = (host: string | undefined) => wildcard || allowedHosts().has(host ?? '');
  const originOk = (origin: string | undefined, host: string | undefined) => {
    if (origin === undefined) return true;
    if (publicOrigin && origin === publicOrigin.origin) return true;
    const bare = origin.replace(/^http:\/\//, '');
    return allowedHosts().has(bare) || (wildcard && bare === host);
  };
  const socketSources = ['ws://127.0.0.1:*', 'ws://localhost:*'];
  if (listenHost !== '127.0.0.1') socketSources.push(`ws://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:*`);
  if (wildcard) socketSources.push('ws:', 'wss:');
  if (publicOrigin) socketSources.push(`${publicOrigin.protocol === 'https:' ? 'wss' : 'ws'}://${publicOrigin.host}`);
  const csp = contentSecurityPolicy(socketSources);
  /** A request the account's bucket has no room for (team mode), answered 429 with a coded reply. */
  const limited = (context: RequestContext): boolean => limits !== null && context.account !== null && !limits.take(context.account.id);

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error('recto: request failed:', error);
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', 'Internal error');
      else response.destroy();
    });
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    if (!hostOk(request.headers.host)) {
      return send(response, 421, 'text/plain; charset=utf-8', 'Wrong host');
    }
    const url = parseRequestUrl(request.url);
    if (!url) return send(response, 400, 'text/plain; charset=utf-8', 'Bad URL');
    if (options.extraRoutes && (await options.extraRoutes(request, response, url))) return;

    if (url.pathname.startsWith('/api/rpc/')) {
      if (request.method !== 'POST') return send(response, 405, 'text/plain; charset=utf-8', 'POST only');
      const context = access.byToken(header(request, 'x-recto-token'));
      if (!context) return send(response, 401, 'text/plain; charset=utf-8', 'Bad token');
      if (limited(context)) return sendJson(response, rateLimited, 429);
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        return send(response, 415, 'text/plain; charset=utf-8', 'JSON only');
      }
      const method = decodePathPart(url.pathname.slice('/api/rpc/'.length));
      if (method === null) return send(response, 400, 'text/plain; charset=utf-8', 'Bad URL');
      const body = await readBody(request, maxBodyBytes);
      if (body === null) return send(response, 413, 'text/plain; charset=utf-8', 'Request too large');
      let params: unknown;
      try {
        params = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
      } catch {
        return sendJson(response, { ok: false, error: { code: 'bad-request', message: 'Request body is not JSON' } });
      }
      const reply = await options.dispatch(method, params, context);
      return sendJson(response, reply, !reply.ok && reply.error.code === errorCodes.forbidden ? 403 : 200);
    }

    if (url.pathname.startsWith('/api/page-image/')) {
      const context = access.byUrlCredential(url.searchParams.get('token'));
      if (!context) return send(response, 401, 'text/plain; charset=utf-8', 'Bad token');
      if (limited(context)) return send(response, 429, 'text/plain; charset=utf-8', 'Too many requests');
      const pageId = decodePathPart(url.pathname.slice('/api/page-image/'.length));
      if (pageId === null) return send(response, 400, 'text/plain; charset=utf-8', 'Bad URL');
      let file: string;
      try {
        file = await options.pageImagePath(pageId, parseScreenImageWidth(url.searchParams.get('w')));
      } catch (error) {
        return send(response, 404, 'text/plain; charset=utf-8', error instanceof Error ? error.message : 'Not found');
      }
      return sendFile(response, file, {
        'content-type': 'image/png',
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
      });
    }

    if (url.pathname === '/api/evaluation-report') {
      if (!access.byUrlCredential(url.searchParams.get('token'))) return send(response, 401, 'text/plain; charset=utf-8', 'Bad token');
      const file = options.evaluationReportPath?.() ?? null;
      if (!file) return send(response, 404, 'text/plain; charset=utf-8', 'No evaluation report for the open project');
      return sendFile(response, file, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...EVALUATION_REPORT_HEADERS });
    }

    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed');
    }
    const found = resolveStaticFile(options.rendererDir, url.pathname) ?? resolveStaticFile(options.rendererDir, '/');
    if (!found) {
      return send(response, 503, 'text/plain; charset=utf-8', `The renderer is not built (${options.rendererDir}); run npm run build`);
    }
    return sendFile(
      response,
      found.file,
      {
        'content-type': found.mediaType,
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cache-control': found.mediaType.startsWith('text/html') ? 'no-store' : 'public, max-age=86400',
      },
      request.method === 'HEAD',
    );
  }

  const sockets = new WebSocketServer({ noServer: true, maxPayload: maxSocketRequestBytes });
  server.on('upgrade', (request, socket, head) => {
    // Node removes its own error listener from an upgraded socket: without this one a reset connection would be an
    // uncaught 'error' event, which ends the process.
    socket.on('error', () => socket.destroy());
    const host = request.headers.host;
    // The URL is parsed only once the Host is known good, and against a fixed base: any Host or path that is not a
    // URL is refused here instead of throwing.
    const url = hostOk(host) ? parseRequestUrl(request.url) : null;
    const credential = url?.searchParams.get('token') ?? null;
    if (!url || url.pathname !== '/api/events' || !originOk(request.headers.origin, host) || !access.byUrlCredential(credential)) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, credential));
  });
  sockets.on('connection', (ws: WebSocket, credential: string) => {
    // In team mode the socket's credential is looked up again for every event and request: a removed account or a
    // replaced token ends the socket at once (4401), as it ends that person's HTTP requests.
    const current = (): RequestContext | null => {
      const context = access.byUrlCredential(credential);
      if (!context && ws.readyState === ws.OPEN) ws.close(4401, 'signed out');
      return context;
    };
    const unsubscribe = options.bus.subscribe((envelope) => {
      if (ws.readyState === ws.OPEN && (!access.team || current())) ws.send(JSON.stringify(envelope));
    });
    ws.on('close', unsubscribe);
    ws.on('error', unsubscribe);
    // Presence ends with the window's socket (main/services/presence.ts): remember which viewers this socket named.
    const viewers = new Set<string>();
    ws.on('close', () => {
      for (const viewer of viewers) options.onViewerGone?.(viewer);
    });
    const dispatchAs: Dispatch = async (method, params) => {
      const context = current();
      if (!context) return signedOut;
      if (limited(context)) return rateLimited;
      return options.dispatch(method, params, context);
    };
    answerSocketRequests(ws, dispatchAs, (request) => {
      const viewer = request.method === 'presence.set' ? (request.params as { viewer?: unknown } | undefined)?.viewer : undefined;
      if (typeof viewer === 'string' && viewer.length <= 100) viewers.add(viewer);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, listenHost, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    // Team mode: each person signs in with their own token (the server has none to give).
    url: access.team ? `${origin}/#token=` : `${origin}/#token=${token}`,
    origin,
    port,
    token,
    urlCredentialFor: (context) => access.urlCredentialFor(context),
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The request target parsed against a fixed base (never the Host header); null when it is not a URL path. */
function parseRequestUrl(target: string | undefined): URL | null {
  if (!target || !target.startsWith('/')) return null;
  try {
    // Concatenated, not resolved: `//host/…` stays a path here instead of naming another host.
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return null;
  }
}

/** A percent-encoded path segment decoded; null for malformed escapes or a NUL. */
function decodePathPart(part: string): string | null {
  try {
    const decoded = decodeURIComponent(part);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}

/**
 * Streams a regular file. It is opened and checked before the status line goes out, so a missing file or a folder in
 * its place is a 404; a read error after that ends the response instead of reaching the process as an 'error' event.
 */
async function sendFile(
  response: http.ServerResponse,
  file: string,
  headers: http.OutgoingHttpHeaders,
  headOnly = false,
): Promise<void> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return send(response, 404, 'text/plain; charset=utf-8', 'Not found');
  }
  let size: number;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return send(response, 404, 'text/plain; charset=utf-8', 'Not found');
    }
    size = stat.size;
  } catch {
    await handle.close().catch(() => undefined);
    return send(response, 404, 'text/plain; charset=utf-8', 'Not found');
  }
  response.writeHead(200, { ...headers, 'content-length': size });
  if (headOnly) {
    await handle.close();
    return void response.end();
  }
  try {
    await pipeline(handle.createReadStream(), response);
  } catch {
    // The client went away or the file could not be read: the response is already cut off; nothing more to send.
    response.destroy();
  }
}

function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(request: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function send(response: http.ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff' });
  response.end(body);
}

const rateLimited: ReplyEnvelope = { ok: false, error: { code: errorCodes.rateLimited, message: 'Too many requests from this account: wait a moment' } };
const signedOut: ReplyEnvelope = { ok: false, error: { code: errorCodes.unauthorized, message: 'Signed out: this account was removed or given a new token' } };

function sendJson(response: http.ServerResponse, value: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(value));
}
