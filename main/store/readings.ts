/**
 * Readings: every engine run with its settings and statistics, and the extraction it produced. A page's reading is
 * its latest extraction; the checks are recomputed in the transaction that changes it.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { extractionSchema, type Extraction } from '../../app/model/extraction.js';
import { scrubSecrets, scrubValue } from '../../app/model/secrets.js';
import type { CheckResultsRepository } from './curation/checkResults.js';
import type { DocumentsRepository } from './documents.js';
import type { BundleRun } from './transfer/pageBundles.js';

const extractionColumns = `x.markdown, x.elements, x.words, x.fields, x.warnings, r.engine_id, r.engine_name, r.engine_version,
  r.pack_sha256, r.licence, r.provider, r.settings, r.stats`;

const isBox = (box: unknown): boolean => Array.isArray(box) && box.length === 4 && box.every((n) => typeof n === 'number' && Number.isFinite(n));
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A stored list with the entries that cannot be what the store writes dropped: rows are checked on the way in
 * (bundleRows.ts), but a project file can be written by anyone, and one `words: [null]` must not break every
 * curation list. Cheap checks only (these lists are read for every page of a list); the full schemas run on writes.
 */
function usable<T>(list: unknown, fits: (entry: Record<string, unknown>) => boolean): T[] {
  return Array.isArray(list) ? (list.filter((entry) => isRecord(entry) && fits(entry)) as T[]) : [];
}
const isWord = (w: Record<string, unknown>): boolean => typeof w.text === 'string' && isBox(w.box) && (w.confidence === null || typeof w.confidence === 'number');
const isElement = (e: Record<string, unknown>): boolean =>
  typeof e.id === 'string' && typeof e.kind === 'string' && isBox(e.box) && Array.isArray(e.span) && (e.cells === undefined || Array.isArray(e.cells));

function toExtraction(row: Record<string, string | null>): Extraction {
  const layout = JSON.parse(row.elements!) as Partial<Pick<Extraction, 'page' | 'elements'>> | null;
  const page = isRecord(layout?.page) && typeof layout.page.width === 'number' && typeof layout.page.height === 'number' ? layout.page : { width: 1, height: 1 };
  return {
    markdown: row.markdown ?? '',
    page,
    elements: usable(layout?.elements, isElement),
    words: row.words ? usable(JSON.parse(row.words), isWord) : undefined,
    fields: row.fields ? JSON.parse(row.fields) : undefined,
    warnings: JSON.parse(row.warnings!),
    engine: {
      id: row.engine_id!,
      name: row.engine_name!,
      version: row.engine_version!,
      packSha256: row.pack_sha256,
      licence: row.licence,
      provider: row.provider,
      settings: JSON.parse(row.settings!),
    },
    stats: JSON.parse(row.stats!),
  };
}

export class ReadingsRepository {
  /** Engine runs and extractions from elsewhere, for the bundle writer (transfer/applyBundles.ts). */
  readonly imported: ImportedReadingRows;

  /** Called after each reading is saved (the store keeps what it derives from the fields current: invoice keys). */
  readonly saved = new Set<(pageId: string) => void>();

  constructor(
    private readonly db: Database.Database,
    private readonly documents: DocumentsRepository,
    private readonly checks: CheckResultsRepository,
  ) {
    this.imported = new ImportedReadingRows(db);
  }

  /** Records an engine run and its extraction, and marks the page read — together or not at all. */
  saveExtraction(pageId: string, extraction: Extraction, startedAt: Date): void {
    const parsed = extractionSchema.parse(extraction);
    // Settings (an endpoint URL) and warnings are kept without keys, whatever the engine put there.
    const checked = { ...parsed, engine: { ...parsed.engine, settings: scrubValue(parsed.engine.settings) }, warnings: parsed.warnings.map((w) => scrubSecrets(w)) };
    const runId = randomUUID();
    const now = new Date().toISOString();
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO engine_runs (id, page_id, engine_id, engine_name, engine_version, pack_sha256, licence, provider,
             settings, stats, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          runId,
          pageId,
          checked.engine.id,
          checked.engine.name,
          checked.engine.version,
          checked.engine.packSha256,
          checked.engine.licence,
          checked.engine.provider,
          JSON.stringify(checked.engine.settings),
          JSON.stringify(checked.stats),
          startedAt.toISOString(),
          now,
        );
      this.db
        .prepare(
          `INSERT INTO extractions (id, run_id, page_id, markdown, elements, words, fields, warnings, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          randomUUID(),
          runId,
          pageId,
          checked.markdown,
          JSON.stringify({ page: checked.page, elements: checked.elements }),
          checked.words ? JSON.stringify(checked.words) : null,
          checked.fields ? JSON.stringify(checked.fields) : null,
          JSON.stringify(checked.warnings),
          now,
        );
      this.documents.setPageStatus(pageId, 'done', null);
      this.checks.recompute(pageId);
    })();
    for (const listener of this.saved) listener(pageId);
  }

  latestExtraction(pageId: string): Extraction | null {
    const row = this.db
      .prepare(
        `SELECT ${extractionColumns} FROM extractions x JOIN engine_runs r ON r.id = x.run_id
         WHERE x.page_id = ? ORDER BY x.created_at DESC, x.rowid DESC LIMIT 1`,
      )
      .get(pageId) as Record<string, string | null> | undefined;
    return row ? toExtraction(row) : null;
  }

  /**
   * The latest reading, or null where there is none or its row is damaged (JSON that does not parse): for readers
   * that can do without it (invoice fields in the export) and must not fail a whole export for one row.
   */
  latestExtractionOrNull(pageId: string): Extraction | null {
    try {
      return this.latestExtraction(pageId);
    } catch (error) {
      if (error instanceof SyntaxError) return null;
      throw error;
    }
  }

  /**
   * The latest extraction of every read page of a document, by page number, in one query: what a pass over the
   * whole document (running headers and footers) needs, without a query and a parse per page per page read.
   */
  latestExtractions(documentId: string): Map<number, Extraction> {
    const rows = this.db
      .prepare(
        `SELECT p.page_number, ${extractionColumns} FROM pages p
           JOIN extractions x ON x.id = (SELECT id FROM extractions WHERE page_id = p.id ORDER BY created_at DESC, rowid DESC LIMIT 1)
           JOIN engine_runs r ON r.id = x.run_id
         WHERE p.document_id = ? ORDER BY p.page_number`,
      )
      .all(documentId) as (Record<string, string | null> & { page_number: number })[];
    return new Map(rows.map((row) => [row.page_number, toExtraction(row)]));
  }

  /**
   * Replaces the page's latest reading in place, keeping its engine run: for passes that judge a page again in the
   * light of the rest of its document (running headers and footers), which change where text sits, not what the
   * engine read. Checks are recomputed with it.
   */
  updateLatestExtraction(pageId: string, extraction: Extraction): void {
    const checked = extractionSchema.parse(extraction);
    this.db.transaction(() => {
      const latest = this.db
        .prepare('SELECT id FROM extractions WHERE page_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1')
        .get(pageId) as { id: string } | undefined;
      if (!latest) throw new Error(`page ${pageId} has no reading to update`);
      this.db
        .prepare('UPDATE extractions SET markdown = ?, elements = ?, words = ?, fields = ?, warnings = ? WHERE id = ?')
        .run(
          checked.markdown,
          JSON.stringify({ page: checked.page, elements: checked.elements }),
          checked.words ? JSON.stringify(checked.words) : null,
          checked.fields ? JSON.stringify(checked.fields) : null,
          JSON.stringify(checked.warnings),
          latest.id,
        );
      this.checks.recompute(pageId);
    })();
  }
}

/** Engine runs and their extractions from elsewhere, written with the ids they come with (transfer/applyBundles.ts). */
export class ImportedReadingRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      runTaken: db.prepare('SELECT 1 FROM engine_runs WHERE id = ?'),
      extractionTaken: db.prepare('SELECT 1 FROM extractions WHERE id = ?'),
      insertRun: db.prepare(
        `INSERT INTO engine_runs (id, page_id, engine_id, engine_name, engine_version, pack_sha256, licence, provider,
           settings, stats, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertExtraction: db.prepare(
        `INSERT INTO extractions (id, run_id, page_id, markdown, elements, words, fields, warnings, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  /** Whether the run or its extraction is here already (ids are UUIDs, unique across projects). */
  has(runId: string, extractionId: string): boolean {
    return this.statements.runTaken.get(runId) !== undefined || this.statements.extractionTaken.get(extractionId) !== undefined;
  }

  insert(
    pageId: string,
    run: BundleRun,
  ): void {
    const s = this.statements;
    s.insertRun.run(run.id, pageId, run.engineId, run.engineName, run.engineVersion, run.packSha256, run.licence, run.provider, run.settingsJson, run.statsJson, run.startedAt, run.finishedAt);
    const x = run.extraction;
    s.insertExtraction.run(x.id, run.id, pageId, x.markdown, x.layoutJson, x.wordsJson, x.fieldsJson, x.warningsJson, x.createdAt);
  }
}
