import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent, PageInput } from '../../app/model/engine.js';
import { extractionSchema, type Extraction } from '../../app/model/extraction.js';
import { elementProblems, plainWords, wordRecall } from '../../testing/extractionChecks.js';
import { parseHtmlTables } from '../../app/tables/index.js';
import { BundledEngine } from './index.js';
import { DEFAULT_MAX_OCR_WORKERS } from './bundledEngine.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = path.join(repoRoot, 'resources', 'samples');

let engine: BundledEngine;
let cache: string;
beforeAll(async () => {
  engine = new BundledEngine();
  cache = await mkdtemp(path.join(os.tmpdir(), 'recto-bundled-test-'));
});
afterAll(async () => {
  await engine.dispose();
  await rm(cache, { recursive: true, force: true });
});

/** A sample scan as the engine gets it: the PNG itself is the page image (the samples are 150 dpi). */
async function scanPage(file: string): Promise<PageInput> {
  const { width, height, density } = await sharp(file).metadata();
  return { imagePath: file, width, height, dpi: density ?? 150, textLayer: null, label: path.basename(file) };
}

async function truthOf(sample: string): Promise<{ text: string; fields: { invoice_number: string } }> {
  return JSON.parse(await readFile(path.join(samples, sample.replace(/\.(pdf|png)$/u, '.truth.json')), 'utf8'));
}

describe('BundledEngine on a page with a text layer', () => {
  it('uses the text layer as is, without looking at the image', async () => {
    // Two lines of a text layer; the image path does not exist, so any attempt at OCR would fail.
    const word = (text: string, x: number, y: number, fontSize = 20) => ({
      text,
      box: [x, y - 16, x + 12 * text.length, y + 4] as [number, number, number, number],
      fontSize,
      fontName: 'Helvetica',
    });
    const textLayer = {
      words: [
        word('Quarterly', 100, 100, 40),
        word('Invoice', 420, 100, 40),
        word('Total', 100, 200),
        word('due:', 170, 200),
        word('$12.50', 230, 200),
        word('Payable', 100, 226),
        word('within', 200, 226),
        word('thirty', 290, 226),
        word('days.', 370, 226),
      ],
    };
    const events: EngineEvent[] = [];
    const extraction = await engine.read(
      { imagePath: path.join(cache, 'no-such-image.png'), width: 1000, height: 1400, dpi: 150, textLayer, label: 'q.pdf p1' },
      { onEvent: (event) => events.push(event) },
    );
    expect(extraction.engine.provider).toBe('text-layer');
    expect(extraction.markdown).toBe('# Quarterly Invoice\n\nTotal due: \\$12.50\nPayable within thirty days.');
    expect(extraction.words!.every((w) => w.confidence === 1)).toBe(true);
    expect(elementProblems(extraction)).toEqual([]);
    const fractions = events.flatMap((e) => (e.type === 'progress' ? [e.fraction] : []));
    expect([fractions[0], fractions.at(-1)]).toEqual([0, 1]);
    expect(events.some((e) => e.type === 'stats')).toBe(true);
  });
});

describe('BundledEngine tables and invoice fields (synthetic text layer)', () => {
  // An invoice page as a text layer: labels, a line-items table (4 columns, header row), totals. 1000 × 1400 px.
  const word = (text: string, x: number, y: number) => ({
    text,
    box: [x, y - 16, x + 10 * text.length, y + 4] as [number, number, number, number],
    fontSize: 20,
    fontName: 'Helvetica',
  });
  const line = (text: string, x: number, y: number) => {
    let cursor = x;
    return text.split(' ').map((t) => {
      const w = word(t, cursor, y);
      cursor += 10 * t.length + 6;
      return w;
    });
  };
  const cells = (texts: string[], y: number) => texts.flatMap((t, i) => line(t, [100, 500, 650, 800][i], y));
  const textLayer = {
    words: [
      ...line('Invoice number: INV-2041', 100, 200),
      ...line('Invoice date: 2024-03-05', 100, 230),
      ...cells(['Description', 'Qty', 'Unit price', 'Amount'], 330),
      ...cells(['Blue widgets', '2', '5.00', '10.00'], 370),
      ...cells(['Red gadgets', '3', '7.50', '22.50'], 410),
      ...cells(['Green gizmos', '1', '12.00', '12.00'], 450),
      ...line('Subtotal 44.50', 650, 560),
      ...line('VAT 8.46', 650, 590),
      ...line('Total 52.96', 650, 620),
      ...line('Payment is due within thirty days of the invoice date.', 100, 700),
    ],
  };

  it('writes the line items as an HTML table element with cell boxes, and attaches the invoice fields with boxes', async () => {
    const extraction = await engine.read({ imagePath: path.join(cache, 'none.png'), width: 1000, height: 1400, dpi: 150, textLayer, label: 'inv.pdf p1' });
    extractionSchema.parse(extraction);
    expect(elementProblems(extraction)).toEqual([]);
    const table = extraction.elements.find((e) => e.kind === 'table')!;
    expect(extraction.markdown.slice(...table.span)).toContain('<tr><th>Description</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr>');
    expect(table.cells).toHaveLength(16);
    expect(table.cells!.find((c) => c.row === 2 && c.col === 3)!.box[0]).toBe(800);
    const invoice = extraction.fields!.invoice as Record<string, unknown>;
    expect(invoice).toMatchObject({ invoice_number: 'INV-2041', issue_date: '2024-03-05', subtotal: 44.5, tax: 8.46, total: 52.96 });
    expect((invoice.lines as unknown[]).length).toBe(3);
    const sources = extraction.fields!.invoiceSources as Record<string, { boxes: number[][] }>;
    expect(sources.total.boxes[0][0]).toBeGreaterThan(650);
  });

  it('attaches no invoice fields to a page that names none', async () => {
    const prose = { words: line('A page of a paper about something else entirely, with no invoice labels at all here.', 100, 300) };
    const extraction = await engine.read({ imagePath: path.join(cache, 'none.png'), width: 1000, height: 1400, dpi: 150, textLayer: prose, label: 'paper.pdf p1' });
    expect(extraction.fields?.invoice).toBeUndefined();
  });

  it('names a missing OCR language clearly', async () => {
    const klingon = new BundledEngine({ languages: ['tlh'] });
    try {
      await expect(klingon.read(await scanPage(path.join(samples, 'brightline-invoice-scan.png')))).rejects.toThrow(/OCR language "tlh" is not installed/u);
    } finally {
      await klingon.dispose();
    }
  });
});

describe('BundledEngine on the scanned samples (tesseract OCR)', () => {
  for (const sample of ['northwind-invoice-scan.png', 'brightline-invoice-scan.png']) {
    it(`reads ${sample} by OCR and finds at least 90% of its words`, async () => {
      const events: EngineEvent[] = [];
      const extraction = await engine.read(await scanPage(path.join(samples, sample)), { onEvent: (e) => events.push(e) });
      const truth = await truthOf(sample);
      expect(extraction.engine.provider).toBe('tesseract');
      expect(extraction.engine.settings).toMatchObject({ language: 'eng', pageSegmentationMode: 3 });
      const recall = wordRecall(plainWords(truth.text), plainWords(extraction.markdown));
      console.log(`[bundled] ${sample}: word recall ${(100 * recall).toFixed(1)}%`);
      expect(recall).toBeGreaterThanOrEqual(0.9);
      const confidences = extraction.words!.map((w) => w.confidence!);
      expect(Math.min(...confidences)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...confidences)).toBeLessThanOrEqual(1);
      expect(confidences.some((c) => c < 1)).toBe(true);
      expect(elementProblems(extraction)).toEqual([]);
      extractionSchema.parse(extraction);
      // OCR progress arrives between start and end.
      expect(events.filter((e) => e.type === 'progress' && e.fraction > 0 && e.fraction < 1).length).toBeGreaterThan(0);
    });
  }

  it('reads as many pages at once as it has OCR workers, each page exactly as it reads alone', async () => {
    expect(new BundledEngine({ ocrWorkers: 3 }).parallelism).toBe(3);
    expect(engine.parallelism).toBe(Math.min(DEFAULT_MAX_OCR_WORKERS, os.availableParallelism()));
    const pages = await Promise.all(['northwind-invoice-scan.png', 'brightline-invoice-scan.png'].map((sample) => scanPage(path.join(samples, sample))));
    const alone = [];
    for (const page of pages) alone.push(await engine.read(page));
    // Four workers (two of them busy) and two second readers (lineReaderPool.ts), both pages in flight together: no page
    // takes the other's lines.
    const pair = new BundledEngine({ ocrWorkers: 4 });
    try {
      const together = await Promise.all(pages.map((page) => pair.read(page)));
      expect(together.map((e) => e.markdown)).toEqual(alone.map((e) => e.markdown));
      expect(together.map((e) => e.words)).toEqual(alone.map((e) => e.words));
      expect(together.map((e) => e.engine.settings.secondReader)).toEqual(alone.map((e) => e.engine.settings.secondReader));
    } finally {
      await pair.dispose();
    }
  });
});

describe('BundledEngine on white-on-dark print', () => {
  it('reads a line printed white on a dark bar (the bar keeps tesseract\'s inverted re-reading of weak lines on: inversePrint.ts)', async () => {
    // The sample scan with the band of its address line negated: white text on a black bar across the page.
    const file = path.join(samples, 'northwind-invoice-scan.png');
    const plain = await engine.read(await scanPage(file));
    const line = plain.words!.filter((w) => w.text.startsWith('Springfield'))[0]!;
    const [top, height] = [Math.round(line.box[1]) - 8, Math.round(line.box[3] - line.box[1]) + 16];
    const { width } = await sharp(file).metadata();
    const band = await sharp(file).extract({ left: 0, top, width: width!, height }).negate({ alpha: false }).toBuffer();
    const inverted = path.join(cache, 'inverted-band.png');
    await sharp(file).composite([{ input: band, left: 0, top }]).toFile(inverted);
    const read = await engine.read({ ...(await scanPage(file)), imagePath: inverted });
    const inBand = read.words!.filter((w) => w.box[1] >= top - 4 && w.box[3] <= top + height + 4).map((w) => w.text);
    expect(inBand.join(' ')).toContain('Springfield');
  });
});

describe('BundledEngine when things go wrong', () => {
  let crop: PageInput;
  beforeAll(async () => {
    // The top of a scan: a small, fast OCR page.
    const file = path.join(cache, 'top.png');
    await sharp(path.join(samples, 'northwind-invoice-scan.png')).extract({ left: 0, top: 0, width: 1306, height: 320 }).toFile(file);
    crop = { imagePath: file, width: 1306, height: 320, dpi: 150, textLayer: null, label: 'top.png p1' };
  });

  it('reads a page by OCR when its text layer is garbage, and says so', async () => {
    // Unmapped glyphs: what a PDF with a broken font encoding gives (U+FFFD and private-use code points).
    const word = { text: '\uFFFD\uE001\uE002\uFFFD'.repeat(10), box: [0, 0, 10, 10] as [number, number, number, number], fontSize: 10 };
    const garbage = { words: [word, word] };
    const extraction = await engine.read({ ...crop, textLayer: garbage });
    expect(extraction.engine.provider).toBe('tesseract');
    expect(extraction.warnings.join(' ')).toMatch(/unreadable/u);
    expect(extraction.markdown).toContain('Northwind');
  });

  it('reads a page by OCR when its text layer is only a typed header over a scanned body', async () => {
    const page = await scanPage(path.join(samples, 'northwind-invoice-scan.png'));
    const header = { words: [{ text: 'Archive', box: [100, 40, 220, 70] as [number, number, number, number], fontSize: 24 }, { text: 'copy 2024/118', box: [230, 40, 420, 70] as [number, number, number, number], fontSize: 24 }] };
    const extraction = await engine.read({ ...page, textLayer: header });
    expect(extraction.engine.provider).toBe('tesseract');
    expect(extraction.warnings.join(' ')).toMatch(/covers only part of the page/u);
    expect(extraction.markdown).toContain('Northwind');
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(engine.read(crop, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops an OCR page when aborted, and reads the next page afterwards', async () => {
    const controller = new AbortController();
    const reading = engine.read(crop, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'progress' && event.fraction > 0.05) controller.abort();
      },
    });
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    const next = await engine.read(crop);
    expect(next.markdown).toContain('INVOICE');
  });

  it('gives a valid empty extraction for a tiny page and for a blank page', async () => {
    const tiny = path.join(cache, 'tiny.png');
    await sharp({ create: { width: 4, height: 3, channels: 3, background: '#ffffff' } }).png().toFile(tiny);
    const blank = path.join(cache, 'blank.png');
    await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#ffffff' } }).png().toFile(blank);
    for (const [file, width, height] of [[tiny, 4, 3], [blank, 1200, 1600]] as const) {
      const extraction = await engine.read({ imagePath: file, width, height, dpi: 150, textLayer: null, label: `${path.basename(file)} p1` });
      extractionSchema.parse(extraction);
      expect(extraction.markdown).toBe('');
      expect(extraction.elements).toEqual([]);
    }
  });

  it('names the page when it cannot be read', async () => {
    const missing = { ...crop, imagePath: path.join(cache, 'missing.png'), label: 'lost.pdf p3' };
    await expect(engine.read(missing)).rejects.toThrow(/^lost\.pdf p3: /u);
  });
});

describe('BundledEngine tables from ruling lines in scanned pages', () => {
  const sample = path.join(samples, 'brightline-invoice-scan.png');
  const itemsTable = (extraction: Extraction) =>
    parseHtmlTables(extraction.markdown).find((table) => table.cells.some((cell) => cell.text === 'Service'));

  it('reads a scan whose items table is ruled (lines only, no column rules) as a table', async () => {
    const extraction = await engine.read(await scanPage(sample));
    // The scan is skewed: rules found on the straightened page are moved back onto the page as given.
    expect(extraction.engine.settings).toMatchObject({ skewDegrees: expect.any(Number) });
    expect((extraction.engine.settings as { skewDegrees: number }).skewDegrees).not.toBe(0);
    const table = itemsTable(extraction);
    expect(table).toBeDefined();
    expect(table!.colCount).toBe(4);
    expect(table!.cells.map((cell) => cell.text)).toEqual(expect.arrayContaining(['Hours', 'Rate', 'Amount', 'Brand identity workshop', 'EUR 570.00']));
    expect(elementProblems(extraction)).toEqual([]);
  });

  it('finds the rules of a page scanned a quarter turn round, in the pixels of the image as given', async () => {
    const turned = path.join(cache, 'brightline-turned.png');
    await sharp(sample).rotate(90).png().toFile(turned);
    const extraction = await engine.read(await scanPage(turned));
    expect(extraction.engine.settings).toMatchObject({ orientationDegrees: 270 });
    expect(itemsTable(extraction)?.colCount).toBe(4);
    const [x1, y1, x2, y2] = extraction.elements.find((e) => e.kind === 'table')!.box;
    expect(y2 - y1).toBeGreaterThan(x2 - x1);
    expect(elementProblems(extraction)).toEqual([]);
  });
});
