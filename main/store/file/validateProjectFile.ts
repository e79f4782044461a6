/**
 * Checks a project file before it is opened or merged — header, schema (projectFileCheck.ts) and `PRAGMA
 * quick_check` — in a worker thread with a time limit, so that neither the Electron main process nor the browser
 * shell's request loop waits on a damaged, huge or hostile file: past the limit the file is refused and the worker
 * is stopped.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ProjectFileError } from './projectFileError.js';

/** How long a project file may take to check (quick_check reads every page: ~1 s per few hundred MB). */
export const projectCheckTimeoutMs = 120_000;

export async function validateProjectFile(file: string, { timeoutMs = projectCheckTimeoutMs } = {}): Promise<void> {
  if (!fs.existsSync(file)) throw new ProjectFileError(file, 'no such project file');
  const worker = startCheckWorker(file);
  try {
    const reply = await new Promise<{ ok: true } | { ok: false; reason: string }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ProjectFileError(file, `could not be checked within ${Math.round(timeoutMs / 1000)} s; not opened`)),
        timeoutMs,
      );
      worker.once('message', (message) => (clearTimeout(timer), resolve(message)));
      worker.once('error', (error) => (clearTimeout(timer), reject(new ProjectFileError(file, `cannot be checked (${error.message})`))));
      worker.once('exit', (code) => (clearTimeout(timer), reject(new ProjectFileError(file, `cannot be checked (checker exited with ${code})`))));
    });
    if (!reply.ok) throw new ProjectFileError(file, reply.reason);
  } finally {
    // Not awaited: a worker stuck inside SQLite stops when SQLite returns; the caller does not wait for that.
    void worker.terminate();
  }
}

/**
 * Compiled code runs projectFileWorker.js. Under tsx / vitest this module is .ts: the worker then boots through tsx's
 * `tsImport` (on Node 20, `execArgv: ['--import', 'tsx']` does not reach a worker's entry module), as
 * native-models/vlm/engine/vlmEngine.ts does.
 */
function startCheckWorker(file: string): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./projectFileWorker.js', here), { workerData: { file } });
  // The ESM build of tsx's API (its CJS build does not load from an eval worker).
  const tsxApi = pathToFileURL(join(dirname(createRequire(here).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./projectFileWorker.ts', here).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}))`;
  return new Worker(boot, { eval: true, workerData: { file } });
}
