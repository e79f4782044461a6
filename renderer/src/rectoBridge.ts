/**
 * What the Electron preload exposes through contextBridge as `window.rectoBridge`. Its presence is how the renderer
 * knows it runs in the Electron shell.
 */
import type { EventEnvelope } from '../../app/contract/events.js';
import type { ReplyEnvelope } from '../../app/contract/wire.js';

export interface RectoBridge {
  invoke(method: string, params: unknown): Promise<ReplyEnvelope>;
  onEvent(listener: (envelope: EventEnvelope) => void): () => void;
  /** The file-system path of a dropped or picked File (Electron's webUtils.getPathForFile). */
  pathForFile(file: File): string;
}
