/** Messages between VlmEngine (main side) and the engine worker. Plain data only (structured clone). */
import type { ProviderPreference } from '../runtime/onnxRuntime.js';
import type { LiveStats, PackInfo, PageText, ReadSettings } from './pageReader.js';

export interface WorkerInit {
  packDir: string;
  provider: ProviderPreference;
  threads?: number;
}

export type ToWorker =
  | {
      type: 'read';
      id: number;
      imagePath: string;
      settings: ReadSettings;
      /** Int32Array view: [0] set to 1 by the main side to cancel this read. */
      cancelFlag: SharedArrayBuffer;
    }
  /** Test hook: makes the worker die as a native crash would, to prove the host survives it. */
  | { type: 'crash-for-test' };

export type FromWorker =
  | { type: 'ready'; info: PackInfo }
  | { type: 'open-failed'; message: string }
  | { type: 'text'; id: number; text: string }
  | { type: 'progress'; id: number; fraction: number; message: string }
  | { type: 'stats'; id: number; stats: LiveStats }
  | { type: 'done'; id: number; result: Omit<PageText, 'raw'> }
  | { type: 'failed'; id: number; message: string };
