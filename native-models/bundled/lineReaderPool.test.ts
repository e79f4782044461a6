import { describe, expect, it } from 'vitest';
import type { LineReading } from './lineRecognizer.js';
import { LineReaderPool, lineReadersFor, type DisposableLineReader } from './lineReaderPool.js';
import type { GreyImage } from './ocrImage.js';

/** A reader that answers its name once released, counting what it was given. */
class HeldReader implements DisposableLineReader {
  unavailable: string | null = null;
  readonly crops: GreyImage[] = [];
  disposed = false;
  private readonly held: Array<() => void> = [];
  constructor(private readonly name: string) {}
  read(crop: GreyImage): Promise<LineReading | null> {
    this.crops.push(crop);
    return new Promise((resolve) => this.held.push(() => resolve({ characters: [], text: this.name })));
  }
  releaseAll(): void {
    for (const release of this.held.splice(0)) release();
  }
  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

const crop = (width: number): GreyImage => ({ data: new Uint8Array(width * 8), width, height: 8 });

describe('LineReaderPool', () => {
  it('sends each line to the reader with the fewest lines in flight, and each line gets its own reader\'s reading', async () => {
    const [a, b] = [new HeldReader('a'), new HeldReader('b')];
    const pool = new LineReaderPool([a, b]);
    const readings = [1, 2, 3, 4, 5].map((width) => pool.read(crop(width)));
    expect(a.crops.map((c) => c.width)).toEqual([1, 3, 5]);
    expect(b.crops.map((c) => c.width)).toEqual([2, 4]);
    b.releaseAll();
    await Promise.all(readings.filter((_, i) => i % 2 === 1));
    // b is free again: the next two lines go to it, not to a (three still in flight).
    const more = [6, 7].map((width) => pool.read(crop(width)));
    expect(b.crops.map((c) => c.width)).toEqual([2, 4, 6, 7]);
    a.releaseAll();
    b.releaseAll();
    expect((await Promise.all([...readings, ...more])).map((r) => r?.text)).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'b']);
  });

  it('passes over a reader that cannot read; with none left, lines are not read and the pool says why', async () => {
    const [a, b] = [new HeldReader('a'), new HeldReader('b')];
    a.unavailable = 'PP-OCR line recognizer not available: its worker stopped';
    const pool = new LineReaderPool([a, b]);
    expect(pool.unavailable).toBeNull();
    const reading = pool.read(crop(3));
    b.releaseAll();
    expect((await reading)?.text).toBe('b');
    expect(a.crops).toHaveLength(0);
    b.unavailable = 'PP-OCR line recognizer not available: its model could not be read';
    expect(await pool.read(crop(3))).toBeNull();
    expect(pool.unavailable).toBe(a.unavailable);
    await pool.dispose();
    expect([a.disposed, b.disposed]).toEqual([true, true]);
  });

  it('has one reader per two tesseract workers, at least one', () => {
    expect([1, 2, 3, 4, 8].map(lineReadersFor)).toEqual([1, 1, 2, 2, 4]);
    expect(() => new LineReaderPool([])).toThrow(/no reader/);
  });
});
