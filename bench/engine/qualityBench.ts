/**
 * `npm run bench:quality`: the real engine on the shared test set, through the harnesses of this folder —
 * olmOCR-Bench sample pass rates, invoice2data key-field accuracy, ICDAR 2013 EU cell-neighbour F1, and character error
 * rate of pages rendered to images and OCR'd (engine with forceOcr) against the pdf.js pdftotext layers.
 * The engine is made by a factory so this module runs any Engine; the CLI passes the bundled one.
 */
import { existsSync } from 'node:fs';
import type { Engine } from '../../app/model/engine.js';
import { enginePageReader, pagesAskedBy, unescapeMarkdown } from './engineReaders.js';
import { formatIcdarTableBench, runIcdarTableBench, type IcdarTableBenchResult } from './icdarTableBench.js';
import { formatInvoiceFieldBench, knownArtefacts, runInvoiceFieldBench, type InvoiceFieldBenchResult } from './invoiceFieldBench.js';
import { formatEInvoiceFieldBench, runEInvoiceFieldBench, type EInvoiceFieldBenchResult } from './einvoiceFieldBench.js';
import { microCer } from './speedReport.js';
import { loadPdfjsCerPages, markdownToPlainText, runCerBench, type CerBenchResult, type CerPage } from './cerBench.js';
import { formatOlmocrBench, runOlmocrBench, type OlmocrBenchResult } from './olmocrBench.js';
import { formatReadingBench, readingDatasetPath, readingPages, loadReadingTests, runReadingBench, type ReadingBenchResult } from './readingBench.js';
import { testdataPath } from '../../testing/testdataPaths.js';

export const qualityParts = ['olmocr', 'reading', 'invoices', 'icdar', 'icdar-ocr', 'cer'] as const;
export type QualityPart = (typeof qualityParts)[number];

export interface QualityBenchOptions {
  testdataRoot: string;
  /** Where imported pages are cached (by content hash; reruns render nothing). */
  cacheDir: string;
  /** Makes an engine; `forceOcr` for the CER part. Disposed by this module. */
  makeEngine: (settings: { forceOcr: boolean }) => Engine;
  /** Pages read at once (match the engine's OCR workers). */
  concurrency: number;
  parts?: readonly QualityPart[];
  /** olmOCR part: read only these PDFs (paths under pdfs/); the others' tests then fail and are left out of `selected`. */
  olmocrPdfs?: readonly string[];
  /** CER: reference pages with fewer characters than this are left out (their text layer does not describe the image). */
  cerMinReferenceChars?: number;
  log?: (line: string) => void;
}

export interface CerSummary {
  cer: number;
  pages: number;
  referenceChars: number;
  perPage: { file: string; page: number; cer: number; referenceChars: number }[];
  leftOut: { file: string; page: number; reason: string }[];
  errors: string[];
}

export interface QualityReport {
  testdataRoot: string;
  engine: { id: string; version: string; concurrency: number };
  olmocr?: {
    overall: number;
    testPassRate: number;
    byType: OlmocrBenchResult['byType'];
    perFile: OlmocrBenchResult['perFile'];
    perPdf: OlmocrBenchResult['perPdf'];
    /** With `olmocrPdfs`: passed / total over the selected PDFs' tests only. */
    selected?: { pdfs: string[]; passed: number; total: number; rate: number };
    failures: OlmocrBenchResult['failures'];
    errors: string[];
    seconds: number;
  };
  invoices?: {
    accuracy: number;
    correct: number;
    total: number;
    byField: InvoiceFieldBenchResult['byField'];
    lineItems: InvoiceFieldBenchResult['lineItems'];
    misses: { document: string; field: string; expected: string | number; actual: string | number | null }[];
    /** Seller and buyer names, scored apart from the key fields (see invoiceFieldBench.ts for their truth). */
    parties: InvoiceFieldBenchResult['partyByField'];
    partyMisses: { document: string; field: string; expected: string; actual: string | null }[];
    skipped: InvoiceFieldBenchResult['skipped'];
    knownArtefacts: typeof knownArtefacts;
    errors: string[];
    seconds: number;
  };
  /**
   * Real e-invoices read from the page (attachments ignored) against their own XML, over the values printed on the
   * page; and the XML reader's agreement with truth.json (part of "invoices"; absent without shared/testdata/einvoices).
   */
  einvoices?: Omit<EInvoiceFieldBenchResult, 'outcomes'> & {
    misses: EInvoiceFieldBenchResult['outcomes'];
    /** Key fields of both sets together (invoice2data and einvoices). */
    combinedKeyFields: { correct: number; total: number };
    seconds: number;
  };
  /** The reading dataset (bench/reading/dataset.jsonl): pass rates by reading rule and by test type. */
  reading?: Omit<ReadingBenchResult, 'failures'> & { failures: ReadingBenchResult['failures']; seconds: number };
  icdar?: { f1: number; precision: number; recall: number; meanF1: number; tables: number; errors: string[]; seconds: number };
  /** The same tables with every page rendered to an image and read by OCR (ruling lines then come from the image). */
  icdarOcr?: { f1: number; precision: number; recall: number; meanF1: number; tables: number; errors: string[]; seconds: number };
  /** `orderFreeCer`: CER of the sorted words (recognition without reading order), see speedReport.ts. */
  cer?: CerSummary & { orderFreeCer: number; seconds: number };
}

/** Testdata folders each part reads; absent ones are reported before anything runs. */
export function missingTestdata(root: string, parts: readonly QualityPart[] = qualityParts): string[] {
  const needs: Record<QualityPart, string[]> = {
    olmocr: [testdataPath(root, 'olmocrSample', 'dataset.jsonl')],
    reading: [readingDatasetPath, testdataPath(root, 'pdfjs')],
    invoices: [testdataPath(root, 'invoice2data', 'tests', 'compare')],
    icdar: [testdataPath(root, 'icdarEu'), testdataPath(root, 'icdarCsv', '_summary.json')],
    'icdar-ocr': [testdataPath(root, 'icdarEu'), testdataPath(root, 'icdarCsv', '_summary.json')],
    cer: [testdataPath(root, 'pdfjs', 'groundtruth_pdftotext')],
  };
  return parts.flatMap((p) => needs[p]).filter((p) => !existsSync(p));
}

/** Keeps CER pages whose reference has at least `minChars` non-space characters. */
export function selectCerPages(pages: readonly CerPage[], minChars: number): { kept: CerPage[]; leftOut: CerSummary['leftOut'] } {
  const kept: CerPage[] = [];
  const leftOut: CerSummary['leftOut'] = [];
  for (const p of pages) {
    const chars = p.reference.replace(/\s+/g, '').length;
    if (chars >= minChars) kept.push(p);
    else leftOut.push({ file: p.pdfPath, page: p.page, reason: `reference text layer has ${chars} characters (< ${minChars}): it does not describe the page image` });
  }
  return { kept, leftOut };
}

export function summariseCer(result: CerBenchResult, leftOut: CerSummary['leftOut']): CerSummary {
  return {
    cer: result.cer,
    pages: result.pages.length,
    referenceChars: result.pages.reduce((a, p) => a + p.referenceChars, 0),
    perPage: result.pages.map((p) => ({ file: p.pdfPath, page: p.page, cer: p.cer, referenceChars: p.referenceChars })),
    leftOut,
    errors: result.errors,
  };
}

/** Passed / total over the tests of the given PDFs (from the per-PDF tallies). */
export function selectedPassRate(perPdf: OlmocrBenchResult['perPdf'], pdfs: readonly string[]): { pdfs: string[]; passed: number; total: number; rate: number } {
  let passed = 0;
  let total = 0;
  for (const pdf of pdfs) {
    passed += perPdf[pdf]?.passed ?? 0;
    total += perPdf[pdf]?.total ?? 0;
  }
  return { pdfs: [...pdfs], passed, total, rate: total === 0 ? 0 : passed / total };
}

const seconds = (since: number): number => Math.round((performance.now() - since) / 100) / 10;

export async function runQualityBench(options: QualityBenchOptions): Promise<QualityReport> {
  const parts = options.parts ?? qualityParts;
  const log = options.log ?? (() => undefined);
  const root = options.testdataRoot;
  const report: QualityReport = { testdataRoot: root, engine: { id: '', version: '', concurrency: options.concurrency } };

  const needsLayerEngine = parts.some((p) => p !== 'cer' && p !== 'icdar-ocr');
  if (needsLayerEngine) {
    const engine = options.makeEngine({ forceOcr: false });
    report.engine.id = engine.descriptor.id;
    report.engine.version = engine.descriptor.version;
    const reader = enginePageReader(engine, { cacheDir: options.cacheDir, concurrency: options.concurrency });
    try {
      if (parts.includes('olmocr')) {
        const started = performance.now();
        const selected = options.olmocrPdfs ? new Set(options.olmocrPdfs) : null;
        const sampleDir = testdataPath(root, 'olmocrSample', 'pdfs');
        const isSelected = (pdfPath: string): boolean => !selected || selected.has(pdfPath.slice(sampleDir.length + 1).split('\\').join('/'));
        const readPage = (pdfPath: string, page: number): Promise<string> =>
          isSelected(pdfPath) ? reader.markdown(pdfPath, page) : Promise.resolve('');
        const asked = await pagesAskedBy((r) => runOlmocrBench(r, { testdataRoot: root }));
        await reader.prefetch(asked.filter((p) => isSelected(p.filePath)));
        const r = await runOlmocrBench(readPage, { testdataRoot: root });
        report.olmocr = {
          overall: r.overall,
          testPassRate: r.testPassRate,
          byType: r.byType,
          perFile: r.perFile,
          perPdf: r.perPdf,
          ...(options.olmocrPdfs ? { selected: selectedPassRate(r.perPdf, options.olmocrPdfs) } : {}),
          failures: r.failures,
          errors: r.errors,
          seconds: seconds(started),
        };
        log(formatOlmocrBench(r));
      }
      if (parts.includes('reading')) {
        const started = performance.now();
        await reader.prefetch(readingPages((await loadReadingTests()).tests, root));
        const r = await runReadingBench(reader.markdown, { testdataRoot: root });
        report.reading = { ...r, seconds: seconds(started) };
        log(formatReadingBench(r));
      }
      if (parts.includes('invoices')) {
        const started = performance.now();
        const r = await runInvoiceFieldBench(reader.invoice, { testdataRoot: root });
        const correct = r.outcomes.filter((o) => o.correct).length;
        report.invoices = {
          accuracy: r.accuracy,
          correct,
          total: r.outcomes.length,
          byField: r.byField,
          lineItems: r.lineItems,
          misses: r.outcomes.filter((o) => !o.correct).map(({ document, field, expected, actual }) => ({ document, field, expected, actual })),
          parties: r.partyByField,
          partyMisses: r.parties.filter((p) => !p.correct).map(({ document, field, expected, actual }) => ({ document, field, expected: expected[0]!, actual })),
          skipped: r.skipped,
          knownArtefacts,
          errors: r.errors,
          seconds: seconds(started),
        };
        log(formatInvoiceFieldBench(r));
        if (existsSync(testdataPath(root, 'einvoices', 'truth.json'))) {
          const startedE = performance.now();
          const e = await runEInvoiceFieldBench(reader.invoice, { testdataRoot: root });
          const { outcomes, ...rest } = e;
          report.einvoices = {
            ...rest,
            misses: outcomes.filter((o) => !o.correct),
            combinedKeyFields: { correct: correct + e.keyFields.correct, total: r.outcomes.length + e.keyFields.total },
            seconds: seconds(startedE),
          };
          log(formatEInvoiceFieldBench(e));
        } else {
          log(`SKIPPED: einvoices: ${testdataPath(root, 'einvoices', 'truth.json')} is absent`);
        }
      }
      if (parts.includes('icdar')) {
        const started = performance.now();
        const asked = await pagesAskedBy((r) => runIcdarTableBench(r, { testdataRoot: root }));
        await reader.prefetch(asked);
        const r: IcdarTableBenchResult = await runIcdarTableBench(reader.markdown, { testdataRoot: root });
        report.icdar = { ...r.micro, meanF1: r.meanF1, tables: r.tables.length, errors: r.errors, seconds: seconds(started) };
        log(formatIcdarTableBench(r));
      }
    } finally {
      await engine.dispose();
    }
  }

  if (parts.includes('cer') || parts.includes('icdar-ocr')) {
    const engine = options.makeEngine({ forceOcr: true });
    if (!report.engine.id) {
      report.engine.id = engine.descriptor.id;
      report.engine.version = engine.descriptor.version;
    }
    const reader = enginePageReader(engine, { cacheDir: options.cacheDir, concurrency: options.concurrency });
    try {
      if (parts.includes('icdar-ocr')) {
        const started = performance.now();
        const asked = await pagesAskedBy((r) => runIcdarTableBench(r, { testdataRoot: root }));
        await reader.prefetch(asked);
        const r = await runIcdarTableBench(reader.markdown, { testdataRoot: root });
        report.icdarOcr = { ...r.micro, meanF1: r.meanF1, tables: r.tables.length, errors: r.errors, seconds: seconds(started) };
        log(`by OCR of the rendered pages: ${formatIcdarTableBench(r)}`);
      }
      if (!parts.includes('cer')) return report;
      const started = performance.now();
      const { kept, leftOut } = selectCerPages(await loadPdfjsCerPages(root), options.cerMinReferenceChars ?? 50);
      await reader.prefetch(kept.map((p) => ({ filePath: p.pdfPath, pageNumber: p.page })));
      const plain = async (pdf: string, page: number): Promise<string> => unescapeMarkdown(await reader.markdown(pdf, page));
      const r = await runCerBench(plain, kept);
      // Recognition without reading order: the same pages' words sorted (pdftotext's raw order is the content stream's).
      const sorted = await Promise.all(
        kept.map(async (p) => ({ text: await plain(p.pdfPath, p.page).then(markdownToPlainText, () => ''), reference: p.reference })),
      );
      report.cer = { ...summariseCer(r, leftOut), orderFreeCer: microCer(sorted).orderFreeCer, seconds: seconds(started) };
      log(formatCer(report.cer));
    } finally {
      await engine.dispose();
    }
  }
  return report;
}

export function formatCer(cer: CerSummary & { orderFreeCer?: number }): string {
  const orderFree = cer.orderFreeCer === undefined ? '' : `; order-free (sorted words) ${(100 * cer.orderFreeCer).toFixed(2)}%`;
  return [
    `CER, pages rendered to images and OCR'd, vs pdf.js pdftotext layers: ${(100 * cer.cer).toFixed(2)}% over ${cer.pages} pages (${cer.referenceChars} reference chars)${orderFree}`,
    ...cer.leftOut.map((l) => `  left out ${l.file} p. ${l.page}: ${l.reason}`),
    ...cer.errors.map((e) => `  error: ${e}`),
  ].join('\n');
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** The one-screen summary printed at the end of `npm run bench:quality`. */
export function formatQualitySummary(report: QualityReport): string {
  const lines = [`Summary (${report.engine.id} ${report.engine.version}, ${report.engine.concurrency} at a time)`];
  if (report.olmocr) {
    const types = Object.entries(report.olmocr.byType).map(([t, r]) => `${t} ${r.passed}/${r.total}`).join(', ');
    lines.push(`  olmOCR sample: overall ${pct(report.olmocr.overall)} (mean per test file), all tests ${pct(report.olmocr.testPassRate)}; ${types}`);
    const dataset = report.olmocr.perFile['dataset.jsonl'];
    if (dataset) lines.push(`    dataset.jsonl ${dataset.passed}/${dataset.total} = ${pct(dataset.rate)}`);
    if (report.olmocr.selected) lines.push(`    selected PDFs ${report.olmocr.selected.passed}/${report.olmocr.selected.total} = ${pct(report.olmocr.selected.rate)}`);
  }
  if (report.reading) {
    const rules = Object.entries(report.reading.byRule).map(([t, r]) => `${t} ${r.passed}/${r.total}`).join(', ');
    const types = Object.entries(report.reading.byType).map(([t, r]) => `${t} ${r.passed}/${r.total}`).join(', ');
    const splits = Object.entries(report.reading.bySplit).map(([t, r]) => `${t} ${r.passed}/${r.total}`).join(', ');
    lines.push(`  reading dataset: ${report.reading.passed}/${report.reading.tests} = ${pct(report.reading.rate)}; by rule ${rules}; by type ${types}; by split ${splits}`);
  }
  if (report.invoices) {
    const { seller, buyer } = report.invoices.parties;
    lines.push(
      `  invoice key fields: ${report.invoices.correct}/${report.invoices.total} = ${pct(report.invoices.accuracy)}; line items ${report.invoices.lineItems.found}/${report.invoices.lineItems.total}; parties: seller ${seller.correct}/${seller.total}, buyer ${buyer.correct}/${buyer.total}`,
    );
  }
  if (report.einvoices) {
    const e = report.einvoices;
    lines.push(
      `  einvoices from the page: key fields ${e.keyFields.correct}/${e.keyFields.total} = ${pct(e.keyFields.total ? e.keyFields.correct / e.keyFields.total : 0)}; line amounts ${e.lineAmounts.found}/${e.lineAmounts.total}; parties ${e.parties.correct}/${e.parties.total}; amount due ${e.amountDue.correct}/${e.amountDue.total}; VAT breakdown base ${e.vatBreakdown.base.correct}/${e.vatBreakdown.base.total}, tax ${e.vatBreakdown.tax.correct}/${e.vatBreakdown.tax.total}; line total/allowances/charges/paid ${e.settlement.correct}/${e.settlement.total}; XML reader ${e.xmlAgreement.agreeing}/${e.xmlAgreement.total}`,
      `  key fields, invoice2data + einvoices: ${e.combinedKeyFields.correct}/${e.combinedKeyFields.total} = ${pct(e.combinedKeyFields.total ? e.combinedKeyFields.correct / e.combinedKeyFields.total : 0)}`,
    );
  }
  if (report.icdar) lines.push(`  ICDAR 2013 EU cell-neighbour F1 ${report.icdar.f1.toFixed(3)} (P ${report.icdar.precision.toFixed(3)}, R ${report.icdar.recall.toFixed(3)}, ${report.icdar.tables} tables)`);
  if (report.icdarOcr) lines.push(`  ICDAR 2013 EU by OCR of the rendered pages: cell-neighbour F1 ${report.icdarOcr.f1.toFixed(3)} (P ${report.icdarOcr.precision.toFixed(3)}, R ${report.icdarOcr.recall.toFixed(3)}, ${report.icdarOcr.tables} tables)`);
  if (report.cer) lines.push(`  CER (OCR of rendered pages vs pdf.js text layers) ${pct(report.cer.cer)} over ${report.cer.pages} pages; order-free ${pct(report.cer.orderFreeCer)}`);
  return lines.join('\n');
}
