/**
 * Starts a worker thread on a module next to the caller. Compiled code (dist/, the packaged app) runs the `.js`
 * file; under tsx / vitest the caller is a `.ts` file, and the worker loads the `.ts` module through tsx's API
 * (a worker does not inherit the parent's loader hooks).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `callerUrl` is the caller's import.meta.url; `baseName` the worker module's file name without extension. */
export function startModuleWorker(callerUrl: string, baseName: string, options: WorkerOptions): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${baseName}.js`, callerUrl), options);
  const tsxApi = pathToFileURL(join(dirname(createRequire(callerUrl).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL(`./${baseName}.ts`, callerUrl).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(callerUrl)}))`;
  return new Worker(boot, { ...options, eval: true });
}
