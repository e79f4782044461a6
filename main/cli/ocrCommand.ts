/**
 * `recto ocr FILE… --out DIR [--project P.recto] [--engine ID]`: reads every page of every file through the same
 * pipeline as the app (import → project store → reading queue → engine) and writes, per page,
 * `DIR/<stem>_pg<N>.md` (the Markdown) and `DIR/<stem>_pg<N>.json` (the whole extraction), and per file
 * `DIR/<stem>.fields.json` (invoice fields read over all its pages, absent = null).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cliProgress from 'cli-progress';
import type { JobProgress } from '../../app/contract/events.js';
import { documentInvoiceFields } from '../../app/invoice/index.js';
import type { Extraction } from '../../app/model/extraction.js';
import type { RectoSession } from '../services/rectoSession.js';

export interface OcrOptions {
  files: string[];
  outDir: string;
  /** Keep the runs in this project (created if missing); a temporary project otherwise. */
  project?: string;
  engine?: string;
  /** Progress output (stderr); quiet when not a terminal unless forced. */
  progress: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface OcrSummary {
  pagesWritten: number;
  failedFiles: { file: string; reason: string }[];
  failedPages: { label: string; reason: string }[];
}

export async function runOcr(session: RectoSession, options: OcrOptions): Promise<OcrSummary> {
  const temporary = options.project ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'recto-ocr-'));
  const projectFile = options.project ?? path.join(temporary!, 'ocr.recto');
  try {
    const remember = { remember: temporary === null };
    if (fs.existsSync(projectFile)) await session.openProject(projectFile, remember);
    else await session.createProject(projectFile, remember);

    const bar = new cliProgress.SingleBar(
      {
        stream: options.progress,
        format: 'Reading |{bar}| {value}/{total} pages | {eta_formatted} left | {label}',
        etaBuffer: 20,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 2000,
      },
      cliProgress.Presets.shades_classic,
    );
    // Several jobs may run (one per file, plus pages resumed in an existing project): sum them per job id.
    const jobs = new Map<string, { done: number; total: number }>();
    let started = false;
    const unsubscribe = session.bus.subscribe((envelope) => {
      if (envelope.event !== 'job.progress') return;
      const job = envelope.payload as JobProgress;
      jobs.set(job.jobId, { done: job.pagesDone, total: job.pagesTotal });
      const done = [...jobs.values()].reduce((sum, j) => sum + j.done, 0);
      const total = [...jobs.values()].reduce((sum, j) => sum + j.total, 0);
      if (!started) {
        bar.start(total, done, { label: job.label });
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done, { label: job.label });
      }
    });

    const result = await session.importFiles(options.files.map((filePath) => ({ filePath })), options.engine);
    // Documents already in the project are read again only if they have no extraction yet.
    await session.queue.idle();
    unsubscribe();
    if (started) bar.stop();

    fs.mkdirSync(options.outDir, { recursive: true });
    const summary: OcrSummary = { pagesWritten: 0, failedFiles: result.errors, failedPages: [] };
    const wanted = new Set(options.files.map((file) => path.basename(file)));
    for (const document of session.store.listDocuments()) {
      if (!wanted.has(document.name)) continue;
      const stem = document.name.replace(/\.[^.]+$/, '');
      const read: Extraction[] = [];
      for (const page of document.pages) {
        const extraction = session.store.latestExtraction(page.id);
        const fresh = session.store.getPage(page.id);
        if (!extraction || fresh.status === 'error') {
          summary.failedPages.push({ label: `${document.name} p. ${page.pageNumber}`, reason: fresh.error ?? 'not read' });
          continue;
        }
        const latest = session.store.latestRevision(page.id);
        const base = path.join(options.outDir, `${stem}_pg${page.pageNumber}`);
        fs.writeFileSync(`${base}.md`, latest?.text ?? extraction.markdown);
        fs.writeFileSync(`${base}.json`, JSON.stringify(extraction, null, 2));
        summary.pagesWritten += 1;
        read.push(extraction);
      }
      // Invoice fields are per document: read over all its pages at once (absent = null).
      fs.writeFileSync(path.join(options.outDir, `${stem}.fields.json`), JSON.stringify(documentInvoiceFields(read), null, 2));
    }
    return summary;
  } finally {
    await session.close();
    if (temporary) fs.rmSync(temporary, { recursive: true, force: true });
  }
}
