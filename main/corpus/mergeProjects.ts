/**
 * Merging another project into this one without loss: every document (with its source file), page, engine run and
 * revision of the other project that this one lacks is added; nothing here is changed except the order of a page's
 * revisions (by time, so the latest is the one saved last on either side) and an "unreviewed" status that the other
 * side had reviewed. The other project is opened read-only and never written.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { rectoApplicationId, ProjectFileError } from '../store/openProjectDatabase.js';
import { currentSchemaVersion } from '../store/migrations/index.js';
import type { ProjectStore } from '../store/projectStore.js';
import { BundleWriter, countOutcome } from './applyBundles.js';
import { bundleReader } from './pageBundles.js';

export interface MergeSummary {
  pages: number;
  documentsAdded: number;
  pagesAdded: number;
  runsAdded: number;
  revisionsAdded: number;
  /** Pages edited on both sides since they parted (both lines of revisions kept). */
  diverged: number;
  /** Pages reviewed differently on both sides; this project's status was kept. */
  reviewConflicts: number;
}

function openReadOnly(file: string): Database.Database {
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
    return db;
  } catch (error) {
    db.close();
    throw error instanceof ProjectFileError ? error : new ProjectFileError(file, `not a Recto project (${String(error)})`);
  }
}

export function mergeProjectInto(target: ProjectStore, otherFile: string): MergeSummary {
  const other = openReadOnly(otherFile);
  try {
    const reader = bundleReader(other);
    const writer = new BundleWriter(target);
    const summary: MergeSummary = {
      pages: 0,
      documentsAdded: 0,
      pagesAdded: 0,
      runsAdded: 0,
      revisionsAdded: 0,
      diverged: 0,
      reviewConflicts: 0,
    };
    const copiedSources = new Set<string>();
    for (const pageId of reader.pageIds()) {
      const bundle = reader.read(pageId, { allRuns: true });
      const sha = bundle.document.sha256;
      const bytes = copiedSources.has(sha) || target.hasDocument(sha) ? null : reader.sourceBytes(sha);
      copiedSources.add(sha);
      const outcome = writer.apply(bundle, bytes);
      summary.pages += 1;
      countOutcome(summary, outcome);
      if (outcome.reviewConflict) summary.reviewConflicts += 1;
    }
    return summary;
  } finally {
    other.close();
  }
}
