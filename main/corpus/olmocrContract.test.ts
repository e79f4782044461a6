/**
 * Contract of the export with olmOCR's own tools (readers in testing/toolReaders/olmocr.ts follow their code):
 * olmOCR-Bench's runner takes `--dir EXPORT/tests.jsonl` as it is (one-page PDFs in pdfs/, named by the tests) and
 * scores the corrected text 100 %; olmOCR's trainer finds one sample per page in the olmocr layout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchTestSchema, implicitBaselineTests, scoreBenchTests } from '../../app/checks/olmocr/index.js';
import { inspectFile } from '../composition/createRectoSession.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { ProjectStore } from '../store/projectStore.js';
import { makeRealInvoiceProject, realInvoices, realInvoicesAvailable } from '../../testing/realInvoiceProject.js';
import { benchRunnerInputs, candidateFileOf, olmocrTextRuleFilter, trainerSamples } from '../../testing/toolReaders/olmocr.js';
import { rendersWithKatex } from '../../app/checks/formula.js';
import { fillProject } from '../../testing/corpusFixtures.js';
import { exportCorpus } from './exportCorpus.js';
import { projectPageImages } from './pageImages.js';
import { imagePagePdf } from './pagePdfs.js';

if (!realInvoicesAvailable) console.log(`SKIPPED: olmOCR contract on real invoices: ${realInvoices.join(' or ')} absent`);

describe.skipIf(!realInvoicesAvailable)('the export as olmOCR-Bench and olmOCR take it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-olmocr-'));
  let store: ProjectStore;
  const exportTo = (name: string) =>
    exportCorpus(store, {
      outDir: path.join(dir, name),
      images: 'png',
      format: 'olmocr',
      pageImage: projectPageImages(store, new PageImageCache(path.join(dir, 'cache'), inspectFile)),
      sourceBytes: (sha256) => store.documents.getSourceBytes(sha256),
    });

  beforeAll(async () => {
    const made = await makeRealInvoiceProject(dir, (markdown, index) => {
      if (index === 0) return markdown.replace(/\b(\w{5,})\b/, '$1 (checked)');
      if (index === 1) return `${markdown}\n\nA line the engine missed.`;
      return null;
    });
    store = ProjectStore.open(made.project);
  }, 300_000);
  afterAll(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the runner finds a one-page PDF for every test and scores the corrections 100 %, the engine's text lower", async () => {
    const summary = await exportTo('out');
    const out = path.join(dir, 'out');
    const { tests, pdfs } = await benchRunnerInputs(path.join(out, 'tests.jsonl'));
    expect(tests.length).toBe(summary.tests);
    expect(tests.length).toBeGreaterThan(0);
    for (const test of tests) expect(benchTestSchema.safeParse(test).success).toBe(true);
    const records = fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; corrected_markdown: string; engine_markdown: string });
    // One PDF per record, one page each.
    const allPdfs = fs.readdirSync(path.join(out, 'pdfs')).sort();
    expect(allPdfs).toEqual(records.map((r) => `${r.id}.pdf`).sort());
    for (const pdf of allPdfs) expect((await PDFDocument.load(fs.readFileSync(path.join(out, 'pdfs', pdf)))).getPageCount()).toBe(1);
    // Candidates as the runner reads them: <pdf stem>_pg1_repeat1.md.
    const scored = (text: (r: (typeof records)[number]) => string) => {
      const candidate = new Map(records.map((r) => [candidateFileOf({ pdf: `${r.id}.pdf`, page: 1 }), text(r)]));
      const parsed = tests.map((t) => benchTestSchema.parse(t));
      const all = [...parsed, ...implicitBaselineTests(pdfs, parsed)];
      return scoreBenchTests(all, (pdf, page) => candidate.get(candidateFileOf({ pdf, page }))).testPassRate;
    };
    expect(scored((r) => r.corrected_markdown)).toBe(1);
    expect(scored((r) => r.engine_markdown)).toBeLessThan(1);
  }, 120_000);

  it('the trainer finds one sample per page: the .md with its front matter and the page PDF beside it', async () => {
    const out = path.join(dir, 'out');
    const records = fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8').split('\n').filter(Boolean);
    const samples = trainerSamples(path.join(out, 'images'));
    expect(samples).toHaveLength(records.length);
    for (const sample of samples) expect(Object.keys(sample.frontMatter)).toContain('primary_language');
    // The trainer's text rule filter keeps every page.
    for (const sample of samples) expect(olmocrTextRuleFilter(sample.text, (latex) => rendersWithKatex(latex)), sample.md).toBeNull();
  });

  it("PDF sources give their own page (fonts and text kept); the files are the same bytes in every export", async () => {
    await exportTo('again');
    const first = path.join(dir, 'out', 'pdfs');
    for (const pdf of fs.readdirSync(first)) {
      const bytes = fs.readFileSync(path.join(first, pdf));
      expect(bytes.includes('/Font')).toBe(true);
      expect(bytes.equals(fs.readFileSync(path.join(dir, 'again', 'pdfs', pdf)))).toBe(true);
      expect(bytes.equals(fs.readFileSync(path.join(dir, 'out', 'images', pdf)))).toBe(true);
    }
  }, 120_000);
});

describe("olmOCR's trainer keeps every page of the olmocr layout", () => {
  it('formulas in \\( … \\) and \\[ … \\], dollars escaped, pipe tables as HTML: its text rule filter drops none', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-olmocr-filter-'));
    try {
      const store = ProjectStore.create(path.join(dir, 'p.recto'));
      // Display formulas corrected on two pages; a third corrected with what invoices hold: prices in dollars, an
      // inline formula, a pipe table.
      const pages = fillProject(store, [{ name: 'a.pdf', pages: 3, corrections: { 0: ['formula'], 1: ['formula', 'table'] } }]);
      const third = [
        '# Invoice 77',
        'Subtotal $1,200.00, discount $ 50, total due $1,150.00.',
        'Late fee: $f = \\frac{r}{12} \\cdot B$ per month.',
        '| Item | Amount |',
        '|---|---|',
        '| Paper | $12.50 |',
      ].join('\n\n').replace('| Item | Amount |\n\n|---|---|\n\n| Paper | $12.50 |', '| Item | Amount |\n|---|---|\n| Paper | $12.50 |');
      store.revisions.saveRevision(pages[2]!, third, 'Ana Analyst', null);
      const png = fs.readFileSync(path.join(import.meta.dirname, '../../resources/samples/northwind-invoice-scan.png'));
      await exportCorpus(store, { outDir: path.join(dir, 'out'), images: 'png', format: 'olmocr', pageImage: async () => png });
      const records = fs.readFileSync(path.join(dir, 'out', 'records.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { corrected_markdown: string });
      store.close();
      const renders = (latex: string) => rendersWithKatex(latex);
      // As Recto writes its text, the filter drops pages (the premise)...
      expect(records.map((r) => olmocrTextRuleFilter(r.corrected_markdown, renders)).filter((reason) => reason !== null).length).toBeGreaterThan(0);
      // ...as the olmocr layout writes it, none.
      const samples = trainerSamples(path.join(dir, 'out', 'images'));
      expect(samples).toHaveLength(3);
      for (const sample of samples) expect(olmocrTextRuleFilter(sample.text, renders), sample.md).toBeNull();
      const texts = samples.map((sample) => sample.text).join('\n');
      expect(texts).toContain('\\[\\text{Total} = \\sum_{i=1}^{n} q_i p_i + t\\]');
      expect(texts).toContain('\\(f = \\frac{r}{12} \\cdot B\\)');
      expect(texts).toContain('Subtotal \\$1,200.00, discount \\$ 50, total due \\$1,150.00.');
      expect(texts).not.toMatch(/(?<!\\)\$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a page image as a PDF', () => {
  it('is one page of the printed size with the image on it', async () => {
    const png = fs.readFileSync(path.join(import.meta.dirname, '../../resources/samples/northwind-invoice-scan.png'));
    const pdf = await PDFDocument.load(await imagePagePdf(png, { width: 1240, height: 1754, dpi: 150 }));
    expect(pdf.getPageCount()).toBe(1);
    const { width, height } = pdf.getPage(0).getSize();
    expect(width).toBeCloseTo((1240 / 150) * 72, 3);
    expect(height).toBeCloseTo((1754 / 150) * 72, 3);
  });
});
