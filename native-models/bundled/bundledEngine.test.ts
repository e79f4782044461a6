import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent, PageInput } from '../../app/model/engine.js';
import { extractionSchema, type Extraction } from '../../app/model/extraction.js';
import { importDocument } from '../../main/import/index.js';
import { BundledEngine } from './index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = path.join(repoRoot, 'resources', 'samples');
const testdata = path.resolve(repoRoot, '..', 'shared', 'testdata');
const awsPdf = path.join(testdata, 'invoice2data', 'tests', 'compare', 'AmazonWebServices.pdf');
const awsLayoutText = path.join(testdata, 'invoice2data', 'groundtruth_pdftotext', 'AmazonWebServices.layout.txt');
const hasTestdata = existsSync(awsPdf) && existsSync(awsLayoutText);
if (!hasTestdata) console.warn(`[skip] bundled engine on a real invoice: ${testdata} is absent (it exists in CI)`);

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

async function pageOf(file: string, label = path.basename(file)): Promise<PageInput> {
  const document = await importDocument(file, cache);
  return { ...document.pages[0], label };
}

/** Markdown back to plain words: the engine escapes `$`, `*`, `_`, … and line-start marks. */
function plainWords(markdown: string): string[] {
  return markdown
    .replace(/\\([\\`*_$<#>+\-.)=])/gu, '$1')
    .split(/\s+/u)
    .filter(Boolean);
}

/** Share of the truth's words (as a multiset) that the output contains. */
function wordRecall(truth: string[], output: string[]): number {
  const left = new Map<string, number>();
  for (const word of output) left.set(word, (left.get(word) ?? 0) + 1);
  let found = 0;
  for (const word of truth) {
    const n = left.get(word) ?? 0;
    if (n > 0) {
      found++;
      left.set(word, n - 1);
    }
  }
  return found / truth.length;
}

async function truthOf(sample: string): Promise<{ text: string; fields: { invoice_number: string } }> {
  return JSON.parse(await readFile(path.join(samples, sample.replace(/\.(pdf|png)$/u, '.truth.json')), 'utf8'));
}

/** Every element's span is its block of the Markdown; boxes lie on the page; the shape is a valid Extraction. */
function expectConsistent(extraction: Extraction): void {
  extractionSchema.parse(extraction);
  const { markdown, elements, page } = extraction;
  expect(elements.length).toBeGreaterThan(0);
  expect(elements.map((element) => markdown.slice(...element.span)).join('\n\n')).toBe(markdown);
  for (const element of elements) {
    expect(markdown.slice(...element.span).trim()).not.toBe('');
    const [x1, y1, x2, y2] = element.box;
    expect(x1 <= x2 && y1 <= y2).toBe(true);
    expect(x1).toBeGreaterThanOrEqual(-1);
    expect(y1).toBeGreaterThanOrEqual(-1);
    expect(x2).toBeLessThanOrEqual(page.width + 1);
    expect(y2).toBeLessThanOrEqual(page.height + 1);
  }
  // Every word of an element's text lies inside the element's box.
  for (const element of elements) {
    const inside = (extraction.words ?? []).filter(
      (w) => w.box[0] >= element.box[0] - 0.5 && w.box[2] <= element.box[2] + 0.5 && w.box[1] >= element.box[1] - 0.5 && w.box[3] <= element.box[3] + 0.5,
    );
    const texts = new Set(inside.map((w) => w.text));
    for (const word of plainWords(markdown.slice(...element.span)).filter((w) => !/^#+$/u.test(w))) {
      expect(texts.has(word)).toBe(true);
    }
  }
}

describe('BundledEngine on the born-digital samples (PDF text layer)', () => {
  for (const sample of ['northwind-invoice.pdf', 'brightline-invoice.pdf']) {
    it(`reads ${sample} from its text layer with all its words`, async () => {
      const events: EngineEvent[] = [];
      const extraction = await engine.read(await pageOf(path.join(samples, sample)), { onEvent: (e) => events.push(e) });
      const truth = await truthOf(sample);
      expect(extraction.engine.provider).toBe('text-layer');
      expect(wordRecall(plainWords(truth.text), plainWords(extraction.markdown))).toBeGreaterThanOrEqual(0.98);
      expect(extraction.markdown).toContain(truth.fields.invoice_number);
      expect(extraction.words!.every((w) => w.confidence === 1)).toBe(true);
      expect(extraction.elements[0].kind).toBe('title');
      expectConsistent(extraction);
      const fractions = events.flatMap((e) => (e.type === 'progress' ? [e.fraction] : []));
      expect(fractions[0]).toBe(0);
      expect(fractions.at(-1)).toBe(1);
      expect(events.some((e) => e.type === 'stats')).toBe(true);
    });
  }
});

describe('BundledEngine on the scanned samples (tesseract OCR)', () => {
  for (const sample of ['northwind-invoice-scan.png', 'brightline-invoice-scan.png']) {
    it(`reads ${sample} by OCR and finds at least 90% of its words`, async () => {
      const events: EngineEvent[] = [];
      const extraction = await engine.read(await pageOf(path.join(samples, sample)), { onEvent: (e) => events.push(e) });
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
      expectConsistent(extraction);
      // OCR progress arrives between start and end.
      expect(events.filter((e) => e.type === 'progress' && e.fraction > 0 && e.fraction < 1).length).toBeGreaterThan(0);
    });
  }
});

describe.skipIf(!hasTestdata)('BundledEngine on a real invoice PDF', () => {
  it('reads AmazonWebServices.pdf with the words pdftotext finds, in consistent elements', async () => {
    const extraction = await engine.read(await pageOf(awsPdf));
    expect(extraction.engine.provider).toBe('text-layer');
    const words = plainWords(extraction.markdown);
    const truth = (await readFile(awsLayoutText, 'utf8')).split(/\s+/u).filter(Boolean);
    expect(wordRecall(truth, words)).toBeGreaterThanOrEqual(0.95);
    expect(extraction.markdown).toContain('Invoice Number: 42183017');
    expect(extraction.markdown).toContain('TOTAL AMOUNT DUE ON August 3 , 2014 \\$4.11');
    expect(extraction.elements.find((e) => e.kind === 'title')).toBeDefined();
    expectConsistent(extraction);
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

  it('names the page when it cannot be read', async () => {
    const missing = { ...crop, imagePath: path.join(cache, 'missing.png'), label: 'lost.pdf p3' };
    await expect(engine.read(missing)).rejects.toThrow(/^lost\.pdf p3: /u);
  });
});
