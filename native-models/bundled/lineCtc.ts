/**
 * Decoding PP-OCR's line recognizer output (CTC, greedy): per frame the most likely class, runs of one class
 * collapsed, blanks dropped. Each character keeps its probability and the input columns of its frames, so each
 * can be placed in the word of the page it belongs to (lineReread.ts).
 *
 * The recognizer's output is T frames × C classes (softmax); class 0 is CTC's blank, 1..C−2 the dictionary's
 * lines (ppocr_keys_v1.txt), C−1 a space. Frame t covers input columns t·W/T … (t+1)·W/T of the W-column input.
 */

/** Per frame: the most likely class and its probability (the worker sends only these back, not T × C floats). */
export interface FrameBest {
  classes: Int32Array;
  probabilities: Float32Array;
}

export function bestPerFrame(output: Float32Array, frames: number, classes: number): FrameBest {
  const best = new Int32Array(frames);
  const probabilities = new Float32Array(frames);
  for (let t = 0; t < frames; t++) {
    const row = t * classes;
    let index = 0;
    let value = -Infinity;
    for (let c = 0; c < classes; c++) {
      const v = output[row + c]!;
      if (v > value) [value, index] = [v, c];
    }
    best[t] = index;
    probabilities[t] = value;
  }
  return { classes: best, probabilities };
}

export interface DecodedCharacter {
  char: string;
  /** The highest probability among the character's frames. */
  probability: number;
  /** Input columns the character's frames cover, [x0, x1). */
  x0: number;
  x1: number;
}

/**
 * The characters of a greedy CTC reading. `dictionary`: the classes' characters, index 0 the blank ('' ), the last
 * a space. `inputWidth`: W, the width of the image the model read (its frames are spread evenly over it).
 */
export function decodeCtc(best: FrameBest, dictionary: readonly string[], inputWidth: number): DecodedCharacter[] {
  const frames = best.classes.length;
  const step = inputWidth / Math.max(1, frames);
  const out: DecodedCharacter[] = [];
  let previous = -1;
  for (let t = 0; t < frames; t++) {
    const c = best.classes[t]!;
    const p = best.probabilities[t]!;
    if (c !== previous && c !== 0) out.push({ char: dictionary[c] ?? '', probability: p, x0: t * step, x1: (t + 1) * step });
    else if (c === previous && c !== 0) {
      const last = out[out.length - 1]!;
      last.x1 = (t + 1) * step;
      last.probability = Math.max(last.probability, p);
    }
    previous = c;
  }
  return out.filter((ch) => ch.char !== '');
}

/** The dictionary of ppocr_keys_v1.txt's text: blank, its lines, a space. */
export function ctcDictionary(keysText: string): string[] {
  const lines = keysText.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return ['', ...lines, ' '];
}

/** The reading's words: its characters between its spaces (empty runs left out). */
export function wordsOfCharacters(characters: readonly DecodedCharacter[]): DecodedCharacter[][] {
  const words: DecodedCharacter[][] = [[]];
  for (const ch of characters) {
    if (ch.char.trim() === '') {
      if (words.at(-1)!.length) words.push([]);
    } else words.at(-1)!.push(ch);
  }
  if (!words.at(-1)!.length) words.pop();
  return words;
}
