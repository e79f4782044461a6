/**
 * Supplier memory across projects: a merge takes the other project's lessons as they are there — suppliers renamed,
 * merged, documents approved without a correction — instead of learning again from the corrections alone (which
 * would lose all three). The other file is opened read-only, checked like any project first, and never written.
 */
import { openProjectDatabaseReadOnly } from './file/openProjectDatabase.js';
import type { ProjectStore } from './projectStore.js';
import { carriedLessonsOf } from './supplierMemory.js';

/** Carries the other project's lessons into `target`; returns how many it took (see SupplierMemoryRepository.carry). */
export function carrySupplierMemoryFrom(target: ProjectStore, otherFile: string): number {
  const db = openProjectDatabaseReadOnly(otherFile);
  try {
    return target.supplierMemory.carry(carriedLessonsOf(db));
  } finally {
    db.close();
  }
}
