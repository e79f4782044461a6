/**
 * The reading queue's document pass: pages of a document are saved after its running headers and footers are found
 * across them (a scripted engine, no pdf.js or OCR); and the same pass on real multi-page documents read by the
 * bundled engine (skipped, saying why, without ../shared/testdata).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markRunningFurniture } from '../../app/document/runningFurniture.js';
import type { Engine, PageInput } from '../../app/model/engine.js';
import type { Element, Extraction, Word } from '../../app/model/extraction.js';
import { BundledEngine } from '../../native-models/bundled/index.js';
import { elementProblems } from '../../testing/extractionChecks.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { EngineRegistry } from '../engines/engineRegistry.js';
import { importDocument } from '../import/index.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { RectoSession } from '../services/rectoSession.js';
import { SettingsFile } from '../settings/settingsFile.js';
import { fakeInspect } from '../../testing/fakes.js';

/** Reads a fake page (100 × 140 px) as a running header, a body line and "Page N of M" at the foot. */
class PagedReportEngine implements Engine {
  readonly descriptor = { id: 'paged', name: 'Paged', version: '1', licence: null, available: true };
  /** Pages in flight now, and the most there were at once. */
  inFlight = 0;
  mostAtOnce = 0;
  constructor(
    private readonly pageCount: number,
    readonly parallelism = 1,
  ) {}

  async read(input: PageInput): Promise<Extraction> {
    this.inFlight++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.inFlight--;
    const n = Number(/(\d+)$/.exec(input.textLayer?.words[0]?.text ?? '')?.[1] ?? 0);
    const blocks: [string, [number, number, number, number]][] = [
      ['ACME Annual Report', [10, 4, 60, 9]],
      [`Body text of page ${n}`, [10, 50, 90, 56]],
      [`Page ${n} of ${this.pageCount}`, [40, 132, 70, 137]],
    ];
    let markdown = '';
    const words: Word[] = [];
    const elements: Element[] = blocks.map(([text, box], i) => {
      if (markdown) markdown += '\n\n';
      const start = markdown.length;
      markdown += text;
      const parts = text.split(' ');
      const width = (box[2] - box[0]) / parts.length;
      parts.forEach((part, k) => words.push({ text: part, box: [box[0] + k * width, box[1], box[0] + (k + 1) * width, box[3]], confidence: 1 }));
      return { id: `b${i + 1}`, kind: 'text', box, span: [start, markdown.length], confidence: 1 };
    });
    return {
      markdown,
      elements,
      words,
      page: { width: input.width, height: input.height },
      engine: { id: 'paged', name: 'Paged', version: '1', packSha256: null, licence: null, provider: 'test', settings: {} },
      stats: { durationMs: 0 },
      warnings: [],
    };
  }

  async dispose(): Promise<void> {}
}

let dir: string;
let session: RectoSession;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-queue-'));
  const engine = new PagedReportEngine(3);
  session = new RectoSession({
    engines: new EngineRegistry(new Map([['paged', { descriptor: () => engine.descriptor, create: async () => engine }]])),
    settings: new SettingsFile(path.join(dir, 'data', 'settings.json')),
    images: new PageImageCache(path.join(dir, 'cache'), fakeInspect),
    dataDir: path.join(dir, 'data'),
    samplesDir: path.join(dir, 'samples'),
  });
  session.settings.update({ engine: 'paged', authorName: 'Test Analyst' });
});
afterEach(async () => {
  await session.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('reading queue: the document pass', () => {
  it('saves each page with the running header and page numbers as furniture, kept out of the Markdown', async () => {
    await session.createProject(path.join(dir, 'p.recto'));
    const file = path.join(dir, 'report.pdf');
    fs.writeFileSync(file, 'PAGES 3');
    const result = await session.importFiles([{ filePath: file }], 'paged');
    await session.queue.idle();
    const pages = result.imported[0]!.pages;
    expect(pages).toHaveLength(3);
    for (const [i, page] of pages.entries()) {
      const extraction = session.store.readings.latestExtraction(page.id)!;
      expect(session.store.documents.getPage(page.id).status).toBe('done');
      expect(extraction.markdown).toBe(`Body text of page ${i + 1}`);
      expect(extraction.elements.map((e) => e.kind)).toEqual(['header', 'text', 'page-number']);
      expect(elementProblems(extraction)).toEqual([]);
      expect(extraction.fields?.pageFurniture).toEqual([
        { id: 'b1', kind: 'header', text: 'ACME Annual Report' },
        { id: 'b3', kind: 'page-number', text: `Page ${i + 1} of 3` },
      ]);
    }

    // Reading one page again: the document's other pages are its context.
    session.reread(pages[1]!.id, 'paged');
    await session.queue.idle();
    expect(session.store.readings.latestExtraction(pages[1]!.id)!.elements.map((e) => e.kind)).toEqual(['header', 'text', 'page-number']);
  });

  it('saves each page as soon as it is read, and leaves a page the analyst has corrected as it was read', async () => {
    await session.createProject(path.join(dir, 'p.recto'));
    const file = path.join(dir, 'report.pdf');
    fs.writeFileSync(file, 'PAGES 3');
    const firstPageSaved: string[] = [];
    let corrected = false;
    // Correct page 1 as soon as it is saved, before the document's other pages are read.
    session.bus.subscribe((envelope) => {
      if (envelope.event !== 'page.updated') return;
      const { pageId } = envelope.payload as { pageId: string };
      const extraction = session.store.readings.latestExtraction(pageId);
      if (!extraction || corrected || session.store.documents.getPage(pageId).pageNumber !== 1) return;
      corrected = true;
      firstPageSaved.push(extraction.markdown);
      session.store.revisions.saveRevision(pageId, 'Corrected page 1', 'Test Analyst', null);
    });
    const result = await session.importFiles([{ filePath: file }], 'paged');
    await session.queue.idle();
    const pages = result.imported[0]!.pages;
    // Saved alone, page 1 had no other page to show that its first and last lines repeat.
    expect(firstPageSaved).toEqual(['ACME Annual Report\n\nBody text of page 1\n\nPage 1 of 3']);
    expect(session.store.readings.latestExtraction(pages[0]!.id)!.markdown).toBe(firstPageSaved[0]);
    expect(session.store.readings.latestExtraction(pages[1]!.id)!.markdown).toBe('Body text of page 2');
  });
});

describe('reading queue: pages at once', () => {
  it("reads as many pages at once as the engine's parallelism, never more", async () => {
    for (const parallelism of [1, 2]) {
      const paged = new PagedReportEngine(6, parallelism);
      const own = new RectoSession({
        engines: new EngineRegistry(new Map([['paged', { descriptor: () => paged.descriptor, create: async () => paged }]])),
        settings: new SettingsFile(path.join(dir, `data${parallelism}`, 'settings.json')),
        images: new PageImageCache(path.join(dir, `cache${parallelism}`), fakeInspect),
        dataDir: path.join(dir, `data${parallelism}`),
        samplesDir: path.join(dir, 'samples'),
      });
      try {
        own.settings.update({ engine: 'paged', authorName: 'Test Analyst' });
        await own.createProject(path.join(dir, `p${parallelism}.recto`));
        const file = path.join(dir, 'report.pdf');
        fs.writeFileSync(file, 'PAGES 6');
        const result = await own.importFiles([{ filePath: file }], 'paged');
        await own.queue.idle();
        expect(result.imported[0]!.pages.map((page) => own.store.documents.getPage(page.id).status)).toEqual(Array(6).fill('done'));
        expect(paged.mostAtOnce).toBe(parallelism);
      } finally {
        await own.dispose();
      }
    }
  });
});

const testdata = defaultTestdataRoot;
const tracemonkey = path.join(testdata, 'pdfjs', 'test', 'pdfs', 'tracemonkey.pdf');
const qualityHosting = path.join(testdata, 'invoice2data', 'tests', 'compare', 'QualityHosting.pdf');
const haveDocuments = fs.existsSync(tracemonkey) && fs.existsSync(qualityHosting);
if (!haveDocuments) console.log(`SKIPPED: document pass on real PDFs: ${tracemonkey} or ${qualityHosting} is absent`);

describe.skipIf(!haveDocuments)('the document pass on real documents read by the bundled engine', () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-queue-real-'));
  const engine = new BundledEngine({ ocrWorkers: 1 });
  afterAll(async () => {
    await engine.dispose();
    fs.rmSync(cache, { recursive: true, force: true });
  });
  const readAll = async (file: string): Promise<Extraction[]> => {
    const doc = await importDocument(file, cache);
    const pages: Extraction[] = [];
    for (const page of doc.pages) {
      pages.push(await engine.read({ imagePath: page.imagePath, width: page.width, height: page.height, dpi: page.dpi, textLayer: page.textLayer, label: `${file} p. ${page.pageNumber}` }));
    }
    return pages;
  };

  it('finds the company footer repeated on both pages of an invoice', { timeout: 120_000 }, async () => {
    const pages = await readAll(qualityHosting);
    const marked = markRunningFurniture(pages);
    for (const extraction of marked) {
      expect(elementProblems(extraction)).toEqual([]);
      expect(extraction.markdown).not.toContain('Kreissparkasse Gelnhausen');
      const footers = extraction.elements.filter((e) => e.kind === 'footer');
      expect(footers.length).toBeGreaterThanOrEqual(1);
      expect(Math.min(...footers.map((e) => e.box[1]))).toBeGreaterThan(0.85 * extraction.page.height);
    }
    expect(marked[1]!.markdown).toContain('Total EUR 34,73');
  });

  it('marks nothing on a 14-page paper without running headers, and keeps its text', { timeout: 240_000 }, async () => {
    const pages = await readAll(tracemonkey);
    expect(pages).toHaveLength(14);
    const marked = markRunningFurniture(pages);
    marked.forEach((extraction, i) => expect(extraction).toBe(pages[i])); // unchanged: the same objects
  });
});
