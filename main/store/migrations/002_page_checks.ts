/**
 * Per-page check results for curation: the latest extraction (engine output) scored against the latest revision
 * (the analyst's text), one row per page, recomputed whenever either changes. Check terms are columns so the
 * curation queue can sort and filter on any of them with an index; the full results stay as JSON for the detail view.
 * What changed is attributed to element kinds in a side table, so "pages whose tables were corrected" is an index seek.
 * The page's review status is mirrored (kept in step by a trigger) so filtering by it needs no join, and the kinds
 * present / changed are also kept as bit masks (bits in checkResults.ts kindBits) so combined filters need none.
 */
import type { Migration } from './migration.js';

export const pageChecksSchema: Migration = {
  version: 2,
  name: 'page_checks',
  statements: [
    `CREATE TABLE page_checks (
       page_id TEXT PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
       document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
       extraction_id TEXT NOT NULL,
       revision_id TEXT,
       engine_id TEXT NOT NULL,
       review_status TEXT NOT NULL,
       has_revision INTEGER NOT NULL,
       score REAL NOT NULL,
       text_score REAL NOT NULL,
       structure_score REAL NOT NULL,
       tables_score REAL,
       tables_structure_score REAL,
       formulas_score REAL,
       repetition_score REAL NOT NULL,
       unit_tests_score REAL,
       changed_chars INTEGER NOT NULL,
       engine_chars INTEGER NOT NULL,
       kinds_mask INTEGER NOT NULL,
       changed_kinds_mask INTEGER NOT NULL,
       revision_author TEXT,
       revision_at TEXT,
       results TEXT NOT NULL,
       computed_at TEXT NOT NULL
     )`,
    `CREATE INDEX page_checks_by_score ON page_checks(score)`,
    `CREATE INDEX page_checks_by_text ON page_checks(text_score)`,
    `CREATE INDEX page_checks_by_structure ON page_checks(structure_score)`,
    `CREATE INDEX page_checks_by_tables ON page_checks(tables_score)`,
    `CREATE INDEX page_checks_by_formulas ON page_checks(formulas_score)`,
    `CREATE INDEX page_checks_by_repetition ON page_checks(repetition_score)`,
    `CREATE INDEX page_checks_by_unit_tests ON page_checks(unit_tests_score)`,
    `CREATE INDEX page_checks_by_changed ON page_checks(changed_chars)`,
    `CREATE INDEX page_checks_by_revision_at ON page_checks(revision_at)`,
    `CREATE INDEX page_checks_by_engine ON page_checks(engine_id, score)`,
    `CREATE INDEX page_checks_by_document ON page_checks(document_id, score)`,
    `CREATE INDEX page_checks_by_corrected ON page_checks(has_revision, engine_id, score)`,
    `CREATE TABLE page_check_kinds (
       page_id TEXT NOT NULL REFERENCES page_checks(page_id) ON DELETE CASCADE,
       kind TEXT NOT NULL,
       elements INTEGER NOT NULL,
       chars INTEGER NOT NULL,
       changed_chars INTEGER NOT NULL,
       PRIMARY KEY (kind, page_id)
     ) WITHOUT ROWID`,
    `CREATE INDEX page_check_kinds_by_page ON page_check_kinds(page_id)`,
    `CREATE INDEX page_check_kinds_changed ON page_check_kinds(kind, page_id) WHERE changed_chars > 0`,
    // olmOCR tests derived from a page's correction (slow to derive: tens of ms), cached for the corpus export under
    // a key of the engine text and the corrected text, so only pages whose texts changed are derived again.
    `CREATE TABLE page_derived_tests (
       page_id TEXT PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
       content_key TEXT NOT NULL,
       tests TEXT NOT NULL
     )`,
    `CREATE INDEX page_checks_by_review_status ON page_checks(review_status, score)`,
    // Counting a filtered queue (status, engine, corrected, element kind) reads only this index, in order.
    `CREATE INDEX page_checks_for_counts ON page_checks(review_status, engine_id, has_revision, kinds_mask, changed_kinds_mask)`,
    // The review status is copied here so the queue filters on it with an index instead of a join over every page.
    `CREATE TRIGGER page_checks_follow_review_status AFTER UPDATE OF review_status ON pages BEGIN
       UPDATE page_checks SET review_status = NEW.review_status WHERE page_id = NEW.id;
     END`,
  ],
};
