/**
 * Builds the one contract client the renderer uses, over whichever shell it runs in.
 */
import { createContractClient, type ContractClient } from '../../../app/contract/client.js';
import type { RectoBridge } from '../rectoBridge.js';
import { alwaysOpen, type ConnectionStateSource } from './connectionState.js';
import { createElectronTransport } from './electronTransport.js';
import { createBrowserTransport } from './browserTransport.js';
import { takeLaunchToken } from './launchToken.js';

export interface Connection {
  client: ContractClient;
  connection: ConnectionStateSource;
  /** Set in the Electron shell only. */
  bridge: RectoBridge | null;
}

export class MissingTokenError extends Error {
  constructor() {
    super('This page was opened without its access token. Open the link Recto printed when it started.');
    this.name = 'MissingTokenError';
  }
}

export function connect(): Connection {
  const bridge = window.rectoBridge ?? null;
  if (bridge) {
    return { client: createContractClient(createElectronTransport(bridge)), connection: alwaysOpen, bridge };
  }
  const token = takeLaunchToken();
  if (!token) throw new MissingTokenError();
  const transport = createBrowserTransport({ origin: window.location.origin, token });
  return { client: createContractClient(transport), connection: transport.connection, bridge: null };
}
