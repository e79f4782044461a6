/**
 * Several second readers of weak lines (lineRecognizer.ts, one worker thread each) behind one LineReader.
 *
 * The engine reads as many scanned pages at once as it has tesseract workers (bundledEngine.ts `parallelism`), and
 * every page sends its weak lines to the second reader. One recognizer thread keeps up with about two tesseract
 * workers: on development receipts it takes ≈ 0.4 s of a receipt's ≈ 1.6 s (docs/benchmarks.md, "Pages at once"), so
 * more pages at once than that would wait on it. Each line goes to the reader with the fewest lines in flight, among
 * those that can still read; a reader whose worker failed is passed over, and where none can read, lines are not
 * read again (tesseract's words stay), as with one reader.
 */
import type { LineReading } from './lineRecognizer.js';
import type { LineReader } from './lineReread.js';
import type { GreyImage } from './ocrImage.js';

/** A second reader the pool can end. */
export interface DisposableLineReader extends LineReader {
  dispose(): Promise<void>;
}

/** Tesseract workers one second reader keeps up with (see above). */
export const TESSERACT_WORKERS_PER_LINE_READER = 2;

/** Second readers for `ocrWorkers` tesseract workers: one per TESSERACT_WORKERS_PER_LINE_READER, at least one. */
export function lineReadersFor(ocrWorkers: number): number {
  return Math.max(1, Math.ceil(ocrWorkers / TESSERACT_WORKERS_PER_LINE_READER));
}

export class LineReaderPool implements LineReader {
  private readonly inFlight: number[];

  constructor(private readonly readers: readonly DisposableLineReader[]) {
    if (readers.length === 0) throw new Error('LineReaderPool: no reader given');
    this.inFlight = readers.map(() => 0);
  }

  /** Why no reader can read (the first one's reason), null while one can or none has been tried. */
  get unavailable(): string | null {
    return this.readers.every((reader) => reader.unavailable !== null) ? this.readers[0]!.unavailable : null;
  }

  async read(crop: GreyImage): Promise<LineReading | null> {
    let chosen = -1;
    for (const [index, reader] of this.readers.entries()) {
      if (reader.unavailable !== null) continue;
      if (chosen < 0 || this.inFlight[index]! < this.inFlight[chosen]!) chosen = index;
    }
    if (chosen < 0) return null;
    this.inFlight[chosen]!++;
    try {
      return await this.readers[chosen]!.read(crop);
    } finally {
      this.inFlight[chosen]!--;
    }
  }

  async dispose(): Promise<void> {
    await Promise.all(this.readers.map((reader) => reader.dispose()));
  }
}
