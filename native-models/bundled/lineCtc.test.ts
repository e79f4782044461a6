import { describe, expect, it } from 'vitest';
import { bestPerFrame, ctcDictionary, decodeCtc } from './lineCtc.js';

// Classes: 0 blank, 1 'T', 2 'O', 3 '1', 4 '.', 5 space (the last class).
const dictionary = ctcDictionary('T\nO\n1\n.\n');

/** A T × C softmax-like output whose most likely class per frame is `frames[t]` with probability `p[t]`. */
function output(frames: number[], p: number[], classes = dictionary.length): Float32Array {
  const data = new Float32Array(frames.length * classes);
  frames.forEach((c, t) => {
    for (let k = 0; k < classes; k++) data[t * classes + k] = (1 - p[t]!) / (classes - 1);
    data[t * classes + c] = p[t]!;
  });
  return data;
}

describe('CTC decoding of the line recognizer', () => {
  it('reads the dictionary: blank first, its lines, a space last', () => {
    expect(dictionary).toEqual(['', 'T', 'O', '1', '.', ' ']);
  });

  it('collapses runs, drops blanks, keeps repeats a blank separates, and gives each character its columns', () => {
    // frames: T T _ O ␣ 1 _ 1 . (9 frames over 90 columns: 10 each)
    const frames = [1, 1, 0, 2, 5, 3, 0, 3, 4];
    const p = [0.6, 0.9, 0.99, 0.8, 0.7, 0.95, 0.99, 0.5, 0.85];
    const best = bestPerFrame(output(frames, p), frames.length, dictionary.length);
    expect([...best.classes]).toEqual(frames);
    const chars = decodeCtc(best, dictionary, 90);
    expect(chars.map((c) => c.char).join('')).toBe('TO 11.');
    expect(chars[0]).toMatchObject({ char: 'T', x0: 0, x1: 20 });
    expect(chars[0]!.probability).toBeCloseTo(0.9); // the best of its frames
    expect(chars[1]).toMatchObject({ char: 'O', x0: 30, x1: 40 });
    expect(chars.slice(3).map((c) => [c.x0, c.x1])).toEqual([
      [50, 60],
      [70, 80],
      [80, 90],
    ]);
  });
});
