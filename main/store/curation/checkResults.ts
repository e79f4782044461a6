/**
 * Per-page check results (table page_checks, migration 002): written by the project store in the same transaction
 * as the revision or extraction that changes them, read by the curation queries and the corpus export.
 */
import type Database from 'better-sqlite3';
import type { CheckScores, KindChangeSummary, PageChecksDetail } from '../../../app/contract/curation.js';
import type { Element } from '../../../app/model/extraction.js';
import { deriveCorpusTests } from '../../../app/corpus/corpusTests.js';
import { corpusTestsKey } from './corpusTestsKey.js';
import { checkPage } from '../../../app/curation/checkPage.js';
import { pageVsXmlOf } from '../../../app/einvoice/index.js';

interface SourceRow {
  extraction_id: string;
  markdown: string;
  elements: string;
  fields: string | null;
  engine_id: string;
  document_id: string;
  document_sha256: string;
  page_number: number;
  review_status: string;
}

interface RevisionSourceRow {
  id: string;
  text: string;
  author: string;
  created_at: string;
}

export interface PageCheckRow {
  page_id: string;
  extraction_id: string;
  revision_id: string | null;
  score: number;
  text_score: number;
  structure_score: number;
  tables_score: number | null;
  tables_structure_score: number | null;
  formulas_score: number | null;
  repetition_score: number;
  unit_tests_score: number | null;
  results: string;
}

export function scoresOf(row: PageCheckRow): CheckScores {
  return {
    score: row.score,
    text: row.text_score,
    structure: row.structure_score,
    tables: row.tables_score,
    tablesStructure: row.tables_structure_score,
    formulas: row.formulas_score,
    repetition: row.repetition_score,
    unitTests: row.unit_tests_score,
  };
}

/**
 * Bit of each element kind in kinds_mask / changed_kinds_mask. Fixed here (not the order of app/model's list) so
 * stored masks keep their meaning; new kinds are appended.
 */
export const kindBits: Readonly<Record<string, number>> = Object.fromEntries(
  ['title', 'heading', 'text', 'list', 'table', 'formula', 'figure', 'caption', 'header', 'footer', 'page-number', 'footnote', 'other'].map(
    (kind, bit) => [kind, 1 << bit],
  ),
);

export interface PageScoresRow {
  extractionId: string;
  revisionId: string | null;
  scores: CheckScores;
  changedChars: number;
  kinds: KindChangeSummary[];
}

/**
 * Columns a recomputation rewrites. An upsert, not INSERT OR REPLACE: the row keeps its rowid and SQLite touches
 * only the indexes whose column changed, instead of deleting and re-inserting the row in all fourteen.
 */
const upsertColumns = [
  'document_id', 'extraction_id', 'revision_id', 'engine_id', 'review_status', 'has_revision', 'score', 'text_score',
  'structure_score', 'tables_score', 'tables_structure_score', 'formulas_score', 'repetition_score', 'unit_tests_score',
  'changed_chars', 'engine_chars', 'kinds_mask', 'changed_kinds_mask', 'revision_author', 'revision_at', 'results',
  'computed_at',
];

export class CheckResultsRepository {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      latestExtraction: db.prepare(
        `SELECT x.id AS extraction_id, x.markdown, x.elements, x.fields, r.engine_id, p.document_id, p.review_status,
                p.page_number, d.sha256 AS document_sha256
         FROM extractions x JOIN engine_runs r ON r.id = x.run_id JOIN pages p ON p.id = x.page_id
           JOIN documents d ON d.id = p.document_id
         WHERE x.page_id = ? ORDER BY x.created_at DESC, x.rowid DESC LIMIT 1`,
      ),
      latestRevision: db.prepare(
        'SELECT id, text, author, created_at FROM revisions WHERE page_id = ? ORDER BY seq DESC LIMIT 1',
      ),
      upsert: db.prepare(
        `INSERT INTO page_checks (page_id, document_id, extraction_id, revision_id, engine_id, review_status, has_revision,
           score, text_score, structure_score, tables_score, tables_structure_score, formulas_score, repetition_score,
           unit_tests_score, changed_chars, engine_chars, kinds_mask, changed_kinds_mask, revision_author, revision_at, results,
           computed_at)
         VALUES (@pageId, @documentId, @extractionId, @revisionId, @engineId, @reviewStatus, @hasRevision, @score, @text, @structure,
           @tables, @tablesStructure, @formulas, @repetition, @unitTests, @changedChars, @engineChars, @kindsMask,
           @changedKindsMask, @revisionAuthor,
           @revisionAt, @results, @computedAt)
         ON CONFLICT (page_id) DO UPDATE SET ${upsertColumns.map((c) => `${c} = excluded.${c}`).join(', ')}`,
      ),
      deleteKind: db.prepare('DELETE FROM page_check_kinds WHERE page_id = ? AND kind = ?'),
      updateKind: db.prepare(
        'UPDATE page_check_kinds SET elements = ?, chars = ?, changed_chars = ?, inserted_chars = ? WHERE page_id = ? AND kind = ?',
      ),
      insertKind: db.prepare(
        'INSERT INTO page_check_kinds (page_id, kind, elements, chars, changed_chars, inserted_chars) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      deleteRow: db.prepare('DELETE FROM page_checks WHERE page_id = ?'),
      get: db.prepare('SELECT * FROM page_checks WHERE page_id = ?'),
      scores: db.prepare(
        `SELECT extraction_id, revision_id, score, text_score, structure_score, tables_score, tables_structure_score,
                formulas_score, repetition_score, unit_tests_score, changed_chars FROM page_checks WHERE page_id = ?`,
      ),
      kinds: db.prepare(
        `SELECT kind, elements, chars, changed_chars AS changedChars, inserted_chars AS insertedChars FROM page_check_kinds
         WHERE page_id = ? ORDER BY kind`,
      ),
      derivedTests: db.prepare('SELECT tests FROM page_derived_tests WHERE page_id = ? AND content_key = ?'),
      derivedKey: db.prepare('SELECT content_key FROM page_derived_tests WHERE page_id = ?'),
      saveDerivedTests: db.prepare('INSERT OR REPLACE INTO page_derived_tests (page_id, content_key, tests) VALUES (?, ?, ?)'),
      missing: db.prepare(
        `SELECT p.id FROM pages p WHERE NOT EXISTS (SELECT 1 FROM page_checks c WHERE c.page_id = p.id)
           AND EXISTS (SELECT 1 FROM extractions x WHERE x.page_id = p.id)`,
      ),
    };
  }

  /**
   * Recomputes one page's row from its latest extraction and latest revision. Call inside the transaction that
   * changed either, so the row is never stale; a page without an extraction has no row.
   */
  recompute(pageId: string): void {
    const source = this.statements.latestExtraction.get(pageId) as SourceRow | undefined;
    if (!source) {
      this.statements.deleteRow.run(pageId);
      return;
    }
    const revision = this.statements.latestRevision.get(pageId) as RevisionSourceRow | undefined;
    const { elements } = JSON.parse(source.elements) as { elements: Element[] };
    const invoiceDisagreements = pageVsXmlOf(source.fields ? (JSON.parse(source.fields) as Record<string, unknown>) : null);
    const outcome = checkPage({ engineMarkdown: source.markdown, elements, correctedMarkdown: revision?.text ?? null, invoiceDisagreements });
    const { scores } = outcome;
    this.statements.upsert.run({
      pageId,
      documentId: source.document_id,
      extractionId: source.extraction_id,
      revisionId: revision?.id ?? null,
      engineId: source.engine_id,
      reviewStatus: source.review_status,
      hasRevision: revision ? 1 : 0,
      score: scores.score,
      text: scores.text,
      structure: scores.structure,
      tables: scores.tables,
      tablesStructure: scores.tablesStructure,
      formulas: scores.formulas,
      repetition: scores.repetition,
      unitTests: scores.unitTests,
      changedChars: outcome.changedChars,
      engineChars: source.markdown.length,
      // Same kinds as the page_check_kinds rows: present in the extraction, or touched by the correction ("other").
      kindsMask: outcome.kinds.reduce((mask, k) => mask | (kindBits[k.kind] ?? 0), 0),
      changedKindsMask: outcome.kinds.reduce((mask, k) => (k.changedChars > 0 ? mask | (kindBits[k.kind] ?? 0) : mask), 0),
      revisionAuthor: revision?.author ?? null,
      revisionAt: revision?.created_at ?? null,
      results: JSON.stringify(outcome.results),
      computedAt: new Date().toISOString(),
    });
    this.writeKinds(pageId, outcome.kinds);
    if (revision && revision.text !== source.markdown) this.deriveTests(pageId, source, revision.text);
  }

  /**
   * Brings the page's kinds rows to `kinds`, touching only those that differ: each write of a kinds row updates the
   * curation rollups (migration 003 triggers), and a save usually changes one or two kinds of a page.
   */
  private writeKinds(pageId: string, kinds: readonly KindChangeSummary[]): void {
    const old = new Map(this.kinds(pageId).map((k) => [k.kind, k]));
    for (const kind of kinds) {
      const before = old.get(kind.kind);
      old.delete(kind.kind);
      if (!before) {
        this.statements.insertKind.run(pageId, kind.kind, kind.elements, kind.chars, kind.changedChars, kind.insertedChars);
      } else if (
        before.elements !== kind.elements ||
        before.chars !== kind.chars ||
        before.changedChars !== kind.changedChars ||
        before.insertedChars !== kind.insertedChars
      ) {
        this.statements.updateKind.run(kind.elements, kind.chars, kind.changedChars, kind.insertedChars, pageId, kind.kind);
      }
    }
    for (const gone of old.keys()) this.statements.deleteKind.run(pageId, gone);
  }

  /**
   * The corpus's olmOCR tests of a corrected page, derived now (about a millisecond for an invoice page) so that an
   * export only reads them. Kept under the key of the two texts; unchanged texts are not derived again. A cache, not
   * a check: if derivation fails the save still stands, and the export derives the tests (and reports a failure).
   */
  private deriveTests(pageId: string, source: SourceRow, corrected: string): void {
    const key = corpusTestsKey(source.markdown, corrected);
    if (this.statements.derivedKey.pluck().get(pageId) === key) return;
    let tests: string[];
    try {
      tests = deriveCorpusTests({
        documentSha256: source.document_sha256,
        pageNumber: source.page_number,
        engineMarkdown: source.markdown,
        correctedMarkdown: corrected,
      });
    } catch {
      return;
    }
    this.statements.saveDerivedTests.run(pageId, key, JSON.stringify(tests));
  }

  /** Pages read before check results existed (projects from schema 1) get theirs; returns how many. */
  recomputeMissing(): number {
    const ids = this.statements.missing.pluck().all() as string[];
    if (ids.length === 0) return 0;
    this.db.transaction(() => {
      for (const id of ids) this.recompute(id);
    })();
    return ids.length;
  }

  get(pageId: string): PageChecksDetail | null {
    const row = this.statements.get.get(pageId) as PageCheckRow | undefined;
    if (!row) return null;
    return {
      pageId,
      extractionId: row.extraction_id,
      revisionId: row.revision_id,
      scores: scoresOf(row),
      changedKinds: this.kinds(pageId),
      results: JSON.parse(row.results) as Record<string, unknown>,
    };
  }

  /** Scores without the full results (cheap: what the export and the queue need). */
  scores(pageId: string): PageScoresRow | null {
    const row = this.statements.scores.get(pageId) as (PageCheckRow & { changed_chars: number }) | undefined;
    if (!row) return null;
    return {
      extractionId: row.extraction_id,
      revisionId: row.revision_id,
      scores: scoresOf(row),
      changedChars: row.changed_chars,
      kinds: this.kinds(pageId),
    };
  }

  /** Derived olmOCR tests cached for this content key (JSON lines), or null. */
  derivedTests(pageId: string, contentKey: string): string[] | null {
    const tests = this.statements.derivedTests.pluck().get(pageId, contentKey) as string | undefined;
    return tests === undefined ? null : (JSON.parse(tests) as string[]);
  }

  saveDerivedTests(entries: readonly { pageId: string; contentKey: string; tests: string[] }[]): void {
    if (entries.length === 0) return;
    this.db.transaction(() => {
      for (const e of entries) this.statements.saveDerivedTests.run(e.pageId, e.contentKey, JSON.stringify(e.tests));
    })();
  }

  kinds(pageId: string): KindChangeSummary[] {
    return this.statements.kinds.all(pageId) as KindChangeSummary[];
  }
}
