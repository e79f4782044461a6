import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  defaultTestdataRoot,
  gridToHtml,
  loadIcdarTruth,
  loadPdfjsCerPages,
  markdownToPlainText,
  olmocrPipelineOutputs,
  pdftotextLayerReader,
  runCerBench,
  runIcdarTableBench,
  runInvoiceFieldBench,
  runOlmocrBench,
} from './index.js';
import { parseCsv, testdataPath } from '../../testing/testdataPaths.js';

const have = existsSync(defaultTestdataRoot);
if (!have) console.warn(`shared test data absent at ${defaultTestdataRoot}: benchmark harness tests skipped`);

describe('parseCsv', () => {
  it('handles quotes, embedded commas and newlines', () => {
    expect(parseCsv(',"to air\nkg/year","a ""b"", c"\nx,y,z\n')).toEqual([
      ['', 'to air\nkg/year', 'a "b", c'],
      ['x', 'y', 'z'],
    ]);
  });
});

describe.skipIf(!have)('benchmark harnesses on the shared test set', () => {
  it('olmOCR: the published pipeline outputs score within the published range, a blank engine fails', async () => {
    const result = await runOlmocrBench(olmocrPipelineOutputs());
    console.log('olmocr_pipeline:', result.overall.toFixed(3), JSON.stringify(result.byType));
    expect(result.errors).toEqual([]);
    expect(result.tests).toBe(60); // 49 + 1 blank-page test + 10 implicit baselines (one per PDF without one)
    expect(result.perFile['dataset.jsonl']!.rate).toBeGreaterThanOrEqual(0.74);
    expect(result.overall).toBeGreaterThanOrEqual(0.74);
    expect(result.overall).toBeLessThan(1);
    expect(result.byType.order?.rate).toBe(1);
    const blank = await runOlmocrBench(async () => '');
    expect(blank.testPassRate).toBeLessThan(0.25); // only absent tests and the blank-page baseline pass
    expect(blank.perFile['dataset.jsonl']!.rate).toBeLessThan(0.25);
    const failing = await runOlmocrBench(async (pdf) => {
      throw new Error(`engine crashed on ${pdf}`);
    });
    expect(failing.overall).toBe(0);
    expect(failing.errors[0]).toMatch(/engine crashed/);
  });

  it('invoices: the pdftotext layers as engine reach the key-field target; a no-op engine scores 0', async () => {
    const result = await runInvoiceFieldBench(pdftotextLayerReader());
    console.log('invoice fields:', result.accuracy.toFixed(3), JSON.stringify(result.byField), 'lines', JSON.stringify(result.lineItems));
    expect(result.errors).toEqual([]);
    expect(result.outcomes.length).toBeGreaterThanOrEqual(50);
    expect(result.skipped.some((s) => s.document === 'Orlen' && s.field === 'invoice_number')).toBe(true);
    expect(result.accuracy).toBeGreaterThanOrEqual(0.95);
    const none = await runInvoiceFieldBench(async () => ({ markdown: '' }));
    expect(none.accuracy).toBe(0);
  });

  it('ICDAR: the true grids as engine give F1 1; a flattened engine scores lower', async () => {
    const truth = await loadIcdarTruth();
    expect(truth).toHaveLength(56);
    const perfect = await runIcdarTableBench(async (pdf, page) =>
      truth.filter((t) => t.pdfPath === pdf && t.page === page).map((t) => gridToHtml(t.grid)).join('\n\n'),
    );
    expect(perfect.micro.f1).toBe(1);
    // An engine that loses the last column of every table.
    const dropped = await runIcdarTableBench(async (pdf, page) =>
      truth
        .filter((t) => t.pdfPath === pdf && t.page === page)
        .map((t) => gridToHtml({ ...t.grid, colCount: t.grid.colCount - 1, cells: t.grid.cells.filter((c) => c.col + c.colspan < t.grid.colCount), slots: t.grid.slots.map((r) => r.slice(0, -1)) }))
        .join('\n\n'),
    );
    expect(dropped.micro.f1).toBeLessThan(0.95);
    expect(dropped.micro.f1).toBeGreaterThan(0.3);
    const none = await runIcdarTableBench(async () => 'no tables here');
    expect(none.micro.f1).toBe(0);
  });

  it('CER: the reference text scores ~0, Markdown syntax is not counted, a truncated text scores higher', async () => {
    const pages = await loadPdfjsCerPages(defaultTestdataRoot, ['bug886717', 'issue1350']);
    expect(pages.length).toBe(4);
    const byPage = new Map(pages.map((p) => [`${p.pdfPath}#${p.page}`, p.reference]));
    const exact = await runCerBench(async (pdf, page) => `## ${byPage.get(`${pdf}#${page}`)!}`, pages);
    expect(exact.cer).toBeLessThan(0.005); // only reference characters that look like Markdown syntax (`*`, `|`) differ
    const half = await runCerBench(async (pdf, page) => byPage.get(`${pdf}#${page}`)!.slice(0, Math.floor(byPage.get(`${pdf}#${page}`)!.length / 2)), pages);
    expect(half.cer).toBeGreaterThan(0.4);
    expect(markdownToPlainText('| a | **b** |\n|---|---|\n<td>c</td>').replace(/\s+/g, ' ').trim()).toBe('a b c');
    // Table cells write `$` as `&#36;` (and `&` as `&amp;`): the plain text has the characters themselves.
    expect(markdownToPlainText('<td>&#36;4.11</td><td>R&amp;D &#x41;</td>').replace(/\s+/g, ' ').trim()).toBe('$4.11 R&D A');
    expect(existsSync(testdataPath(defaultTestdataRoot, 'pdfjs', 'test', 'pdfs', 'bug886717.pdf'))).toBe(true);
  });
});
