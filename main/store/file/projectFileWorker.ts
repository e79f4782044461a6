/**
 * The worker thread of validateProjectFile: opens a project read-only, compares its schema with Recto's and runs
 * `PRAGMA quick_check`, then posts `{ ok: true }` or `{ ok: false, reason }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openProjectDatabaseReadOnly } from './openProjectDatabase.js';
import { quickCheckProject } from './projectFileCheck.js';
import { ProjectFileError } from './projectFileError.js';

const { file } = workerData as { file: string };
try {
  const db = openProjectDatabaseReadOnly(file);
  try {
    quickCheckProject(db, file);
  } finally {
    db.close();
  }
  parentPort!.postMessage({ ok: true });
} catch (error) {
  parentPort!.postMessage({ ok: false, reason: error instanceof ProjectFileError ? error.reason : `cannot be checked (${String(error)})` });
}
