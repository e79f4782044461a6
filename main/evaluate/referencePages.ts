/**
 * The pages an evaluation scores engines on: those an analyst has corrected (their latest revision is the
 * reference) or approved as read (the reading they approved is). Everything else has no reference yet.
 */
import { createHash } from 'node:crypto';
import type { PageRecord, ProjectStore } from '../store/projectStore.js';

export interface ReferencePage {
  page: PageRecord;
  reference: string;
  referenceSha256: string;
  /** 'corrected' when a revision exists, 'approved' when the engine's reading was approved unchanged. */
  basis: 'corrected' | 'approved';
}

export function referencePages(store: ProjectStore, limit?: number): ReferencePage[] {
  const out: ReferencePage[] = [];
  for (const document of store.documents.listDocuments()) {
    for (const summary of document.pages) {
      if (limit !== undefined && out.length >= limit) return out;
      const revision = store.revisions.latestRevision(summary.id);
      let reference: string | null = revision?.text ?? null;
      let basis: ReferencePage['basis'] = 'corrected';
      if (reference === null && summary.reviewStatus === 'approved') {
        reference = store.readings.latestExtraction(summary.id)?.markdown ?? null;
        basis = 'approved';
      }
      if (reference === null) continue;
      out.push({
        page: store.documents.getPage(summary.id),
        reference,
        referenceSha256: createHash('sha256').update(reference).digest('hex'),
        basis,
      });
    }
  }
  return out;
}
