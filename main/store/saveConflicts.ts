/**
 * Saves on a base (migration 014, docs/architecture.md "Nothing lost"). The analyst's save names what the edit was
 * based on; the rule, in one transaction with the write:
 *   1. the base is the latest (the page's revision, the field's revision) → saved on it;
 *   2. mine equals theirs (both made the same change) → nothing new, the latest is the answer;
 *   3. theirs equals the base (the newer revisions changed nothing, as an undo back to it) → saved on the latest;
 *   4. otherwise both changed it differently → a conflict: mine kept in revision_conflicts / field_conflicts, linked
 *      to its base and to theirs, and the caller answers the error code `conflict`. Nothing is written over theirs.
 * Rules 2 and 3 keep false conflicts away (a second window showing the same text, a merge that brought the same text).
 * A choice (`resolve…`) saves on the latest the analyst saw, by the same rule: a newer revision since is a conflict
 * again, the choice kept in turn (`superseded_by`).
 *
 * Results are returned, not thrown: a throw would roll back the transaction that keeps the conflict.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { AuditChain } from './auditChain.js';
import type { ConflictChoice, FieldConflict, RevisionConflict } from '../../app/contract/conflicts.js';
import type { FieldRevision } from '../../app/contract/fields.js';
import { fieldValueProblem, valueAt, type FieldValue } from '../../app/invoice/review/index.js';
import type { Revision } from '../../app/model/page.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { NotFoundError } from './documents.js';
import { InvalidFieldError, type FieldRevisionsRepository } from './fieldRevisions.js';
import type { RevisionsRepository } from './revisions.js';

export type TextSaveResult = { saved: Revision } | { conflict: RevisionConflict };
export type FieldSaveResult = { saved: FieldRevision } | { conflict: FieldConflict };

export class ConflictChoiceError extends CodedError {
  override name = 'ConflictChoiceError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

interface ResolutionColumns {
  resolution: ConflictChoice | null;
  resolved_revision_id: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  superseded_by: string | null;
}

interface RevisionConflictRow extends ResolutionColumns {
  id: string;
  page_id: string;
  base_id: string | null;
  theirs_id: string;
  text: string;
  author: string;
  created_at: string;
}

interface FieldConflictRow extends ResolutionColumns {
  id: string;
  page_id: string;
  field: string;
  base_id: string | null;
  theirs_id: string;
  value: string;
  author: string;
  created_at: string;
}

interface RevisionRowShape {
  id: string;
  page_id: string;
  parent_id: string | null;
  text: string;
  author: string;
  created_at: string;
}

const toRevision = (row: RevisionRowShape): Revision => ({
  id: row.id,
  pageId: row.page_id,
  parentId: row.parent_id,
  text: row.text,
  author: row.author,
  createdAt: row.created_at,
});

const resolutionOf = (row: ResolutionColumns) => ({
  resolution: row.resolution,
  resolvedRevisionId: row.resolved_revision_id,
  resolvedBy: row.resolved_by,
  resolvedAt: row.resolved_at,
  supersededBy: row.superseded_by,
});

export class SaveConflictsRepository {
  private readonly statements;
  /** Every conflict kept and every choice for one is chained (migration 017): an edit outside Recto is found. */
  private readonly chain: AuditChain;

  constructor(
    private readonly db: Database.Database,
    private readonly revisions: RevisionsRepository,
    private readonly fieldRevisions: FieldRevisionsRepository,
    /** The engine's text of a page (the base of a first edit); null when it was never read. */
    private readonly engineText: (pageId: string) => string | null,
  ) {
    this.chain = new AuditChain(db);
    this.statements = {
      // Prepared once, as revisions.ts does: the check is on every save, the analyst's critical path.
      revision: db.prepare('SELECT * FROM revisions WHERE id = ?'),
      latestRevision: db.prepare('SELECT * FROM revisions WHERE page_id = ? ORDER BY seq DESC LIMIT 1'),
      insertText: db.prepare(
        `INSERT INTO revision_conflicts (id, page_id, base_id, theirs_id, text, author, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      textConflict: db.prepare('SELECT * FROM revision_conflicts WHERE id = ?'),
      openText: db.prepare('SELECT * FROM revision_conflicts WHERE page_id = ? AND resolution IS NULL ORDER BY created_at, rowid'),
      allText: db.prepare('SELECT * FROM revision_conflicts WHERE page_id = ? ORDER BY created_at, rowid'),
      resolveText: db.prepare(
        `UPDATE revision_conflicts SET resolution = ?, resolved_revision_id = ?, resolved_by = ?, resolved_at = ?, superseded_by = ? WHERE id = ?`,
      ),
      latestField: db.prepare('SELECT id FROM field_revisions WHERE page_id = ? AND field = ? ORDER BY seq DESC LIMIT 1').pluck(),
      insertField: db.prepare(
        `INSERT INTO field_conflicts (id, page_id, field, base_id, theirs_id, value, author, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      fieldConflict: db.prepare('SELECT * FROM field_conflicts WHERE id = ?'),
      openField: db.prepare('SELECT * FROM field_conflicts WHERE page_id = ? AND resolution IS NULL ORDER BY created_at, rowid'),
      resolveField: db.prepare(
        `UPDATE field_conflicts SET resolution = ?, resolved_revision_id = ?, resolved_by = ?, resolved_at = ?, superseded_by = ? WHERE id = ?`,
      ),
    };
  }

  // ── Text ────────────────────────────────────────────────────────────────────────────────────────────────────────

  /** The analyst's save of a page's text on `parentId` (null: the engine's reading), by the rule above. */
  saveText(pageId: string, text: string, author: string, parentId: string | null): TextSaveResult {
    return this.db.transaction((): TextSaveResult => {
      const latestRow = this.statements.latestRevision.get(pageId) as RevisionRowShape | undefined;
      const latest = latestRow ? toRevision(latestRow) : null;
      // 1. On the latest (or the first edit of a page nobody edited); saveRevision checks the page and the parent.
      if ((latest?.id ?? null) === parentId || latest === null) return { saved: this.revisions.saveRevision(pageId, text, author, parentId) };
      const base = parentId === null ? null : this.revisionOfPage(pageId, parentId);
      // 2. The same text as theirs: it is in the project already.
      if (text === latest.text) return { saved: latest };
      // 3. Theirs changed nothing since the base: mine goes on top of it.
      const baseText = base ? base.text : (this.engineText(pageId) ?? '');
      if (latest.text === baseText) return { saved: this.revisions.saveRevision(pageId, text, author, latest.id) };
      // 4. Both changed it: mine kept, theirs untouched.
      const id = randomUUID();
      this.statements.insertText.run(id, pageId, parentId, latest.id, text, author, new Date().toISOString());
      this.chain.append('revision_conflicts', id);
      return { conflict: this.textConflict(id) };
    })();
  }

  /** The page's open text conflicts, oldest first. */
  openTextConflicts(pageId: string): RevisionConflict[] {
    return (this.statements.openText.all(pageId) as RevisionConflictRow[]).map((row) => this.toRevisionConflict(row));
  }

  /** Every text conflict of the page, chosen or open, oldest first (its history). */
  allTextConflicts(pageId: string): RevisionConflict[] {
    return (this.statements.allText.all(pageId) as RevisionConflictRow[]).map((row) => this.toRevisionConflict(row));
  }

  textConflict(id: string): RevisionConflict {
    const row = this.statements.textConflict.get(id) as RevisionConflictRow | undefined;
    if (!row) throw new NotFoundError(`No conflict ${id} in this project`);
    return this.toRevisionConflict(row);
  }

  /**
   * The analyst's choice for a text conflict. `parentId`: the latest revision the analyst saw as theirs. Returns the
   * resolved conflict and the revision saved (null for `theirs`), or the new conflict where the page moved on again.
   */
  resolveText(
    conflictId: string,
    choice: ConflictChoice,
    mergedText: string | undefined,
    parentId: string | null,
    author: string,
  ): { resolved: RevisionConflict; saved: Revision | null } | { conflict: RevisionConflict } {
    return this.db.transaction(() => {
      const open = this.openConflict(this.textConflict(conflictId));
      const now = new Date().toISOString();
      if (choice === 'theirs') {
        this.recordChoice('revision_conflicts', this.statements.resolveText, choice, null, author, now, null, conflictId);
        return { resolved: this.textConflict(conflictId), saved: null };
      }
      const text = chosen(choice, open.text, mergedText);
      const result = this.saveText(open.pageId, text, author, parentId);
      if ('conflict' in result) {
        this.recordChoice('revision_conflicts', this.statements.resolveText, choice, null, author, now, result.conflict.id, conflictId);
        return { conflict: result.conflict };
      }
      this.recordChoice('revision_conflicts', this.statements.resolveText, choice, result.saved.id, author, now, null, conflictId);
      return { resolved: this.textConflict(conflictId), saved: result.saved };
    })();
  }

  /** Writes the analyst's choice into the conflict's row and chains the row again as it is now (the choice an entry of its own). */
  private recordChoice(
    table: 'revision_conflicts' | 'field_conflicts',
    statement: Database.Statement,
    choice: ConflictChoice,
    revisionId: string | null,
    author: string,
    at: string,
    supersededBy: string | null,
    conflictId: string,
  ): void {
    statement.run(choice, revisionId, author, at, supersededBy, conflictId);
    this.chain.append(table, conflictId);
  }

  private revisionOfPage(pageId: string, revisionId: string): Revision {
    const row = this.statements.revision.get(revisionId) as RevisionRowShape | undefined;
    if (!row || row.page_id !== pageId) throw new NotFoundError(`Revision ${revisionId} is not a revision of page ${pageId}`);
    return toRevision(row);
  }

  private toRevisionConflict(row: RevisionConflictRow): RevisionConflict {
    const theirs = this.revisionOfPage(row.page_id, row.theirs_id);
    const baseText = row.base_id === null ? (this.engineText(row.page_id) ?? '') : this.revisionOfPage(row.page_id, row.base_id).text;
    return {
      id: row.id,
      pageId: row.page_id,
      baseId: row.base_id,
      baseText,
      theirs,
      text: row.text,
      author: row.author,
      createdAt: row.created_at,
      ...resolutionOf(row),
    };
  }

  // ── Fields ──────────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * The analyst's save of one invoice field based on `basedOn` (the field's latest revision the analyst saw; null:
   * none, the engine's value; undefined: not said — saved over whatever is there, for scripts), by the rule above.
   */
  saveField(pageId: string, field: string, value: FieldValue, author: string, basedOn: string | null | undefined): FieldSaveResult {
    if (basedOn === undefined) return { saved: this.fieldRevisions.save(pageId, field, value, author) };
    const problem = fieldValueProblem(field, value);
    if (problem) throw new InvalidFieldError(problem);
    return this.db.transaction((): FieldSaveResult => {
      const keyPage = this.keyPage(pageId);
      const latestId = (this.statements.latestField.get(keyPage, field) as string | undefined) ?? null;
      if (latestId === basedOn) return { saved: this.fieldRevisions.save(pageId, field, value, author) };
      const revisions = this.fieldRevisions.list(keyPage);
      const base = basedOn === null ? null : revisions.find((r) => r.id === basedOn && r.field === field);
      if (base === undefined) throw new InvalidFieldError(`${basedOn} is not a revision of ${field} on this document`);
      const theirs = revisions.find((r) => r.id === latestId)!;
      const theirsValue = this.valueOf(keyPage, field, theirs);
      if (sameValue(value, theirsValue)) return { saved: theirs };
      if (sameValue(theirsValue, this.valueOf(keyPage, field, base))) return { saved: this.fieldRevisions.save(pageId, field, value, author) };
      const id = randomUUID();
      this.statements.insertField.run(id, keyPage, field, basedOn, theirs.id, JSON.stringify(value), author, new Date().toISOString());
      this.chain.append('field_conflicts', id);
      return { conflict: this.fieldConflict(id) };
    })();
  }

  /** The open field conflicts of the page's document, oldest first. */
  openFieldConflicts(pageId: string): FieldConflict[] {
    return (this.statements.openField.all(this.keyPage(pageId)) as FieldConflictRow[]).map((row) => this.toFieldConflict(row));
  }

  fieldConflict(id: string): FieldConflict {
    const row = this.statements.fieldConflict.get(id) as FieldConflictRow | undefined;
    if (!row) throw new NotFoundError(`No conflict ${id} in this project`);
    return this.toFieldConflict(row);
  }

  /** The analyst's choice for a field conflict, as resolveText: `basedOn` is the field's latest revision as shown. */
  resolveField(
    conflictId: string,
    choice: ConflictChoice,
    mergedValue: FieldValue | undefined,
    basedOn: string | null,
    author: string,
  ): { resolved: FieldConflict; saved: FieldRevision | null } | { conflict: FieldConflict } {
    return this.db.transaction(() => {
      const open = this.openConflict(this.fieldConflict(conflictId));
      const now = new Date().toISOString();
      if (choice === 'theirs') {
        this.recordChoice('field_conflicts', this.statements.resolveField, choice, null, author, now, null, conflictId);
        return { resolved: this.fieldConflict(conflictId), saved: null };
      }
      const value = chosen(choice, open.value, mergedValue);
      const result = this.saveField(open.pageId, open.field, value, author, basedOn);
      if ('conflict' in result) {
        this.recordChoice('field_conflicts', this.statements.resolveField, choice, null, author, now, result.conflict.id, conflictId);
        return { conflict: result.conflict };
      }
      this.recordChoice('field_conflicts', this.statements.resolveField, choice, result.saved.id, author, now, null, conflictId);
      return { resolved: this.fieldConflict(conflictId), saved: result.saved };
    })();
  }

  private keyPage(pageId: string): string {
    const pages = this.fieldRevisions.documentPageIds(pageId);
    if (pages.length === 0) throw new NotFoundError(`No page ${pageId} in this project`);
    return pages[0]!;
  }

  /** The value a field revision gave its field (the engine's for a return to it; null revision: the engine's). */
  private valueOf(keyPage: string, field: string, revision: FieldRevision | null): FieldValue {
    if (revision && !revision.toEngine) return revision.newValue;
    return valueAt(this.fieldRevisions.engineValues(keyPage), field) ?? null;
  }

  private toFieldConflict(row: FieldConflictRow): FieldConflict {
    const revisions = this.fieldRevisions.list(row.page_id);
    const theirs = revisions.find((r) => r.id === row.theirs_id);
    if (!theirs) throw new NotFoundError(`Field revision ${row.theirs_id} is no longer in this project`);
    const base = row.base_id === null ? null : (revisions.find((r) => r.id === row.base_id) ?? null);
    return {
      id: row.id,
      pageId: row.page_id,
      field: row.field,
      baseId: row.base_id,
      baseValue: this.valueOf(row.page_id, row.field, base),
      theirs,
      theirsValue: this.valueOf(row.page_id, row.field, theirs),
      value: JSON.parse(row.value) as FieldValue,
      author: row.author,
      createdAt: row.created_at,
      ...resolutionOf(row),
    };
  }

  private openConflict<T extends { id: string; resolution: ConflictChoice | null; resolvedBy: string | null; resolvedAt: string | null }>(conflict: T): T {
    if (conflict.resolution !== null) {
      throw new ConflictChoiceError(`Conflict ${conflict.id} was resolved already (${conflict.resolution}, by ${conflict.resolvedBy} at ${conflict.resolvedAt})`);
    }
    return conflict;
  }
}

/** The text or value a choice saves: mine is the kept one; a merge must bring its own. */
function chosen<T>(choice: 'mine' | 'merged', mine: T, merged: T | undefined): T {
  if (choice === 'mine') return mine;
  if (merged === undefined) throw new ConflictChoiceError('A merged choice needs the merged text or value');
  return merged;
}

const sameValue = (a: FieldValue, b: FieldValue) => a === b;
