/**
 * The Engine interface: a page in, a stream of events out, ending with an Extraction.
 * Implementations live in native-models/; this file only declares the shape so that main/ and native-models/
 * agree without importing each other's internals.
 */
import type { Extraction, ExtractionStats } from './extraction.js';
import type { TextLayer } from './page.js';

/** What an engine is given for one page. */
export interface PageInput {
  /** Path of the rendered page image (PNG) on disk. */
  imagePath: string;
  /** Size of that image in pixels; element boxes refer to it. */
  width: number;
  height: number;
  /** Resolution the page was rendered at (72 × scale for PDFs; the file's own, or 144, for images). */
  dpi: number;
  /** The PDF's own text layer in page pixels, or null for images and PDFs without one. */
  textLayer: TextLayer | null;
  /** For messages: which file and page this is. */
  label: string;
}

export type EngineEvent =
  | { type: 'progress'; fraction: number; message?: string }
  /** Text as it is decoded (VLM engines); may arrive in pieces of any size. */
  | { type: 'token'; text: string }
  | { type: 'stats'; stats: ExtractionStats };

export interface ReadOptions {
  signal?: AbortSignal;
  onEvent?: (event: EngineEvent) => void;
}

/** Static description of an engine, shown where engines are chosen. */
export interface EngineDescriptor {
  id: string;
  name: string;
  version: string;
  /** Licence of the weights it runs, null when none. */
  licence: string | null;
  /** False with a reason when the engine cannot run on this machine (no pack, no provider, …). */
  available: boolean;
  unavailableReason?: string;
}

/** One server an engine reads through (remote engines): its load and failures, for progress lines. */
export interface EndpointStatus {
  url: string;
  /** Requests it may have in flight at once. */
  capacity: number;
  inFlight: number;
  /** Pages it answered. */
  answered: number;
  /** Attempts that failed on it (each retry counts). */
  errors: number;
  lastError: string | null;
}

export interface Engine {
  readonly descriptor: EngineDescriptor;
  /** How many pages are worth reading at once (servers with several slots); 1 when absent. */
  readonly parallelism?: number;
  /** The servers this engine reads through, where it reads through any. */
  endpointStatus?(): EndpointStatus[];
  /** Reads one page. Rejects with an Error whose message names the page (input.label) and the reason. */
  read(input: PageInput, options?: ReadOptions): Promise<Extraction>;
  /** Frees sessions, workers and caches. */
  dispose(): Promise<void>;
}
