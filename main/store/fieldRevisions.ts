/**
 * Field revisions (table field_revisions, migration 004): the analyst's corrections of a page's invoice fields.
 * Every write is one transaction. The value before a correction is what the analyst saw: the engine's value under
 * all earlier corrections (computed here from the page's latest reading, so a client cannot misstate it).
 *
 * Undo is a stack per page: the newest revision not yet taken back is taken back by a new revision that restores
 * the field's value before it (or the engine's value, for a field's first correction), so the history itself is never
 * rewritten.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { FieldRevision, FieldRevisionStats } from '../../app/contract/fields.js';
import {
  applyFieldCorrections,
  emptyFieldValues,
  fieldValueProblem,
  mergeDocumentFields,
  valueAt,
  type DocumentEngineFields,
  type EngineFieldValues,
  type FieldCorrection,
  type FieldValue,
  undoTarget,
} from '../../app/invoice/review/index.js';
import type { Extraction } from '../../app/model/extraction.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { AuditChain } from './auditChain.js';

interface FieldRevisionRow {
  id: string;
  page_id: string;
  parent_id: string | null;
  field: string;
  old_value: string | null;
  new_value: string | null;
  undoes: string | null;
  author: string;
  created_at: string;
  seq: number;
}

const parseValue = (json: string | null): FieldValue => (json === null ? null : (JSON.parse(json) as FieldValue));

function toFieldRevision(row: FieldRevisionRow): FieldRevision {
  return {
    id: row.id,
    pageId: row.page_id,
    parentId: row.parent_id,
    field: row.field,
    oldValue: parseValue(row.old_value),
    newValue: row.new_value === null ? null : parseValue(row.new_value),
    toEngine: row.new_value === null,
    undoes: row.undoes,
    author: row.author,
    createdAt: row.created_at,
  };
}

/** Corrections in the order they were made, for applyFieldCorrections. */
export function correctionsOf(revisions: readonly FieldRevision[]): FieldCorrection[] {
  return revisions.map((r) => ({ field: r.field, value: r.toEngine ? { engine: true as const } : r.newValue }));
}

/** An undo of a correction that is no longer the newest (another window's or analyst's came since). */
export class StaleUndoError extends CodedError {
  override name = 'StaleUndoError';
  constructor(message: string) {
    super(errorCodes.conflict, message);
  }
}

export class InvalidFieldError extends CodedError {
  override name = 'InvalidFieldError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

/**
 * Invoice fields belong to a document, not a page: its corrections are kept on its first page (the key page) and
 * name the document's merged paths; any page of the document can be given.
 */
export class FieldRevisionsRepository {
  /** Field revisions from elsewhere, for the bundle writer (transfer/applyFieldRevisions.ts). */
  readonly imported: ImportedFieldRevisionRows;
  private readonly chain: AuditChain;

  constructor(
    private readonly db: Database.Database,
    private readonly latestExtraction: (pageId: string) => Extraction | null,
  ) {
    this.imported = new ImportedFieldRevisionRows(db);
    this.chain = new AuditChain(db);
  }

  /** The document's pages in order, for any of its pages. */
  documentPageIds(pageId: string): string[] {
    return this.db
      .prepare('SELECT id FROM pages WHERE document_id = (SELECT document_id FROM pages WHERE id = ?) ORDER BY page_number')
      .pluck()
      .all(pageId) as string[];
  }

  private keyPage(pageId: string): string {
    return this.documentPageIds(pageId)[0] ?? pageId;
  }

  /** The field revisions of the page's document, oldest first. */
  list(pageId: string): FieldRevision[] {
    return (this.db.prepare('SELECT * FROM field_revisions WHERE page_id = ? ORDER BY seq').all(this.keyPage(pageId)) as FieldRevisionRow[]).map(toFieldRevision);
  }

  /** The engine's fields over the document's pages (null when none of them carries invoice fields). */
  documentEngine(pageId: string): DocumentEngineFields | null {
    return mergeDocumentFields(this.documentPageIds(pageId).map((id) => ({ pageId: id, extraction: this.latestExtraction(id) })));
  }

  /** The engine's values over the document (all absent when no page has invoice fields). */
  engineValues(pageId: string): EngineFieldValues {
    return this.documentEngine(pageId)?.values ?? emptyFieldValues();
  }

  /** The page's values as the analyst sees them: the engine's with every correction applied. */
  currentValues(pageId: string): EngineFieldValues {
    return applyFieldCorrections(this.engineValues(pageId), correctionsOf(this.list(pageId)));
  }

  /** Sets `field` to `value` (null clears it). Refuses paths that are not invoice fields or line cells, and values of the wrong type. */
  save(pageId: string, field: string, value: FieldValue, author: string): FieldRevision {
    const problem = fieldValueProblem(field, value);
    if (problem) throw new InvalidFieldError(problem);
    return this.db.transaction(() => this.insert(this.keyPage(pageId), field, JSON.stringify(value), author, null))();
  }

  /**
   * Takes back the page's newest correction not taken back yet; null when there is none. `expected`: the revision the
   * caller means to take back (the newest it showed; null: none); another one newest now (a correction from another window or
   * analyst) is refused with the code `conflict`, nothing taken back.
   */
  undo(pageId: string, author: string, expected?: string | null): FieldRevision | null {
    return this.db.transaction(() => {
      const revisions = this.list(pageId);
      const target = undoTarget(revisions);
      if (expected !== undefined && (target?.id ?? null) !== expected) {
        throw new StaleUndoError(
          target
            ? `Undo refused: the newest correction is now ${target.field} by ${target.author} at ${target.createdAt}, not the one you meant; nothing was taken back`
            : 'Undo refused: the correction you meant was taken back already; nothing was taken back',
        );
      }
      if (!target) return null;
      pageId = target.pageId;
      // The field's state before the target: the value of the field's revision just before it in save order, or the
      // engine's when there is none. On one line of history that is the target's parent; after a merge it is the
      // other side's correction the target was ordered after, so undoing the later of two shows the earlier.
      const before = revisions.slice(0, revisions.indexOf(target)).findLast((r) => r.field === target.field);
      const restored = before && !before.toEngine ? JSON.stringify(before.newValue) : null;
      return this.insert(pageId, target.field, restored, author, target.id);
    })();
  }

  private insert(pageId: string, field: string, newValueJson: string | null, author: string, undoes: string | null): FieldRevision {
    const current = this.currentValues(pageId);
    const before = valueAt(current, field) ?? null;
    const parent = this.db
      .prepare('SELECT id FROM field_revisions WHERE page_id = ? AND field = ? ORDER BY seq DESC LIMIT 1')
      .pluck()
      .get(pageId, field) as string | undefined;
    const seq = this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 FROM field_revisions WHERE page_id = ?').pluck().get(pageId) as number;
    const row: FieldRevisionRow = {
      id: randomUUID(),
      page_id: pageId,
      parent_id: parent ?? null,
      field,
      old_value: JSON.stringify(before),
      new_value: newValueJson,
      undoes,
      author,
      created_at: new Date().toISOString(),
      seq,
    };
    this.db
      .prepare(
        `INSERT INTO field_revisions (id, page_id, parent_id, field, old_value, new_value, undoes, author, created_at, seq)
         VALUES (@id, @page_id, @parent_id, @field, @old_value, @new_value, @undoes, @author, @created_at, @seq)`,
      )
      .run(row);
    this.chain.append('field_revisions', row.id);
    return toFieldRevision(row);
  }

  /** Pages whose fields an analyst corrected, and how many field revisions there are (optionally one document's). */
  stats(documentId?: string): FieldRevisionStats {
    const where = documentId ? 'WHERE p.document_id = ?' : '';
    const row = this.db
      .prepare(`SELECT COUNT(DISTINCT f.page_id) AS pages, COUNT(*) AS revisions FROM field_revisions f JOIN pages p ON p.id = f.page_id ${where}`)
      .get(...(documentId ? [documentId] : [])) as { pages: number; revisions: number };
    return { pages: row.pages, revisions: row.revisions };
  }
}

/** Field revisions from elsewhere, written with their ids; where and in which order they sit is the writer's policy. */
export class ImportedFieldRevisionRows {
  private readonly statements;
  private readonly chain: AuditChain;

  constructor(db: Database.Database) {
    this.chain = new AuditChain(db);
    this.statements = {
      ofDocument: db.prepare(
        `SELECT f.id, f.page_id, f.field, f.created_at FROM field_revisions f JOIN pages p ON p.id = f.page_id
         WHERE p.document_id = ? ORDER BY p.page_number, f.seq`,
      ),
      taken: db.prepare('SELECT 1 FROM field_revisions WHERE id = ?'),
      insert: db.prepare(
        `INSERT INTO field_revisions (id, page_id, parent_id, field, old_value, new_value, undoes, author, created_at, seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      place: db.prepare('UPDATE field_revisions SET page_id = ?, seq = ? WHERE id = ?'),
      pageOf: db.prepare('SELECT page_id FROM field_revisions WHERE id = ?').pluck(),
    };
  }

  /** The document's field revisions, page by page in their order. */
  ofDocument(documentId: string): { id: string; page_id: string; field: string; created_at: string }[] {
    return this.statements.ofDocument.all(documentId) as { id: string; page_id: string; field: string; created_at: string }[];
  }

  has(id: string | null): boolean {
    return id !== null && this.statements.taken.get(id) !== undefined;
  }

  insert(
    pageId: string,
    r: { id: string; parentId: string | null; field: string; oldValueJson: string | null; newValueJson: string | null; undoes: string | null; author: string; createdAt: string },
    seq: number,
  ): void {
    this.statements.insert.run(r.id, pageId, r.parentId, r.field, r.oldValueJson, r.newValueJson, r.undoes, r.author, r.createdAt, seq);
    this.chain.append('field_revisions', r.id);
  }

  /** Moves a revision to its document's key page and place; chained again when its page changes (a merge extends the trail). */
  place(id: string, pageId: string, seq: number): void {
    const before = this.statements.pageOf.get(id) as string | undefined;
    this.statements.place.run(pageId, seq, id);
    if (before !== pageId) this.chain.append('field_revisions', id);
  }
}
