/**
 * The second reader's choice (lineReread.ts): each refusal, the words it writes (split on tesseract's gaps, boxed,
 * marked), a reader that cannot load its model, and one real receipt line that tesseract reads wrong and the
 * recognizer right (../shared/testdata/receipts; skipped with a reason where absent).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PSM } from 'tesseract.js';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { ctcDictionary, type DecodedCharacter } from './lineCtc.js';
import { LineRecognizer, lineModelFiles, type LineReading } from './lineRecognizer.js';
import { chooseLineReading, rereadWeakLines, type LineReader } from './lineReread.js';
import type { GreyImage } from './ocrImage.js';
import { TesseractPool } from './tesseractPool.js';
import type { OcrWord } from './tesseractWords.js';

const dictionary = new Set(ctcDictionary(readFileSync(lineModelFiles().keys, 'utf8')).filter((c) => c !== ''));

/** Tesseract's words of one line, 10 px a character, a space between words, each word with its confidence. */
function line(spec: Array<[string, number]>, lineKey = '0.0.0', top = 100): OcrWord[] {
  let x = 20;
  return spec.map(([text, confidence]) => {
    const word: OcrWord = { text, confidence, box: [x, top, x + 10 * text.length, top + 20], lineKey, lineHeight: 20 };
    x += 10 * text.length + 10;
    return word;
  });
}

/** PP's reading of `text`, a character every 10 px from `left`, each with `probability`. */
function reading(text: string, probability: number, left = 0): LineReading {
  const characters: DecodedCharacter[] = [...text].map((char, i) => ({ char, probability, x0: left + 10 * i, x1: left + 10 * i + 10 }));
  return { characters, text };
}

describe('the choice between tesseract and the second reader', () => {
  const weak = line([
    ['TKANO', 0.6],
    ['HANDEL', 0.9],
    ['SON', 0.4],
    ['BHD', 0.9],
  ]);

  it('keeps a sure PP reading of a weak line', () => {
    expect(chooseLineReading(weak, reading('IKANO HANDEL SDN BHD', 0.97), dictionary)).toEqual({ keep: true });
  });

  it('refuses a weak PP reading', () => {
    expect(chooseLineReading(weak, reading('IKANO HANDEL SDN BHD', 0.6), dictionary)).toMatchObject({ keep: false, refusal: 'weak-reading' });
  });

  it('refuses where tesseract is sure of a character PP cannot write (€, ß, ö)', () => {
    for (const text of ['€', 'Straße', 'Köln']) {
      const words = line([
        [text, 0.95],
        ['12,5O', 0.3],
      ]);
      expect(chooseLineReading(words, reading(`X 12,50`, 0.97), dictionary)).toMatchObject({ keep: false, refusal: 'outside-dictionary' });
    }
    // Tesseract's unsure "£4." or "©" is noise, not a reason to keep its reading.
    expect(chooseLineReading(line([['£4.', 0.3], ['IKEA', 0.5]]), reading('54 IKEA', 0.97), dictionary)).toEqual({ keep: true });
  });

  it('refuses CJK characters on a page not read as Chinese', () => {
    const words = line([['Salesperson', 0.4], ['Ref.', 0.5]]);
    expect(chooseLineReading(words, reading('Salesperson：Ref.', 0.95), dictionary)).toMatchObject({ keep: false, refusal: 'cjk' });
    expect(chooseLineReading(words, reading('Salesperson：Ref.', 0.95), dictionary, true)).toEqual({ keep: true });
  });

  it('refuses letters on a row of digits, a reading of another length, and one that differs only in case and spaces', () => {
    expect(chooseLineReading(line([['17/61/2015', 0.5]]), reading('17/O1/2018', 0.95), dictionary)).toMatchObject({ refusal: 'letters-in-digits' });
    expect(chooseLineReading(line([['17/61/2015', 0.5]]), reading('17/01/2018', 0.95), dictionary)).toEqual({ keep: true });
    expect(chooseLineReading(weak, reading('IKANO', 0.95), dictionary)).toMatchObject({ refusal: 'length' });
    expect(chooseLineReading(line([['CASH', 0.5], ['BILL', 0.7]]), reading('Cash Bill', 0.99), dictionary)).toMatchObject({ refusal: 'same' });
  });

  it('leaves a line tesseract is on the whole sure of', () => {
    const words = line([['TOTAL', 0.97], ['INCL', 0.95], ['GST', 0.97], ['12.5O', 0.75]]);
    expect(chooseLineReading(words, reading('TOTAL INCL GST 12.50', 0.99), dictionary)).toMatchObject({ refusal: 'tesseract-sure' });
  });
});

/** A reader that answers `text` for every crop, its characters spread over the crop's width. */
function fakeReader(text: string, probability: number): LineReader & { crops: GreyImage[] } {
  const crops: GreyImage[] = [];
  return {
    crops,
    unavailable: null,
    characters: () => dictionary,
    read: async (crop) => {
      crops.push(crop);
      const step = crop.width / text.length;
      return { text, characters: [...text].map((char, i) => ({ char, probability, x0: i * step, x1: (i + 1) * step })) };
    },
  };
}

describe('weak lines read again', () => {
  const image: GreyImage = { data: new Uint8Array(400 * 300).fill(255), width: 400, height: 300 };

  it('reads only weak lines, writes PP’s words on tesseract’s gaps, boxed on the page and marked', async () => {
    const sure = line([['THANK', 0.95], ['YOU', 0.96]], '0.0.0', 20);
    const weak = line([['T0TAL', 0.5], ['12.5O', 0.4]], '0.0.1', 100);
    const reader = fakeReader('TOTAL12.50', 0.95);
    const { words, report } = await rereadWeakLines(image, [...sure, ...weak], reader);
    expect(reader.crops).toHaveLength(1);
    expect(words.slice(0, 2)).toEqual(sure);
    expect(words.slice(2).map((w) => w.text)).toEqual(['TOTAL', '12.50']);
    expect(words.slice(2).every((w) => w.reader === 'pp-ocr' && w.lineKey === '0.0.1')).toBe(true);
    // The crop runs from x 16 (word at 20, a margin of 4) over 114 px: the split falls between the words.
    expect(words[2]!.box[0]).toBeCloseTo(16, 0);
    expect(words[3]!.box[0]).toBeGreaterThan(words[2]!.box[2] - 1);
    expect(words[3]!.box[1]).toBe(100);
    expect(report).toMatchObject({ read: 1, replaced: 1 });
    expect(report.lines[0]).toMatchObject({ tesseract: 'T0TAL 12.5O', pp: 'TOTAL12.50', kept: true });
  });

  it('goes on with tesseract alone where the model cannot be loaded, saying why in one line', async () => {
    const recognizer = new LineRecognizer(() => ({ model: '/nonexistent/rec.onnx', keys: lineModelFiles().keys }));
    const weak = line([['T0TAL', 0.5]]);
    const { words, report } = await rereadWeakLines(image, weak, recognizer);
    expect(words).toEqual(weak);
    expect(report.replaced).toBe(0);
    expect(report.unavailable).toMatch(/^PP-OCR line recognizer not available: its model could not be read \(.*\/nonexistent\/rec\.onnx/);
    expect(report.unavailable).not.toContain('\n');
    await recognizer.dispose();
  });
});

// A development receipt (bench/fields/heldOutVendors.ts keeps its vendor out of the held-out split).
const receipt = path.join(defaultTestdataRoot, 'receipts', 'img', '102.jpg');
const haveReceipt = existsSync(receipt);
if (!haveReceipt) console.warn(`SKIPPED: second reader on a real receipt: ${receipt} is absent (the test documents, ../shared/testdata)`);

describe.skipIf(!haveReceipt)('the second reader on a real receipt', () => {
  const recognizer = new LineRecognizer();
  const pool = new TesseractPool(1, { pageSegmentationMode: PSM.AUTO, languages: ['eng'], lineReader: recognizer });
  afterAll(async () => {
    await Promise.all([pool.dispose(), recognizer.dispose()]);
  });

  it('reads the address line tesseract reads weakly ("55100 KUALA [UMPUR") right', async () => {
    const page = await pool.recognize(receipt, { dpi: 144 });
    expect(page.lineReread?.unavailable).toBeUndefined();
    const record = page.lineReread!.lines.find((l) => l.pp.includes('KUALA'));
    expect(record).toMatchObject({ pp: '55100 KUALA LUMPUR', kept: true });
    expect(record!.tesseractConfidence).toBeLessThan(0.9);
    const lumpur = page.words.find((w) => w.text === 'LUMPUR');
    expect(lumpur?.reader).toBe('pp-ocr');
    // Its box lies on the line's words in the page image's pixels (the box transcript: 261,479–517,509).
    expect(lumpur!.box[1]).toBeGreaterThan(460);
    expect(lumpur!.box[3]).toBeLessThan(530);
  });
});
