/**
 * An engine evaluation: every reference page (referencePages.ts) read again by each engine and scored against the
 * analyst's text with the curation checks (app/checks/reward.ts). Rows are appended to `evaluation.jsonl` in the
 * output folder as each page finishes, so a run that is cancelled or killed resumes where it stopped: a page already
 * scored for an engine against the same reference text is not read again (failed pages are tried again).
 * The project is only read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { reward } from '../../app/checks/reward.js';
import type { PageEvaluation } from '../../app/evaluation/evaluationSummary.js';
import { markRunningFurniture } from '../../app/document/runningFurniture.js';
import type { Engine, PageInput } from '../../app/model/engine.js';
import type { Extraction } from '../../app/model/extraction.js';
import { attributeChanges } from '../../app/curation/attributeChanges.js';
import type { PageRecord } from '../store/projectStore.js';
import type { ReferencePage } from './referencePages.js';

export const evaluationRowsFile = 'evaluation.jsonl';

export interface EvaluatedEngine {
  /** As the user named it: `bundled`, `pack:DIR`, `remote:URL`. */
  key: string;
  /** Started on first use; a failure to start fails every page of this engine with its message. */
  engine: () => Promise<Engine>;
}

export interface EvaluationRun {
  engines: readonly EvaluatedEngine[];
  pages: readonly ReferencePage[];
  pageInput: (page: PageRecord) => Promise<PageInput>;
  outDir: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, label: string) => void;
  /** The document's stored readings, as context for finding its running headers and footers. */
  documentContext?: (documentId: string) => { pageNumber: number; extraction: Extraction }[];
}

export interface EvaluationOutcome {
  rows: PageEvaluation[];
  /** Pages read in this run (the rest came from an earlier, interrupted one). */
  readNow: number;
  cancelled: boolean;
}

/** The rows of an earlier run in the folder; a torn last line (a killed run) is skipped. */
export function readEvaluationRows(outDir: string): PageEvaluation[] {
  const file = path.join(outDir, evaluationRowsFile);
  if (!fs.existsSync(file)) return [];
  const rows: PageEvaluation[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      rows.push(JSON.parse(line) as PageEvaluation);
    } catch {
      // the line being written when a run was killed
    }
  }
  return rows;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Reading {
  reference: ReferencePage;
  seconds: number;
  extraction: Extraction | null;
  error: string | null;
}

/**
 * Reads are grouped by document because running headers and footers are found across a document's pages (the same
 * document pass the reading queue runs): each engine's readings of a document's pages are judged together, with the
 * document's other stored readings as context, before they are scored. A killed run loses at most the pages of the
 * document being read.
 */
export async function runEvaluation(run: EvaluationRun): Promise<EvaluationOutcome> {
  fs.mkdirSync(run.outDir, { recursive: true });
  const earlier = readEvaluationRows(run.outDir);
  const done = new Set(earlier.filter((row) => row.error === null).map((row) => `${row.engine}\u0000${row.pageId}\u0000${row.referenceSha256}`));
  const rows = [...earlier];
  const total = run.engines.length * run.pages.length;
  const documents = new Map<string, ReferencePage[]>();
  for (const page of run.pages) documents.set(page.page.documentId, [...(documents.get(page.page.documentId) ?? []), page]);
  let finished = 0;
  let readNow = 0;
  const out = fs.openSync(path.join(run.outDir, evaluationRowsFile), 'a');
  try {
    for (const evaluated of run.engines) {
      let engine: Engine | null = null;
      let startError: string | null = null;
      for (const [documentId, pages] of documents) {
        const readings: Reading[] = [];
        for (const reference of pages) {
          const { page } = reference;
          if (run.signal?.aborted) return { rows, readNow, cancelled: true };
          run.onProgress?.(finished, total, `${evaluated.key}: ${page.documentName} p. ${page.pageNumber}`);
          finished += 1;
          if (done.has(`${evaluated.key}\u0000${page.id}\u0000${reference.referenceSha256}`)) continue;
          if (!engine && !startError) {
            try {
              engine = await evaluated.engine();
            } catch (error) {
              startError = `the engine could not start: ${messageOf(error)}`;
            }
          }
          const started = process.hrtime.bigint();
          try {
            if (!engine) throw new Error(startError ?? 'no engine');
            const extraction = await engine.read(await run.pageInput(page), { signal: run.signal });
            if (run.signal?.aborted) return { rows, readNow, cancelled: true };
            readings.push({ reference, seconds: Number(process.hrtime.bigint() - started) / 1e9, extraction, error: null });
          } catch (error) {
            if (run.signal?.aborted) return { rows, readNow, cancelled: true };
            readings.push({ reference, seconds: Number(process.hrtime.bigint() - started) / 1e9, extraction: null, error: messageOf(error) });
          }
        }
        if (readings.length === 0) continue;
        const judged = withDocumentPass(readings, run.documentContext?.(documentId) ?? []);
        for (const [i, reading] of readings.entries()) {
          const row = scoreReading(evaluated.key, engine, reading, judged[i] ?? null);
          // One line per page, written at once: a torn line is skipped when the run resumes.
          fs.writeSync(out, `${JSON.stringify(row)}\n`);
          rows.push(row);
          readNow += 1;
        }
      }
    }
    run.onProgress?.(finished, total, 'done');
    return { rows, readNow, cancelled: false };
  } finally {
    fs.closeSync(out);
  }
}

/** The document pass over the new readings, with the document's other stored readings as context only. */
function withDocumentPass(readings: readonly Reading[], context: readonly { pageNumber: number; extraction: Extraction }[]): (Extraction | null)[] {
  const byNumber = new Map<number, { extraction: Extraction; reading: number | null }>();
  for (const page of context) byNumber.set(page.pageNumber, { extraction: page.extraction, reading: null });
  readings.forEach((reading, i) => {
    if (reading.extraction) byNumber.set(reading.reference.page.pageNumber, { extraction: reading.extraction, reading: i });
  });
  const result: (Extraction | null)[] = readings.map((reading) => reading.extraction);
  if (byNumber.size < 2) return result;
  const numbers = [...byNumber.keys()].sort((a, b) => a - b);
  try {
    const marked = markRunningFurniture(numbers.map((n) => byNumber.get(n)!.extraction), numbers);
    numbers.forEach((n, i) => {
      const index = byNumber.get(n)!.reading;
      if (index !== null) result[index] = marked[i]!;
    });
  } catch {
    // scored as the engine returned them, as the reading queue does when the pass fails
  }
  return result;
}

function scoreReading(key: string, engine: Engine | null, reading: Reading, extraction: Extraction | null): PageEvaluation {
  const { page, reference, referenceSha256 } = reading.reference;
  const base = {
    engine: key,
    engineName: engine?.descriptor.name ?? key,
    engineVersion: engine?.descriptor.version ?? '',
    pageId: page.id,
    documentId: page.documentId,
    documentName: page.documentName,
    pageNumber: page.pageNumber,
    referenceSha256,
    seconds: reading.seconds,
  };
  if (!extraction) return { ...base, error: reading.error ?? 'no reading', score: 0, terms: {}, kinds: [] };
  const scored = reward(reference, extraction.markdown);
  const kinds = attributeChanges(extraction.markdown, reference, extraction.elements).kinds;
  return {
    ...base,
    error: null,
    score: scored.score,
    terms: scored.terms,
    raw: scored.raw,
    kinds: kinds.map((k) => ({ kind: k.kind, chars: k.chars, changedChars: k.changedChars })),
  };
}
