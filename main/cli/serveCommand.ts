/**
 * `recto serve`: the browser shell over a session, until interrupted. With a model pack it also serves that
 * jina-ocr-v1 runtime over the OpenAI-compatible API (/v1/chat/completions, /v1/models), sharing the engine the
 * review screen reads with. With `--team` (docs/team-mode.md) it serves one project to its accounts: personal tokens
 * only, roles, four eyes; `--listen ADDR` (team mode only) binds another address than 127.0.0.1 and says what that
 * exposes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RemoteEngineOptions } from '../../native-models/remote/index.js';
import { VlmEngine, VLM_ENGINE_ID } from '../../native-models/vlm/index.js';
import { createRectoSession } from '../composition/createRectoSession.js';
import { createDispatch } from '../services/dispatch.js';
import { createHandlers } from '../services/handlers.js';
import { startBrowserServer, type BrowserServer } from '../shells/browser/browserServer.js';
import { openAiRoutes, type ExtraRoutes } from '../shells/browser/openAiRoutes.js';
import { newV1ApiKey } from '../shells/browser/v1Auth.js';
import type { RectoSession } from '../services/rectoSession.js';
import { packageRoot } from '../util/packageRoot.js';
import { latestEvaluationReport } from '../evaluate/evaluationJobs.js';
import { teamAccess } from '../shells/browser/requestAccess.js';

export interface ServeOptions {
  port: number;
  project?: string;
  packDir?: string;
  /** OpenAI-compatible servers the remote engine reads through. */
  remote?: RemoteEngineOptions;
  /** Fixed token (tests); random otherwise. */
  token?: string;
  /** Fixed /v1 API key (tests); random per launch otherwise (v1Auth.ts). Never the same as the token. */
  apiKey?: string;
  /** Team mode: the project's accounts sign in with their personal tokens (requires `project`). */
  team?: boolean;
  /** The address to listen on (team mode); 127.0.0.1 otherwise. */
  listen?: string;
  /** The origin a reverse proxy serves this under (https://recto.example.com), allowed as Host and Origin. */
  publicOrigin?: string;
  /** False in tests: no signal handlers that exit the process. */
  exitOnSignal?: boolean;
  /** Where the URL line goes (stdout). */
  out?: NodeJS.WritableStream;
}

/** The running server; `apiKey` is the /v1 key when a pack is served. */
export type ServedBrowser = BrowserServer & { apiKey: string | null };

/** A serve that cannot start as asked (team mode without a project or accounts, --listen without --team). */
export class ServeRefusedError extends Error {
  override name = 'ServeRefusedError';
}

export async function serve(options: ServeOptions): Promise<ServedBrowser> {
  const listen = options.listen ?? '127.0.0.1';
  if (listen !== '127.0.0.1' && !options.team) {
    throw new ServeRefusedError(`--listen ${listen}: serving beyond this machine needs --team (personal tokens, roles); the single-user token would open the whole app to anyone who got the URL`);
  }
  if (options.team && !options.project) throw new ServeRefusedError('--team serves one project: give --project P.recto');
  const session = createRectoSession({ packDir: options.packDir, remote: options.remote });
  if (options.team) {
    await session.openProject(path.resolve(options.project!), { remember: false });
    if (!session.store.accounts.hasActive()) {
      await session.dispose();
      throw new ServeRefusedError(`${options.project}: no accounts; add the first (an admin) with: recto users add NAME --role admin --project ${options.project}`);
    }
  }
  const apiKey = options.apiKey ?? newV1ApiKey();
  const served = options.packDir ? servedModel(session, options.packDir, apiKey) : null;
  let server: BrowserServer | null = null;
  const handlers = createHandlers(session, {
    shell: 'browser',
    pageImageUrl: (pageId, context) => `/api/page-image/${encodeURIComponent(pageId)}?token=${server!.urlCredentialFor(context)}`,
    evaluationReportUrl: (context) => `/api/evaluation-report?token=${server!.urlCredentialFor(context)}`,
  });
  server = await startBrowserServer({
    dispatch: createDispatch(handlers),
    bus: session.bus,
    pageImagePath: (pageId, screenWidth) => session.pageImagePath(pageId, screenWidth),
    evaluationReportPath: () => (session.project ? latestEvaluationReport(session.dataDir, session.store.file) : null),
    rendererDir: path.join(packageRoot(), 'dist', 'renderer'),
    port: options.port,
    token: options.token,
    extraRoutes: served?.routes,
    ...(options.team ? { access: teamAccess(() => session.store.accounts), host: listen, publicOrigin: options.publicOrigin } : {}),
    onViewerGone: (viewer) => session.presence.drop(viewer),
  });
  if (served && server.token === apiKey) throw new Error('the /v1 API key must differ from the RPC token');
  const out = options.out ?? process.stdout;
  if (options.team) {
    const shown = listen.includes(':') ? `[${listen}]` : listen;
    out.write(`Recto is serving ${session.store.info().name} in team mode. Each person opens this URL with their own token after "#token=":\n  ${server.url}<personal token>\n`);
    if (listen !== '127.0.0.1') {
      out.write(
        `Listening on ${shown}:${server.port}: anyone who can reach that address can reach the sign-in page, and every request needs a personal token. ` +
          'The traffic, tokens included, is plain HTTP: put a TLS reverse proxy in front of it (docs/team-mode.md).\n',
      );
    }
  } else {
    if (options.project) await session.openProject(path.resolve(options.project));
    else await session.reopenLastProject();
    out.write(`Recto is running. Open this URL in your browser:\n  ${server.url}\n`);
  }
  if (served) {
    // The /v1 key opens /v1 only; the token in the URL above opens the whole app and is never a /v1 key.
    out.write(`Serving ${served.modelId} at ${server.origin}/v1 (OpenAI-compatible)\n  API key (for /v1 only, new at each launch): ${apiKey}\n`);
  }
  out.write('(Press Ctrl+C to stop.)\n');

  const browser = server;
  const close = async () => {
    await browser.close();
    await session.dispose();
    served?.dispose();
  };
  if (options.exitOnSignal !== false) {
    const stop = async () => {
      await close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  }
  return { ...browser, close, apiKey: served ? apiKey : null };
}

/** The pack's engine behind the /v1 routes, under the pack's own model name. */
function servedModel(session: RectoSession, packDir: string, apiKey: string): { modelId: string; routes: ExtraRoutes; dispose: () => void } | null {
  if (!session.engines.has(VLM_ENGINE_ID)) return null;
  const manifest = readManifest(packDir);
  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-serve-'));
  const routes = openAiRoutes({
    modelId: manifest.name,
    apiKey,
    licence: manifest.licence,
    scratchDir,
    model: async () => {
      const engine = await session.engines.get(VLM_ENGINE_ID);
      if (!(engine instanceof VlmEngine)) throw new Error('the pack engine cannot serve raw text');
      return engine;
    },
  });
  return { modelId: manifest.name, routes, dispose: () => fs.rmSync(scratchDir, { recursive: true, force: true }) };
}

function readManifest(packDir: string): { name: string; licence: string | null } {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(path.resolve(packDir), 'manifest.json'), 'utf8')) as { name?: unknown; licence?: unknown };
    return { name: typeof manifest.name === 'string' ? manifest.name : 'jina-ocr-v1', licence: typeof manifest.licence === 'string' ? manifest.licence : null };
  } catch {
    // The engine's descriptor says why the pack is unusable; requests then fail with that reason.
    return { name: 'jina-ocr-v1', licence: null };
  }
}
