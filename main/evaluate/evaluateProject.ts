/**
 * One evaluation of a project, as both `recto evaluate` and the app's Evaluate view run it: the reference pages,
 * every engine's readings of them (runEvaluation.ts, resumable from the output folder), the summary, and the files
 * — evaluation.json and the self-contained report.html, each written whole and renamed into place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { latestEvaluationRows, summarizeEvaluation, type EvaluationSummary } from '../../app/evaluation/evaluationSummary.js';
import type { Extraction } from '../../app/model/extraction.js';
import type { PageInput } from '../../app/model/engine.js';
import type { PageRecord, ProjectStore } from '../store/projectStore.js';
import { evaluationReportHtml } from './evaluationReportHtml.js';
import { referencePages } from './referencePages.js';
import { runEvaluation, type EvaluatedEngine } from './runEvaluation.js';

export interface EvaluateProjectOptions {
  store: ProjectStore;
  engines: readonly EvaluatedEngine[];
  pageInput: (page: PageRecord) => Promise<PageInput>;
  outDir: string;
  threshold: number;
  costPerHour: number | null;
  limit?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface ProjectEvaluation {
  summary: EvaluationSummary;
  referencePages: number;
  /** Page readings done in this run (the rest were resumed from an earlier one). */
  readNow: number;
  cancelled: boolean;
  reportPath: string;
}

export class NothingToEvaluateError extends Error {
  override name = 'NothingToEvaluateError';
}

export async function evaluateProject(options: EvaluateProjectOptions): Promise<ProjectEvaluation> {
  const { store } = options;
  const pages = referencePages(store, options.limit);
  if (pages.length === 0) {
    throw new NothingToEvaluateError(`${store.info().name} has no corrected or approved page to evaluate against`);
  }
  const outcome = await runEvaluation({
    engines: options.engines,
    pages,
    pageInput: options.pageInput,
    outDir: options.outDir,
    signal: options.signal,
    onProgress: options.onProgress,
    documentContext: (documentId) =>
      store.documents.getDocument(documentId).pages.flatMap((page): { pageNumber: number; extraction: Extraction }[] => {
        const extraction = store.readings.latestExtraction(page.id);
        return extraction ? [{ pageNumber: page.pageNumber, extraction }] : [];
      }),
  });
  const keys = options.engines.map((engine) => engine.key);
  const pageIds = new Set(pages.map((page) => page.page.id));
  // Rows of engines or pages outside this evaluation (an earlier run with other options) are left out.
  const rows = latestEvaluationRows(outcome.rows).filter((row) => keys.includes(row.engine) && pageIds.has(row.pageId));
  const summary = summarizeEvaluation(rows, { threshold: options.threshold, costPerHour: options.costPerHour, engines: keys });
  const reportPath = path.join(options.outDir, 'report.html');
  writeWhole(path.join(options.outDir, 'evaluation.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeWhole(reportPath, evaluationReportHtml(summary, rows, store.info().name));
  return { summary, referencePages: pages.length, readNow: outcome.readNow, cancelled: outcome.cancelled, reportPath };
}

/** Written beside and renamed, so a reader never sees half a file. */
export function writeWhole(file: string, content: string): void {
  fs.writeFileSync(`${file}.tmp`, content);
  fs.renameSync(`${file}.tmp`, file);
}
