/**
 * The preload: the only bridge between the sandboxed renderer and the main process. It exposes exactly the
 * contract transport (invoke a method, listen to events) and a way to name dropped files — nothing of Node, nothing
 * of Electron. Sandboxed preloads are CommonJS and may require only 'electron', hence no imports of our own: the
 * main process validates every request against the contract anyway.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';

const invokeChannel = 'recto:invoke';
const eventChannel = 'recto:event';

contextBridge.exposeInMainWorld('rectoBridge', {
  invoke: (method: string, params: unknown): Promise<unknown> => {
    if (typeof method !== 'string') return Promise.reject(new TypeError('method must be a string'));
    return ipcRenderer.invoke(invokeChannel, method, params);
  },
  onEvent: (listener: (envelope: unknown) => void): (() => void) => {
    const wrapped = (_event: IpcRendererEvent, envelope: unknown) => listener(envelope);
    ipcRenderer.on(eventChannel, wrapped);
    return () => ipcRenderer.removeListener(eventChannel, wrapped);
  },
  pathForFile: (file: File): string => webUtils.getPathForFile(file),
});
