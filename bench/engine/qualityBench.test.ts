/**
 * bench-quality's pure parts with small inputs, the adapters with a scripted engine, and the olmOCR part on three
 * sample PDFs with the real bundled engine (skipped, saying why, when ../shared/testdata is absent).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Engine, PageInput } from '../../app/model/engine.js';
import type { Extraction } from '../../app/model/extraction.js';
import { BundledEngine } from '../../native-models/bundled/index.js';
import { benchQualityCommand } from './benchQualityCommand.js';
import { enginePageReader, limiter, pagesAskedBy, TEXT_ONLY_SAMPLE, unescapeMarkdown } from './engineReaders.js';
import { formatQualitySummary, missingTestdata, runQualityBench, selectCerPages, selectedPassRate, summariseCer, type QualityReport } from './qualityBench.js';
import { defaultTestdataRoot, repoRoot } from '../../testing/testdataPaths.js';

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'recto-quality-test-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('pure parts', () => {
  it('selectCerPages leaves out references too short to describe the page', () => {
    const { kept, leftOut } = selectCerPages(
      [
        { pdfPath: 'a.pdf', page: 1, reference: 'pdf.js\n' },
        { pdfPath: 'b.pdf', page: 1, reference: 'x'.repeat(60) },
      ],
      50,
    );
    expect(kept.map((p) => p.pdfPath)).toEqual(['b.pdf']);
    expect(leftOut[0]).toMatchObject({ file: 'a.pdf', page: 1 });
    expect(leftOut[0]!.reason).toMatch(/6 characters/);
  });

  it('selectedPassRate sums the chosen PDFs only', () => {
    const perPdf = { 'a.pdf': { passed: 3, total: 4, rate: 0.75 }, 'b.pdf': { passed: 1, total: 4, rate: 0.25 }, 'c.pdf': { passed: 0, total: 9, rate: 0 } };
    expect(selectedPassRate(perPdf, ['a.pdf', 'b.pdf'])).toEqual({ pdfs: ['a.pdf', 'b.pdf'], passed: 4, total: 8, rate: 0.5 });
    expect(selectedPassRate(perPdf, ['missing.pdf']).rate).toBe(0);
  });

  it('summariseCer totals the reference characters', () => {
    const s = summariseCer(
      { cer: 0.1, errors: [], pages: [{ pdfPath: 'a.pdf', page: 1, cer: 0.2, referenceChars: 10 }, { pdfPath: 'a.pdf', page: 2, cer: 0, referenceChars: 10 }] },
      [],
    );
    expect(s).toMatchObject({ cer: 0.1, pages: 2, referenceChars: 20 });
  });

  it('the summary names every part that ran', () => {
    const report: QualityReport = {
      testdataRoot: '/t',
      engine: { id: 'bundled', version: '0', concurrency: 2 },
      invoices: {
        accuracy: 0.5,
        correct: 1,
        total: 2,
        byField: {},
        lineItems: { found: 0, total: 1 },
        misses: [],
        parties: { seller: { correct: 3, total: 4 }, buyer: { correct: 2, total: 2 } },
        partyMisses: [],
        skipped: [],
        knownArtefacts: [],
        errors: [],
        seconds: 1,
      },
      icdar: { f1: 0.8, precision: 0.9, recall: 0.72, meanF1: 0.7, tables: 56, errors: [], seconds: 1 },
    };
    const text = formatQualitySummary(report);
    expect(text).toContain('invoice key fields: 1/2 = 50.0%');
    expect(text).toContain('parties: seller 3/4, buyer 2/2');
    expect(text).toContain('F1 0.800');
    expect(text).not.toContain('olmOCR');
  });

  it('missingTestdata names the folders a part needs', () => {
    const missing = missingTestdata('/nonexistent-testdata', ['olmocr', 'cer']);
    expect(missing).toHaveLength(2);
    expect(missing[0]).toContain(path.join('olmocr', 'olmocr', 'bench', 'sample_data', 'dataset.jsonl'));
  });

  it('unescapeMarkdown undoes backslash escapes only', () => {
    expect(unescapeMarkdown('Total \\$4.11 \\*net\\* a\\b')).toBe('Total $4.11 *net* a\\b');
  });

  it('limiter keeps at most N jobs in flight', async () => {
    const limit = limiter(2);
    let active = 0;
    let peak = 0;
    const job = async (): Promise<number> => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
      return 1;
    };
    const results = await Promise.all(Array.from({ length: 7 }, () => limit(job)));
    expect(results).toHaveLength(7);
    expect(peak).toBe(2);
  });

  it('pagesAskedBy records what a harness asks for', async () => {
    const asked = await pagesAskedBy(async (read) => {
      await read('/x.pdf', 1);
      await read('/x.pdf', 2);
    });
    expect(asked).toEqual([
      { filePath: '/x.pdf', pageNumber: 1 },
      { filePath: '/x.pdf', pageNumber: 2 },
    ]);
  });
});

describe('bench-quality command', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
  };

  it('exits 2 with a clear message when the test data folder is absent', async () => {
    const { err, io: sink } = io();
    const code = await benchQualityCommand(['--testdata', path.join(cacheDir, 'no-such-testdata')], sink);
    expect(code).toBe(2);
    expect(err.join('')).toMatch(/public test set is not where expected .*no-such-testdata/);
    expect(err.join('')).toContain('--testdata DIR');
  });

  it('runs as the bench:quality script', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), path.join(repoRoot, 'bench', 'engine', 'benchQualityCommand.ts'), '--testdata', path.join(cacheDir, 'absent')],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('public test set is not where expected');
  });

  it('rejects an unknown part and a bad worker count', async () => {
    const a = io();
    expect(await benchQualityCommand(['--only', 'olmocr,speed'], a.io)).toBe(2);
    expect(a.err.join('')).toContain('unknown part(s) speed');
    const b = io();
    expect(await benchQualityCommand(['--workers', '0'], b.io)).toBe(2);
  });
});

describe('engine adapters with a scripted engine', () => {
  it('imports once, reads each page once, and stacks invoice words page under page', async () => {
    const reads: PageInput[] = [];
    const engine: Engine = {
      descriptor: { id: 'scripted', name: 'scripted', version: '0', licence: null, available: true },
      async read(input) {
        reads.push(input);
        return {
          markdown: 'Total \\$4.11',
          elements: [],
          page: { width: input.width, height: input.height },
          words: [{ text: 'Total', box: [10, 20, 50, 30], confidence: 1 }],
        } as unknown as Extraction;
      },
      async dispose() {},
    };
    const sample = path.join(repoRoot, 'resources', 'samples', 'northwind-invoice-scan.png');
    const reader = enginePageReader(engine, { cacheDir, concurrency: 2 });
    await reader.prefetch([{ filePath: sample, pageNumber: 1 }]);
    expect(await reader.markdown(sample, 1)).toBe('Total \\$4.11');
    const invoice = await reader.invoice(sample);
    expect(invoice.markdown).toBe('Total $4.11');
    expect(invoice.words?.[0]?.box).toEqual([10, 20, 50, 30]);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.textLayer).toBeNull();
    await expect(reader.markdown(sample, 2)).rejects.toThrow(/has 1 page\(s\); page 2/);
  });
});

const haveTestdata = existsSync(defaultTestdataRoot);
if (!haveTestdata) console.warn(`bench-quality engine test skipped: shared test data absent at ${defaultTestdataRoot}`);

describe.skipIf(!haveTestdata)('bench-quality olmOCR part with the real bundled engine', () => {
  // Three born-digital sample pages (text layer: fast): running headers/footers, a two-column paper page, a table.
  const pdfs = [
    'headers_footers/ff0f0b22c55d8b90dd77d153f48e144fc9db_pg2.pdf',
    'headers_footers/ff3d6e051903fe5ca9bc172ece14964c5632_pg1.pdf',
    'discoverworld_crazy_table4.pdf',
  ];

  it('meets its pass-rate floor on three sample PDFs', { timeout: 240_000 }, async () => {
    const report = await runQualityBench({
      testdataRoot: defaultTestdataRoot,
      cacheDir,
      concurrency: 2,
      parts: ['olmocr'],
      olmocrPdfs: pdfs,
      makeEngine: ({ forceOcr }) => new BundledEngine({ ocrWorkers: 1, forceOcr }),
    });
    const selected = report.olmocr!.selected!;
    console.log('olmOCR selected PDFs:', `${selected.passed}/${selected.total}`, JSON.stringify(pdfs.map((p) => report.olmocr!.perPdf[p])));
    expect(report.olmocr!.errors).toEqual([]);
    expect(selected.total).toBe(20); // 6 + 3 + 11 tests in dataset.jsonl, implicit baselines included
    // Floor the engine meets (10/20 at 01:30 and 14/20 at 02:01 on 2026-11-30 as tables arrived); below 12/20 fails.
    expect(selected.rate).toBeGreaterThanOrEqual(0.6);
    expect(report.olmocr!.perPdf['headers_footers/ff3d6e051903fe5ca9bc172ece14964c5632_pg1.pdf']!.rate).toBe(1);
  });
});

const invoiceTestdata = missingTestdata(defaultTestdataRoot, ['invoices']);
if (invoiceTestdata.length > 0) console.log(`SKIPPED: invoice field floor: invoice2data test data absent (${invoiceTestdata.join(', ')})`);

describe.skipIf(invoiceTestdata.length > 0)('bench-quality invoice part with the real bundled engine', () => {
  it('meets its invoice key-field and line-item floors on invoice2data and, from the page, on the einvoices', { timeout: 300_000 }, async () => {
    const report = await runQualityBench({
      testdataRoot: defaultTestdataRoot,
      cacheDir,
      concurrency: 2,
      parts: ['invoices'],
      makeEngine: ({ forceOcr }) => new BundledEngine({ ocrWorkers: 1, forceOcr }),
    });
    const invoices = report.invoices!;
    console.log(`invoice key fields: ${invoices.correct}/${invoices.total}; line items ${invoices.lineItems.found}/${invoices.lineItems.total}`, JSON.stringify(invoices.misses));
    expect(invoices.errors.filter((e) => !e.endsWith(TEXT_ONLY_SAMPLE))).toEqual([]);
    expect(invoices.total).toBeGreaterThanOrEqual(50); // key fields printed on the pages (56 on 2026-11-30)
    // Floors the engine meets (56/56 fields, 31/31 line items on 2026-11-30; 27/31 before tables without a header row
    // were read, 53/56 before subtotals were derived).
    expect(invoices.accuracy).toBeGreaterThanOrEqual(0.95);
    expect(invoices.byField.subtotal!.correct).toBe(invoices.byField.subtotal!.total);
    expect(invoices.lineItems.found).toBeGreaterThanOrEqual(31);
    // Seller and buyer names, scored apart (10/10 and 11/11 on 2026-11-30, from 5/10 and 2/11), less one each.
    expect(invoices.parties.seller.correct).toBeGreaterThanOrEqual(invoices.parties.seller.total - 1);
    expect(invoices.parties.buyer.correct).toBeGreaterThanOrEqual(invoices.parties.buyer.total - 1);
    const einvoices = report.einvoices;
    if (!einvoices) {
      console.log('SKIPPED: einvoice floors: shared/testdata/einvoices is absent');
      return;
    }
    console.log(`einvoices from the page: key fields ${einvoices.keyFields.correct}/${einvoices.keyFields.total}; line amounts ${einvoices.lineAmounts.found}/${einvoices.lineAmounts.total}`, JSON.stringify(einvoices.misses));
    // Read from the page with the attachments ignored: 75/75 key fields, 25/25 line amounts on 2026-12-01 (29/75 and
    // 3/25 before the lexicon, form and split-row rules). Floors: the targets, 95% and 90%.
    expect(einvoices.errors).toEqual([]);
    expect(einvoices.keyFields.total).toBeGreaterThanOrEqual(70);
    expect(einvoices.combinedKeyFields.correct / einvoices.combinedKeyFields.total).toBeGreaterThanOrEqual(0.95);
    expect(einvoices.keyFields.correct / einvoices.keyFields.total).toBeGreaterThanOrEqual(0.95);
    expect(einvoices.lineAmounts.found / einvoices.lineAmounts.total).toBeGreaterThanOrEqual(0.9);
    // Amount due (BT-115) where the page prints the XML's value: 9/9 on 2026-12-01 (0/9 before it was read). Less one.
    expect(einvoices.amountDue.total).toBeGreaterThanOrEqual(9);
    expect(einvoices.amountDue.correct).toBeGreaterThanOrEqual(einvoices.amountDue.total - 1);
    // VAT breakdown (BG-23) against the XML's rows, where the page prints the values: base 10/11, tax 10/10 on
    // 2026-12-01 (0 before it was read; the miss prints the base as the net total with no rate beside it).
    expect(einvoices.vatBreakdown.tax.total).toBeGreaterThanOrEqual(10);
    expect(einvoices.vatBreakdown.tax.correct).toBeGreaterThanOrEqual(einvoices.vatBreakdown.tax.total - 1);
    expect(einvoices.vatBreakdown.base.correct).toBeGreaterThanOrEqual(10);
    // Line total, allowances, charges, paid against the XML's non-zero values printed on the page: 11/13 on 2026-12-01
    // (the two misses print the line total only as the net total, under no line-total label).
    expect(einvoices.settlement.total).toBeGreaterThanOrEqual(13);
    expect(einvoices.settlement.correct).toBeGreaterThanOrEqual(11);
    // The XML reader reads every attachment exactly as truth.json states.
    expect(einvoices.xmlAgreement.agreeing).toBe(einvoices.xmlAgreement.total);
    expect(einvoices.xmlAgreement.total).toBeGreaterThanOrEqual(11);
  });
});

const icdarTestdata = missingTestdata(defaultTestdataRoot, ['icdar']);
if (icdarTestdata.length > 0) console.log(`SKIPPED: ICDAR table floor: ICDAR 2013 test data absent (${icdarTestdata.join(', ')})`);

describe.skipIf(icdarTestdata.length > 0)('bench-quality ICDAR table part with the real bundled engine', () => {
  /** The bundled engine reading the text layer without its ruling lines: tables from alignment alone, as on scans. */
  const withoutRulings = (engine: Engine): Engine => ({
    descriptor: engine.descriptor,
    read: (input, options) => engine.read({ ...input, textLayer: input.textLayer ? { words: input.textLayer.words } : input.textLayer }, options),
    dispose: () => engine.dispose(),
  });

  it('meets its cell-neighbour F1 floors on the 56 EU tables, with and without ruling lines', { timeout: 300_000 }, async () => {
    const run = (wrap: (engine: Engine) => Engine) =>
      runQualityBench({
        testdataRoot: defaultTestdataRoot,
        cacheDir,
        concurrency: 2,
        parts: ['icdar'],
        makeEngine: ({ forceOcr }) => wrap(new BundledEngine({ ocrWorkers: 1, forceOcr })),
      });
    const ruled = (await run((engine) => engine)).icdar!;
    const aligned = (await run(withoutRulings)).icdar!;
    console.log(`ICDAR F1 ${ruled.f1.toFixed(3)} (P ${ruled.precision.toFixed(3)}, R ${ruled.recall.toFixed(3)}); without rulings ${aligned.f1.toFixed(3)} (P ${aligned.precision.toFixed(3)}, R ${aligned.recall.toFixed(3)})`);
    expect(ruled.errors).toEqual([]);
    expect(ruled.tables).toBe(56);
    // Floors the engine meets (2026-11-30: F1 1.000, P 1.000, R 1.000 with rulings, from 0.784 before ruled grids;
    // 0.803 from alignment alone, from 0.770), less a margin.
    expect(ruled.f1).toBeGreaterThanOrEqual(0.97);
    expect(ruled.precision).toBeGreaterThanOrEqual(0.97);
    expect(aligned.f1).toBeGreaterThanOrEqual(0.78);
  });

  it('meets its cell-neighbour F1 floor with every page rendered to an image and read by OCR', { timeout: 600_000 }, async () => {
    const report = await runQualityBench({
      testdataRoot: defaultTestdataRoot,
      cacheDir,
      concurrency: 2,
      parts: ['icdar-ocr'],
      makeEngine: ({ forceOcr }) => new BundledEngine({ ocrWorkers: 1, forceOcr }),
    });
    const byOcr = report.icdarOcr!;
    console.log(`ICDAR F1 by OCR ${byOcr.f1.toFixed(3)} (P ${byOcr.precision.toFixed(3)}, R ${byOcr.recall.toFixed(3)}, ${byOcr.tables} tables)`);
    expect(byOcr.errors).toEqual([]);
    // Floor the engine meets (2026-11-30: F1 0.829 with ruling lines found in the images, from 0.592 without), less a margin.
    expect(byOcr.f1).toBeGreaterThanOrEqual(0.78);
  });
});
