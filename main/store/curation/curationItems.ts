/**
 * Curation queue rows with their details (scores, what the correction changed by kind, page and document), for the
 * slice a list chose (curationQueries.ts by a check column, curationAttention.ts by signals).
 */
import type Database from 'better-sqlite3';
import type { CurationItem, KindChangeSummary } from '../../../app/contract/curation.js';
import type { ReviewStatus } from '../../../app/model/page.js';
import { scoresOf, type PageCheckRow } from './checkResults.js';

export type ListRow = PageCheckRow & {
  document_id: string;
  engine_id: string;
  has_revision: number;
  changed_chars: number;
  engine_chars: number;
  revision_author: string | null;
  revision_at: string | null;
  page_number: number;
  review_status: ReviewStatus;
  document_name: string;
};

/** The columns of a queue row (page_checks c, pages pg, documents d). */
export const itemColumns = `c.page_id, c.document_id, c.extraction_id, c.revision_id, c.engine_id, c.has_revision, c.score, c.text_score,
              c.structure_score, c.tables_score, c.tables_structure_score, c.formulas_score, c.repetition_score,
              c.unit_tests_score, c.changed_chars, c.engine_chars, c.revision_author, c.revision_at,
              pg.page_number, pg.review_status, d.name AS document_name`;

/** Queue rows of these pages, in the order given (pages without a checks row are left out). */
export function curationItemsFor(db: Database.Database, pageIds: readonly string[]): CurationItem[] {
  if (pageIds.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT ${itemColumns} FROM page_checks c JOIN pages pg ON pg.id = c.page_id JOIN documents d ON d.id = c.document_id
       WHERE c.page_id IN (${pageIds.map(() => '?').join(', ')})`,
    )
    .all(...pageIds) as ListRow[];
  const byId = new Map(itemsOf(db, rows).map((item) => [item.pageId, item]));
  return pageIds.flatMap((id) => byId.get(id) ?? []);
}

export function itemsOf(db: Database.Database, rows: readonly ListRow[]): CurationItem[] {
  const kinds = changedKindsOf(db, rows.map((r) => r.page_id));
  return rows.map((row) => ({
    pageId: row.page_id,
    documentId: row.document_id,
    documentName: row.document_name,
    pageNumber: row.page_number,
    reviewStatus: row.review_status,
    engine: row.engine_id,
    hasRevision: row.has_revision === 1,
    scores: scoresOf(row),
    changedChars: row.changed_chars,
    engineChars: row.engine_chars,
    changedKinds: kinds.get(row.page_id) ?? [],
    revisionAuthor: row.revision_author,
    revisionAt: row.revision_at,
    signals: [],
    corrected: row.has_revision === 1,
  }));
}

function changedKindsOf(db: Database.Database, pageIds: string[]): Map<string, KindChangeSummary[]> {
  const byPage = new Map<string, KindChangeSummary[]>();
  if (pageIds.length === 0) return byPage;
  const rows = db
    .prepare(
      `SELECT page_id, kind, elements, chars, changed_chars AS changedChars, inserted_chars AS insertedChars FROM page_check_kinds
       WHERE page_id IN (${pageIds.map(() => '?').join(', ')}) AND changed_chars > 0 ORDER BY page_id, kind`,
    )
    .all(...pageIds) as (KindChangeSummary & { page_id: string })[];
  for (const { page_id, ...kind } of rows) {
    const list = byPage.get(page_id) ?? [];
    list.push(kind);
    byPage.set(page_id, list);
  }
  return byPage;
}

