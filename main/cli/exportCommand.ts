/**
 * The corpus commands of `recto`:
 *   recto export P.recto --out DIR [--status S] [--since ISO] [--images png|none] [--format records|chat|olmocr|pairs]
 *   recto export P.recto --out DIR --format invoices [--syntax ubl|cii] [--xrechnung] [--all-approved]   (invoicesExportCommand.ts)
 *   recto import-corpus DIR --into P.recto
 *   recto merge A.recto B.recto [--into OUT.recto]
 * Each prints what it did on stderr; pages or lines that could not be handled are listed, and the exit code is 1
 * when there were any (2 for bad usage or a refused folder).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { reviewStatusSchema } from '../../app/model/page.js';
import { inspectFile } from '../composition/createRectoSession.js';
import { CorpusExportCancelledError, CorpusExportRefusedError, exportCorpus } from '../corpus/exportCorpus.js';
import { CorpusImportError, importCorpus } from '../corpus/importCorpus.js';
import { mergeProjectInto } from '../corpus/mergeProjects.js';
import { projectPageImages, seedPageImage } from '../corpus/pageImages.js';
import { trainingFormats, type TrainingFormat } from '../corpus/trainingFormats.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { defaultAppPaths } from '../settings/appPaths.js';
import { ProjectFileError, ProjectStore } from '../store/projectStore.js';
import type { SameFile } from '../store/transfer/applyBundles.js';
import { validateProjectFile } from '../store/file/validateProjectFile.js';
import { invoicesExportCommand } from './invoicesExportCommand.js';
import { takeSupplierMemoryFromCorpus, takeSupplierMemoryFromProject } from '../services/supplierLearning.js';

type Err = NodeJS.WritableStream;

function pageImageCache(): PageImageCache {
  return new PageImageCache(defaultAppPaths().cacheDir, inspectFile);
}

/** Exit code of an export stopped by Ctrl-C (128 + SIGINT, as shells report it). */
export const interruptedExitCode = 130;

/**
 * Ctrl-C (or SIGTERM) while exporting: the first asks the export to stop, which leaves the folder as it was; a
 * second exits at once (what was staged is discarded by the next export into the folder).
 */
function stopOnInterrupt(stderr: Err): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(interruptedExitCode);
    stderr.write('\nrecto: stopping the export (Ctrl-C again to quit at once)…\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

export async function exportCommand(args: string[], stderr: Err & { isTTY?: boolean }): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      status: { type: 'string' },
      since: { type: 'string' },
      images: { type: 'string' },
      format: { type: 'string' },
      syntax: { type: 'string' },
      xrechnung: { type: 'boolean' },
      'all-approved': { type: 'boolean' },
    },
  });
  if (values.format === 'invoices') return invoicesExportCommand(positionals, values, stderr);
  if (values['all-approved']) return usageError(stderr, 'recto export: --all-approved is for --format invoices');
  if (positionals.length !== 1) return usageError(stderr, 'recto export: give one project file (P.recto)');
  if (!values.out) return usageError(stderr, 'recto export: --out DIR is required');
  const status = values.status === undefined ? undefined : reviewStatusSchema.safeParse(values.status);
  if (status && !status.success) {
    return usageError(stderr, `recto export: --status must be one of ${reviewStatusSchema.options.join(', ')}`);
  }
  const images = values.images ?? 'png';
  if (images !== 'png' && images !== 'none') return usageError(stderr, 'recto export: --images must be png or none');
  const format = (values.format ?? 'records') as TrainingFormat;
  if (!trainingFormats.includes(format)) {
    return usageError(stderr, `recto export: --format must be one of ${trainingFormats.join(', ')}`);
  }
  if (values.since && Number.isNaN(new Date(values.since).getTime())) {
    return usageError(stderr, `recto export: --since: not a date and time: ${values.since}`);
  }

  let store: ProjectStore;
  try {
    store = await ProjectStore.openChecked(path.resolve(positionals[0]!));
  } catch (error) {
    if (error instanceof ProjectFileError) return usageError(stderr, `recto export: ${error.message}`);
    throw error;
  }
  const bar = new cliProgress.SingleBar(
    { stream: stderr, format: 'Exporting |{bar}| {value}/{total} pages | {label}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 2000 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const interrupt = stopOnInterrupt(stderr);
  try {
    store.checks.recomputeMissing();
    const summary = await exportCorpus(store, {
      outDir: values.out,
      status: status?.data,
      since: values.since,
      images,
      format,
      pageImage: projectPageImages(store, pageImageCache()),
      sourceBytes: (sha256) => store!.documents.getSourceBytes(sha256),
      signal: interrupt.signal,
      onProgress: (done, total, label) => {
        if (!started) {
          bar.start(total, done, { label });
          started = true;
        } else bar.update(done, { label });
      },
    });
    if (started) bar.stop();
    for (const skipped of summary.skipped) stderr.write(`recto: left out ${skipped.page}: ${skipped.reason}\n`);
    stderr.write(
      `recto: exported ${summary.records} page(s) and ${summary.tests} test(s) to ${summary.outDir}` +
        ` (${summary.filesWritten.length} file(s) written, ${summary.imagesKept} image(s) unchanged, ` +
        `${summary.filesRemoved.length} removed, ${summary.skipped.length} page(s) left out)\n`,
    );
    return summary.skipped.length > 0 ? 1 : 0;
  } catch (error) {
    if (started) bar.stop();
    if (error instanceof CorpusExportRefusedError) return usageError(stderr, `recto export: ${error.message}`);
    if (error instanceof CorpusExportCancelledError) {
      stderr.write(`recto: ${error.message}\n`);
      return interruptedExitCode;
    }
    throw error;
  } finally {
    interrupt.dispose();
    store.close();
  }
}

export async function importCorpusCommand(args: string[], stderr: Err): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { into: { type: 'string' } } });
  if (positionals.length !== 1) return usageError(stderr, 'recto import-corpus: give one corpus folder');
  if (!values.into) return usageError(stderr, 'recto import-corpus: --into P.recto is required');
  const file = path.resolve(values.into);
  const created = !fs.existsSync(file);
  let store: ProjectStore;
  try {
    store = created ? ProjectStore.create(file) : await ProjectStore.openChecked(file);
  } catch (error) {
    if (error instanceof ProjectFileError) return usageError(stderr, `recto import-corpus: ${error.message}`);
    throw error;
  }
  try {
    const summary = importCorpus(store, path.resolve(positionals[0]!), { seedImage: seedPageImage(pageImageCache()) });
    summary.problems.push(...takeSupplierMemoryFromCorpus(store, path.resolve(positionals[0]!)));
    for (const problem of summary.problems) stderr.write(`recto: ${problem.where}: ${problem.reason}\n`);
    for (const same of summary.sameFile) stderr.write(`recto: ${sameFileLine(same)}\n`);
    stderr.write(
      `recto: imported ${summary.records} record(s) into ${path.basename(file)}: ${summary.pagesAdded} new page(s), ` +
        `${summary.revisionsAdded} revision(s), ${summary.fieldRevisionsAdded} field revision(s), ${summary.reviewEventsAdded} review decision(s), ${summary.runsAdded} engine run(s)` +
        (summary.fieldConflicts > 0 ? `; ${summary.fieldConflicts} field(s) corrected on both sides (all kept, the later shows)` : '') +
        (summary.decisionConflicts > 0 ? `; ${summary.decisionConflicts} page(s) decided differently in the corpus (the decision here kept, flagged)` : '') +
        (summary.untrustedTimes > 0 ? `; ${summary.untrustedTimes} review event(s) with an impossible time (not trusted)` : '') +
        '\n',
    );
    for (const line of approvalLines(summary)) stderr.write(`recto: ${line}\n`);
    return summary.problems.length > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof CorpusImportError)) throw error;
    if (created) {
      // A refused corpus leaves nothing behind: not even the empty project this command made for it.
      store.close();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
    }
    return usageError(stderr, `recto import-corpus: ${error.message}`);
  } finally {
    store.close(); // a second close does nothing
  }
}

export async function mergeCommand(args: string[], stderr: Err): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { into: { type: 'string' } } });
  if (positionals.length !== 2) return usageError(stderr, 'recto merge: give two project files (A.recto B.recto)');
  const [first, second] = positionals.map((p) => path.resolve(p)) as [string, string];
  if (first === second) return usageError(stderr, 'recto merge: the two projects are the same file');
  // Both files are checked before any query runs on them (header, schema, quick_check; in a worker, time-limited).
  try {
    for (const file of [first, second]) await validateProjectFile(file);
  } catch (error) {
    if (error instanceof ProjectFileError) return usageError(stderr, `recto merge: ${error.message}`);
    throw error;
  }
  let targetFile = first;
  if (values.into) {
    targetFile = path.resolve(values.into);
    if (fs.existsSync(targetFile)) return usageError(stderr, `recto merge: ${values.into} already exists; choose a new file`);
    // A consistent copy of A (WAL included) becomes the target; A itself is not written.
    const source = ProjectStore.open(first);
    try {
      source.copyTo(targetFile);
    } finally {
      source.close();
    }
  }
  let store: ProjectStore;
  try {
    store = ProjectStore.open(targetFile);
  } catch (error) {
    if (error instanceof ProjectFileError) return usageError(stderr, `recto merge: ${error.message}`);
    throw error;
  }
  try {
    const summary = mergeProjectInto(store, second);
    const supplierChanges = takeSupplierMemoryFromProject(store, second);
    for (const same of summary.sameFile) stderr.write(`recto: ${sameFileLine(same)}\n`);
    stderr.write(
      `recto: merged ${path.basename(second)} into ${path.basename(targetFile)}: ${summary.documentsAdded} document(s), ` +
        `${summary.pagesAdded} page(s), ${summary.runsAdded} engine run(s), ${summary.revisionsAdded} revision(s) added, ` +
        `${summary.fieldRevisionsAdded} field revision(s), ${summary.reviewEventsAdded} review decision(s) added; ` +
        `${summary.diverged} page(s) edited on both sides (all revisions kept), ` +
        `${summary.fieldConflicts} field(s) corrected on both sides (all kept, the later shows), ` +
        `${summary.decisionConflicts} page(s) decided differently on both sides (the decision here kept, flagged for a person), ` +
        `${summary.decisionsAdopted} decision(s) taken on pages undecided here, ${summary.untrustedTimes} review event(s) with an impossible time (not trusted), ` +
        `${summary.invoiceExportsAdded} invoices export(s) recorded there (their invoices count as exported here)\n`,
    );
    for (const line of [...approvalLines(summary), ...supplierChanges]) stderr.write(`recto: ${line}\n`);
    return 0;
  } catch (error) {
    if (error instanceof ProjectFileError) return usageError(stderr, `recto merge: ${error.message}`);
    throw error;
  } finally {
    store.close();
  }
}

function usageError(stderr: Err, message: string): number {
  stderr.write(`${message}\n`);
  return 2;
}

/** An incoming document whose bytes are a document already in the project: which one, so it can be found. */
function sameFileLine(same: SameFile): string {
  return `${same.file} is the same file as ${same.documentName} [${same.documentId}] already in the project: its pages went to that document`;
}

/** What a merge or import changed about approvals and payment data, one line each (docs/security.md). */
export function approvalLines(summary: { approvalsReopened: { document: string; changes: string[] }[]; paymentChanges: { document: string; changes: string[] }[] }): string[] {
  return [
    ...summary.paymentChanges.map((c) => `${c.document}: payment data changed: ${c.changes.join('; ')}`),
    ...summary.approvalsReopened.map((c) => `${c.document}: approval reopened (changed after it): ${c.changes.join('; ')}`),
  ];
}
