/**
 * The window: sandboxed, isolated, no Node, a strict CSP, no navigation away and no new windows.
 * The renderer is served from the privileged `recto://app/` scheme so that 'self' in the CSP means the app only.
 */
import path from 'node:path';
import { app, BrowserWindow, shell } from 'electron';

export const appOrigin = 'recto://app';
/** The open project's latest evaluation report (served by the recto protocol with EVALUATION_REPORT_HEADERS). */
export const evaluationReportUrl = `${appOrigin}/evaluation-report`;

export function createMainWindow(preloadPath: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    title: 'Recto',
    show: false,
    webPreferences: {
      preload: path.resolve(preloadPath),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  });
  window.once('ready-to-show', () => window.show());

  // Nothing navigates the window away from the app: dropped files are imported by the renderer, links open outside.
  window.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${appOrigin}/`)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    // The Evaluate view's report link: a window of its own, without the preload, scripts off (the page has none).
    if (url === evaluationReportUrl) {
      return { action: 'allow', overrideBrowserWindowOptions: { width: 1100, height: 900, webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false } } };
    }
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void window.loadURL(`${appOrigin}/index.html`);
  return window;
}
