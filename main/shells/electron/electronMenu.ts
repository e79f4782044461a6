/**
 * Native menus. Menu commands go through the same handlers as the renderer's requests.
 */
import { app, Menu, type MenuItemConstructorOptions } from 'electron';
import type { Handlers } from '../../services/handlers.js';

export function installMenu(handlers: Handlers, onError: (message: string) => void): void {
  const run = (action: () => Promise<unknown>) => () => void action().catch((error: unknown) => onError(String(error)));
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open or Create Project…', accelerator: 'CmdOrCtrl+O', click: run(async () => handlers['dialog.openProject']({})) },
        { label: 'Import Files…', accelerator: 'CmdOrCtrl+I', click: run(async () => handlers['dialog.importFiles']({})) },
        { label: 'Open the Sample Invoices', click: run(async () => handlers['project.openSamples']({})) },
        { type: 'separator' },
        process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        // DevTools only in development: a packaged build gives nobody a console into the renderer.
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' } as const]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: `Recto ${app.getVersion()}`, enabled: false }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
