/**
 * `recto serve`: the browser shell over a session, until interrupted.
 */
import path from 'node:path';
import { createRectoSession } from '../composition/createRectoSession.js';
import { createDispatch } from '../services/dispatch.js';
import { createHandlers } from '../services/handlers.js';
import { startBrowserServer, type BrowserServer } from '../shells/browser/browserServer.js';
import { packageRoot } from '../util/packageRoot.js';

export interface ServeOptions {
  port: number;
  project?: string;
  packDir?: string;
  /** Where the URL line goes (stdout). */
  out?: NodeJS.WritableStream;
}

export async function serve(options: ServeOptions): Promise<BrowserServer> {
  const session = createRectoSession({ packDir: options.packDir });
  let server: BrowserServer | null = null;
  const handlers = createHandlers(session, {
    shell: 'browser',
    pageImageUrl: (pageId) => `/api/page-image/${encodeURIComponent(pageId)}?token=${server!.token}`,
  });
  server = await startBrowserServer({
    dispatch: createDispatch(handlers),
    bus: session.bus,
    pageImagePath: (pageId) => session.pageImagePath(pageId),
    rendererDir: path.join(packageRoot(), 'dist', 'renderer'),
    port: options.port,
  });
  if (options.project) await session.openProject(path.resolve(options.project));
  else await session.reopenLastProject();
  const out = options.out ?? process.stdout;
  out.write(`Recto is running. Open this URL in your browser:\n  ${server.url}\n(Press Ctrl+C to stop.)\n`);

  const stop = async () => {
    await server?.close();
    await session.dispose();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  return server;
}
