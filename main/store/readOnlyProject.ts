/**
 * Another project opened read-only, to read its pages as bundles (a merge takes from it and never writes it): the
 * same checks as opening for writing — a Recto project, not written by a newer Recto — then nothing but reads.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { currentSchemaVersion } from './migrations/index.js';
import { ProjectFileError, rectoApplicationId } from './openProjectDatabase.js';
import { bundleReader, type BundleReader } from './pageBundles.js';

export interface ReadOnlyProject {
  bundles: BundleReader;
  close(): void;
}

export function openProjectReadOnly(file: string): ReadOnlyProject {
  if (!fs.existsSync(file)) throw new ProjectFileError(file, 'no such project file');
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ProjectFileError(file, `cannot be opened (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    if (applicationId !== rectoApplicationId) throw new ProjectFileError(file, 'not a Recto project');
    if (version > currentSchemaVersion) throw new ProjectFileError(file, `written by a newer Recto (schema ${version})`);
    return { bundles: bundleReader(db), close: () => db.close() };
  } catch (error) {
    db.close();
    throw error instanceof ProjectFileError ? error : new ProjectFileError(file, `not a Recto project (${String(error)})`);
  }
}
