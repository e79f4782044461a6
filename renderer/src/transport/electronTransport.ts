/**
 * Electron shell transport: the preload's `window.rectoBridge` (contextBridge) carries requests and events over IPC.
 */
import type { ContractTransport } from '../../../app/contract/client.js';
import type { RectoBridge } from '../rectoBridge.js';
import { unwrapReply } from './replyEnvelope.js';

export function createElectronTransport(bridge: RectoBridge): ContractTransport {
  return {
    invoke: async (method, params) => unwrapReply(method, await bridge.invoke(method, params ?? {})),
    subscribe: (listener) => bridge.onEvent(listener),
  };
}
