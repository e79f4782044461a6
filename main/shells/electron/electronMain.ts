/**
 * The Electron shell: one window over the same session and handlers as the browser shell. Requests arrive on one
 * IPC channel and are accepted only from our own window's main frame on the app origin; the dispatch validates them
 * against the contract before any service runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, session as electronSession } from 'electron';
import { createRectoSession } from '../../composition/createRectoSession.js';
import { keychainSecrets } from './keychainSecrets.js';
import { createDispatch } from '../../services/dispatch.js';
import { createHandlers } from '../../services/handlers.js';
import { resolveStaticFile } from '../browser/staticFiles.js';
import { contentSecurityPolicy, EVALUATION_REPORT_HEADERS } from '../contentSecurityPolicy.js';
import { latestEvaluationReport } from '../../evaluate/evaluationJobs.js';
import { packageRoot } from '../../util/packageRoot.js';
import { appOrigin, createMainWindow, evaluationReportUrl } from './electronWindow.js';
import { installMenu } from './electronMenu.js';
import { parseScreenImageWidth } from '../../../app/contract/screenImage.js';

protocol.registerSchemesAsPrivileged([
  { scheme: 'recto', privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

// Tests and CI point RECTO_HOME at a temporary folder; the user's app data folder otherwise.
if (!process.env.RECTO_HOME) process.env.RECTO_HOME = path.join(app.getPath('userData'), 'recto');

async function start(): Promise<void> {
  await app.whenReady();
  // Recto needs no camera, microphone, notifications, geolocation, clipboard reads or anything else a page may ask:
  // every permission request and check is denied.
  electronSession.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  electronSession.defaultSession.setPermissionCheckHandler(() => false);
  const root = packageRoot();
  const rendererDir = path.join(root, 'dist', 'renderer');
  const session = createRectoSession({ packDir: process.env.RECTO_PACK, secrets: keychainSecrets });
  let window: BrowserWindow | null = null;

  const handlers = createHandlers(session, {
    shell: 'electron',
    pageImageUrl: (pageId) => `${appOrigin}/page-image/${encodeURIComponent(pageId)}`,
    evaluationReportUrl: () => evaluationReportUrl,
    dialogs: {
      chooseProject: async () => {
        const result = await dialog.showSaveDialog(window!, {
          title: 'Open or create a Recto project',
          buttonLabel: 'Open',
          filters: [{ name: 'Recto project', extensions: ['recto'] }],
          properties: ['showOverwriteConfirmation'],
        });
        if (result.canceled || !result.filePath) return null;
        return { path: result.filePath, create: !fs.existsSync(result.filePath) };
      },
      chooseFilesToImport: async () => {
        const result = await dialog.showOpenDialog(window!, {
          title: 'Import documents',
          properties: ['openFile', 'multiSelections'],
          filters: [{ name: 'Documents', extensions: ['pdf', 'png', 'jpg', 'jpeg', 'tif', 'tiff', 'xml'] }],
        });
        return result.canceled ? null : result.filePaths;
      },
      chooseExportFolder: async (defaultPath) => {
        const result = await dialog.showOpenDialog(window!, {
          title: 'Export the corpus into…',
          buttonLabel: 'Choose',
          // The export refuses a non-empty folder that is not a previous export: offer to make a new one.
          message: 'Choose an empty folder, or one with a previous Recto export to update',
          defaultPath,
          properties: ['openDirectory', 'createDirectory', 'promptToCreate'],
        });
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
    },
  });
  const dispatch = createDispatch(handlers);
  const csp = contentSecurityPolicy();

  protocol.handle('recto', async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'app') return new Response('Not found', { status: 404 });
    if (url.pathname.startsWith('/page-image/')) {
      try {
        const pageId = decodeURIComponent(url.pathname.slice('/page-image/'.length));
        const file = await session.pageImagePath(pageId, parseScreenImageWidth(url.searchParams.get('w')));
        return new Response(fs.readFileSync(file), { headers: { 'content-type': 'image/png' } });
      } catch (error) {
        return new Response(String(error), { status: 404 });
      }
    }
    if (url.pathname === '/evaluation-report') {
      const file = session.project ? latestEvaluationReport(session.dataDir, session.store.file) : null;
      if (!file) return new Response('No evaluation report for the open project', { status: 404 });
      return new Response(fs.readFileSync(file), { headers: { 'content-type': 'text/html; charset=utf-8', ...EVALUATION_REPORT_HEADERS } });
    }
    const found = resolveStaticFile(rendererDir, url.pathname) ?? resolveStaticFile(rendererDir, '/');
    if (!found) return new Response('The renderer is not built; run npm run build', { status: 503 });
    return new Response(fs.readFileSync(found.file), {
      headers: { 'content-type': found.mediaType, 'content-security-policy': csp, 'x-content-type-options': 'nosniff' },
    });
  });

  ipcMain.handle('recto:invoke', async (event, method: unknown, params: unknown) => {
    const frame = event.senderFrame;
    const trusted =
      window !== null &&
      event.sender === window.webContents &&
      frame !== null &&
      frame === event.sender.mainFrame &&
      frame.url.startsWith(`${appOrigin}/`);
    if (!trusted) return { ok: false, error: { code: 'forbidden', message: 'Request from an untrusted frame' } };
    return dispatch(method, params);
  });

  session.bus.subscribe((envelope) => {
    if (window && !window.isDestroyed()) window.webContents.send('recto:event', envelope);
  });

  await session.reopenLastProject();
  installMenu(handlers, (message) => dialog.showErrorBox('Recto', message));
  const preload = path.join(root, 'dist', 'main', 'shells', 'electron', 'preload.cjs');
  window = createMainWindow(preload);
  window.on('closed', () => {
    window = null;
  });

  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => void session.dispose());
}

start().catch((error: unknown) => {
  console.error('recto: the desktop shell failed to start:', error);
  app.exit(1);
});
