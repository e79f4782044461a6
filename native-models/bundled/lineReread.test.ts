/**
 * The second reader's choice (lineReread.ts): each refusal, the words it replaces (weak ones only, on tesseract's
 * boxes, marked), a reader that cannot load its model, and one real receipt line that tesseract reads wrong and the
 * recognizer right (../shared/testdata/receipts; skipped with a reason where absent).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PSM } from 'tesseract.js';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import type { DecodedCharacter } from './lineCtc.js';
import { LineRecognizer, lineModelFiles } from './lineRecognizer.js';
import { charactersPerWord, chooseHeaderWord, chooseWord, headerLines, PP_CERTAIN, PP_SURE, rereadWeakLines, type LineReader } from './lineReread.js';
import type { GreyImage } from './ocrImage.js';
import { BundledEngine } from './bundledEngine.js';
import { TesseractPool } from './tesseractPool.js';
import type { OcrWord } from './tesseractWords.js';

/** Tesseract's words of one line, 10 px a character, a space between words, each word with its confidence. */
function line(spec: Array<[string, number]>, lineKey = '0.0.0', top = 100): OcrWord[] {
  let x = 20;
  return spec.map(([text, confidence]) => {
    const word: OcrWord = { text, confidence, box: [x, top, x + 10 * text.length, top + 20], lineKey, lineHeight: 20 };
    x += 10 * text.length + 10;
    return word;
  });
}

const word = (text: string, confidence: number) => ({ text, confidence });

describe('the choice between tesseract and the second reader, word by word', () => {
  it('takes a sure PP reading of a weak word', () => {
    expect(chooseWord(word('TKANO', 0.6), 'IKANO', 0.97)).toEqual({ keep: true });
    expect(chooseWord(word('17/61/2015', 0.5), '17/01/2018', 0.95)).toEqual({ keep: true });
  });

  it('refuses a weak PP reading', () => {
    expect(chooseWord(word('TKANO', 0.6), 'IKANO', 0.6)).toMatchObject({ keep: false, refusal: 'weak-reading' });
  });

  it('never touches a word tesseract is sure of, so characters PP cannot write (€, ß, ö) stay', () => {
    expect(PP_SURE).toBeLessThan(1);
    for (const text of ['€12,50', 'Straße', 'Köln']) expect(chooseWord(word(text, 0.9), 'C12,50', 0.99)).toMatchObject({ keep: false, refusal: 'tesseract-sure' });
    // Tesseract's unsure "£4." is noise, not a reason to keep its reading.
    expect(chooseWord(word('£4.', 0.3), '54', 0.97)).toEqual({ keep: true });
  });

  it('refuses CJK characters on a page not read as Chinese', () => {
    expect(chooseWord(word('Ref.', 0.4), 'Ref：', 0.95)).toMatchObject({ keep: false, refusal: 'cjk' });
    expect(chooseWord(word('Ref.', 0.4), 'Ref：', 0.95, true)).toEqual({ keep: true });
  });

  it('refuses letters in a word of digits, a reading of another length, nothing, and one that differs only in case', () => {
    expect(chooseWord(word('17/61/2015', 0.5), '17/O1/2018', 0.95)).toMatchObject({ refusal: 'letters-in-digits' });
    expect(chooseWord(word('CONFECTIONERY', 0.5), 'CONFECTI0NERY', 0.95)).toMatchObject({ refusal: 'digits-in-letters' });
    // Tesseract's digits at 0.8–0.9 are often wrong ("04/04/17" for 06/04/17): such a word is still weak.
    expect(chooseWord(word('04/04/17', 0.85), '06/04/17', 0.95)).toMatchObject({ keep: true });
    expect(chooseWord(word('lOO.OO', 0.5), '100.00', 0.95)).toMatchObject({ keep: true });
    expect(chooseWord(word('TOTALRM', 0.5), 'TO', 0.95)).toMatchObject({ refusal: 'length' });
    expect(chooseWord(word('12', 0.5), '12.50.001', 0.95)).toMatchObject({ refusal: 'length' });
    expect(chooseWord(word('12.5O', 0.5), '..', 0.95)).toMatchObject({ refusal: 'empty' });
    expect(chooseWord(word('CASH', 0.5), 'Cash', 0.99)).toMatchObject({ refusal: 'same' });
  });

  it("shares PP's characters among tesseract's words by cells that meet half-way between them", () => {
    const words = line([['T0TAL', 0.5], ['12.5O', 0.4]]); // 20–70 and 80–130
    const chars: DecodedCharacter[] = [...'TOTAL12.50'].map((char, i) => ({ char, probability: 0.9, x0: 20 + 11 * i, x1: 30 + 11 * i }));
    const shares = charactersPerWord(words, chars, 20).map((share) => share.map((c) => c.char).join(''));
    expect(shares).toEqual(['TOTAL', '12.50']);
    // A character far beyond the last word (more than half a line height) belongs to none.
    expect(charactersPerWord(words, [{ char: 'X', probability: 1, x0: 200, x1: 210 }], 20).flat()).toEqual([]);
  });

  it("pairs PP's words with tesseract's one to one where PP wrote as many, so a drifting short word is not run into its neighbour", () => {
    const words = line([['17/61:2018', 0.44], ['4', 0.96]]); // 20–120 and 130–140: cells meet at 125
    // PP's "4" drifted left into the date's cell (its frames a character early).
    const date = [...'17/01/2018'].map((char, i) => ({ char, probability: 0.95, x0: 20 + 4.5 * i, x1: 24 + 4.5 * i }));
    const chars: DecodedCharacter[] = [...date, { char: ' ', probability: 0.9, x0: 66, x1: 68 }, { char: '4', probability: 0.9, x0: 70, x1: 74 }];
    const text = (shares: DecodedCharacter[][]): string[] => shares.map((share) => share.map((c) => c.char).join(''));
    expect(text(charactersPerWord(words, chars, 20))).toEqual(['17/01/2018', '4']);
    // Without PP's space the characters go by cells (the drifted "4" to the date), as before.
    expect(text(charactersPerWord(words, chars.filter((c) => c.char !== ' '), 20))).toEqual(['17/01/20184', '']);
    // A pairing whose word lies far from its partner (beyond the neighbouring cells) is not trusted.
    const far = line([['AAAA', 0.5], ['BBBB', 0.5], ['CCCC', 0.5]]); // 20–60, 70–110, 120–160: "C" (47) is not near the third
    const skewed: DecodedCharacter[] = [
      { char: 'A', probability: 0.9, x0: 20, x1: 30 },
      { char: ' ', probability: 0.9, x0: 30, x1: 32 },
      { char: 'B', probability: 0.9, x0: 34, x1: 40 },
      { char: ' ', probability: 0.9, x0: 40, x1: 42 },
      { char: 'C', probability: 0.9, x0: 44, x1: 50 },
    ];
    expect(text(charactersPerWord(far, skewed, 20))).toEqual(['ABC', '', '']);
  });
});

describe('the choice in the header lines, where a word tesseract is sure of may still be a slip', () => {
  it('takes a much surer PP reading that differs from a sure word by a letter in four', () => {
    expect(chooseHeaderWord(word('PERNIAGAAR', 0.91), 'PERNIAGAAN', 0.99)).toEqual({ keep: true });
    expect(chooseHeaderWord(word('CARE', 0.9), 'CAKE', 0.97)).toEqual({ keep: true });
    expect(PP_CERTAIN).toBeGreaterThan(PP_SURE);
  });

  it("refuses PP's own slips, barely surer than tesseract, and another word, digits, punctuation alone", () => {
    expect(chooseHeaderWord(word('Cashier', 0.96), 'Casher', 0.98)).toMatchObject({ keep: false, refusal: 'tesseract-sure' });
    expect(chooseHeaderWord(word('ZHENG', 0.92), 'ZHFNG', 0.94)).toMatchObject({ keep: false, refusal: 'tesseract-sure' });
    // A letter fewer is PP's own slip (its CTC drops a narrow letter), not tesseract's.
    expect(chooseHeaderWord(word('LIAN', 0.9), 'LAN', 0.96)).toMatchObject({ keep: false, refusal: 'not-a-slip' });
    expect(chooseHeaderWord(word('cone', 0.9), 'come', 0.99)).toEqual({ keep: true });
    expect(chooseHeaderWord(word('HARDWARE', 0.9), 'HANDBAG', 0.99)).toMatchObject({ keep: false, refusal: 'not-a-slip' });
    expect(chooseHeaderWord(word('(162761-M)', 0.9), '(162781-M)', 0.99)).toMatchObject({ keep: false, refusal: 'not-a-slip' });
    expect(chooseHeaderWord(word('Cash', 0.93), 'Cash&', 0.99)).toMatchObject({ keep: false, refusal: 'same' });
    // A letter PP cannot write (ö, ß, é) keeps tesseract's word.
    expect(chooseHeaderWord(word('Köln', 0.9), 'Koln', 0.99)).toMatchObject({ keep: false, refusal: 'not-a-slip' });
    expect(chooseHeaderWord(word('Café', 0.9), 'Cafe', 0.99)).toMatchObject({ keep: false, refusal: 'not-a-slip' });
    expect(chooseHeaderWord(word('Straße', 0.9), 'Strabe', 0.99)).toMatchObject({ keep: false, refusal: 'not-a-slip' });
  });

  it('a weak word of a header line is chosen as anywhere else', () => {
    expect(chooseHeaderWord(word('JAN', 0.23), 'UAN', 0.92)).toEqual(chooseWord(word('JAN', 0.23), 'UAN', 0.92));
    expect(chooseHeaderWord(word('TKANO', 0.6), 'IKANO', 0.6)).toMatchObject({ refusal: 'weak-reading' });
  });
});

/** A reader that answers `text` for every crop, its characters spread over the crop's width. */
function fakeReader(text: string, probability: number): LineReader & { crops: GreyImage[] } {
  const crops: GreyImage[] = [];
  return {
    crops,
    unavailable: null,
    read: async (crop) => {
      crops.push(crop);
      const step = crop.width / text.length;
      return { text, characters: [...text].map((char, i) => ({ char, probability, x0: i * step, x1: (i + 1) * step })) };
    },
  };
}

describe('weak lines read again', () => {
  const image: GreyImage = { data: new Uint8Array(400 * 300).fill(255), width: 400, height: 300 };

  it("reads only weak lines and replaces only their weak words, on tesseract's boxes, marked", async () => {
    // The page's first line (the header, ended by its amount) is weak; the sure lines below the amount are not read.
    const sure = [...line([['CASH', 0.95], ['20.00', 0.96]], '0.0.1', 150), ...line([['THANK', 0.95], ['YOU', 0.96]], '0.0.2', 200)];
    const weak = line([['TOTAL', 0.95], ['12.5O', 0.4]], '0.0.0', 100);
    // PP reads the whole weak line (crop 16–134), and reads TOTAL wrong: tesseract's sure word stays.
    const reader = fakeReader('TATAL12.50', 0.95);
    const { words, report } = await rereadWeakLines(image, [...sure, ...weak], reader);
    expect(reader.crops).toHaveLength(1);
    expect(words.slice(0, 5)).toEqual([...sure, weak[0]]);
    expect(words[5]).toEqual({ ...weak[1], text: '12.50', confidence: 0.95, reader: 'pp-ocr' });
    expect(report).toMatchObject({ read: 1, replaced: 1 });
    expect(report.lines[0]!.words.map((w) => [w.tesseract, w.pp, w.kept])).toEqual([
      ['TOTAL', 'TATAL', false],
      ['12.5O', '12.50', true],
    ]);
  });

  it('reads the header lines by both readers, up to the first date or amount, and corrects a sure slip there', async () => {
    const name = line([['PERNIAGAAR', 0.91], ['CONTOH', 0.96]], '0.0.0', 20);
    const address = line([['JALAN', 0.95], ['SATU', 0.95]], '0.0.1', 50);
    const dated = line([['Date', 0.95], ['12/02/2018', 0.95]], '0.0.2', 80);
    const below = line([['CASHIER', 0.95]], '0.0.3', 110);
    const reader = fakeReader('PERNIAGAAN CONTOH', 0.99);
    const { words, report } = await rereadWeakLines(image, [...below, ...dated, ...address, ...name], reader);
    // The two header lines only: the line with a date ends the header, a sure line below it is not read.
    expect(reader.crops).toHaveLength(2);
    expect(report.lines.map((l) => l.words.map((w) => w.tesseract))).toEqual([['PERNIAGAAR', 'CONTOH'], ['JALAN', 'SATU']]);
    expect(words.find((w) => w.box === name[0]!.box)).toEqual({ ...name[0], text: 'PERNIAGAAN', confidence: 0.99, reader: 'pp-ocr' });
    // PP's reading of the address line is no slip of its words: tesseract's stay.
    expect(words.filter((w) => w.lineKey === '0.0.1')).toEqual(address);
    expect(headerLines([...below, ...dated, ...address, ...name]).map((l) => l[0]!.text)).toEqual(['PERNIAGAAR', 'JALAN']);
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
  // Tesseract's own reading of these receipts as the second reader meets it (no second reading thresholded locally,
  // which reads some of these lines better itself).
  const pool = new TesseractPool(1, { pageSegmentationMode: PSM.AUTO, languages: ['eng'], lineReader: recognizer, localThreshold: false });
  afterAll(async () => {
    await Promise.all([pool.dispose(), recognizer.dispose()]);
  });

  it('reads the address line tesseract reads weakly ("55100 KUALA [UMPUR") right', async () => {
    const page = await pool.recognize(receipt, { dpi: 144 });
    expect(page.lineReread?.unavailable).toBeUndefined();
    const record = page.lineReread!.lines.find((l) => l.pp.includes('KUALA'));
    expect(record?.pp).toBe('55100 KUALA LUMPUR');
    expect(record!.words.find((w) => w.pp === 'LUMPUR')).toMatchObject({ kept: true });
    const lumpur = page.words.find((w) => w.text === 'LUMPUR');
    expect(lumpur?.reader).toBe('pp-ocr');
    // Its box lies on the line in the page image's pixels (the box transcript: 261,479–517,509).
    expect(lumpur!.box[1]).toBeGreaterThan(460);
    expect(lumpur!.box[3]).toBeLessThan(530);
  });

  it("reads a receipt's header lines by both readers, tesseract's sure words there too, not the sure lines below its first date", async () => {
    // A development receipt (BERRY'S CAKE HOUSE): its address lines are read well by tesseract.
    const berry = path.join(defaultTestdataRoot, 'receipts', 'img', '315.jpg');
    const page = await pool.recognize(berry, { dpi: 144 });
    const read = page.lineReread!.lines.map((l) => l.words.map((w) => w.tesseract).join(' '));
    const sureHeader = page.lineReread!.lines.find((l) => l.words.some((w) => w.tesseract.startsWith('Bandar')));
    expect(sureHeader?.words.every((w) => w.confidence >= 0.9)).toBe(true);
    expect(sureHeader?.pp).toContain('Bandar Puteri');
    // Both readers agree there: tesseract's words stay.
    expect(sureHeader?.words.some((w) => w.kept)).toBe(false);
    // Below the first date only lines with a weak word are read.
    const dated = read.findIndex((t) => /\d{2}\/\d{2}\/\d{4}/.test(t));
    for (const line of page.lineReread!.lines.slice(dated + 1)) expect(line.words.some((w) => /[\p{L}\p{N}]/u.test(w.tesseract) && w.confidence < 0.9)).toBe(true);
  });

  it('is switched off by BundledEngine({ lineReread: false }) and counted in the extraction where on', async () => {
    const { width, height } = await sharp(receipt).metadata();
    const input = { imagePath: receipt, width: width!, height: height!, dpi: 144, textLayer: null, label: '102.jpg' };
    const texts: string[] = [];
    for (const lineReread of [true, false]) {
      const engine = new BundledEngine({ ocrWorkers: 1, lineReread, invoiceFields: false });
      try {
        const extraction = await engine.read(input);
        const secondReader = extraction.engine.settings.secondReader as { linesRead: number; wordsReplaced: number } | undefined;
        if (lineReread) expect(secondReader?.wordsReplaced).toBeGreaterThan(0);
        else expect(secondReader).toBeUndefined();
        expect(extraction.warnings).toEqual([]);
        texts.push((extraction.words ?? []).map((w) => w.text).join(' '));
      } finally {
        await engine.dispose();
      }
    }
    expect(texts[0]).toContain('KUALA LUMPUR');
    expect(texts[1]).not.toBe(texts[0]);
  });
});
