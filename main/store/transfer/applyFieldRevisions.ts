/**
 * Writing a document's field revisions from elsewhere (a corpus, another project) into this project, with the policy
 * the bundle writer applies to text revisions: nothing already here is changed or dropped, revisions are matched by id
 * (UUIDs, unique across projects), and the document's revisions from both sides are ordered by time, so the value a
 * field shows is the one saved last, whichever side saved it. A field corrected on both sides since they parted is
 * counted as a conflict, and both lines of its history are kept (each revision keeps the parent it had).
 *
 * A document's field revisions live on its first page (fieldRevisions.ts). A page bundle may arrive before a
 * lower-numbered page of its document does (a corpus exported by review status); when that page comes, the
 * document's revisions move to it, so they are always found where the repository looks.
 */
import { fieldValueProblem } from '../../../app/invoice/review/index.js';
import type { ImportedDocumentRows } from '../documents.js';
import type { ImportedFieldRevisionRows } from '../fieldRevisions.js';
import type { BundleFieldRevision } from './pageBundles.js';

/** Why a field revision from elsewhere cannot be written, or null when it can (field path, JSON values and their types). */
export function bundleFieldRevisionProblem(revision: BundleFieldRevision): string | null {
  const name = `field revision ${revision.id.slice(0, 60)}`;
  if (!revision.id || !revision.author || !revision.createdAt) return `${name}: id, author and time are required`;
  const pathProblem = fieldValueProblem(revision.field, null);
  if (pathProblem) return `${name}: ${pathProblem}`;
  const values: [string, string | null][] = [['old value', revision.oldValueJson], ['new value', revision.newValueJson]];
  for (const [what, json] of values) {
    if (json === null) continue;
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return `${name}: its ${what} is not JSON`;
    }
    const problem = fieldValueProblem(revision.field, value);
    if (problem) return `${name}: its ${what}: ${problem}`;
  }
  return null;
}

export class FieldRevisionBundleError extends Error {
  override name = 'FieldRevisionBundleError';
}

export interface FieldRevisionsOutcome {
  added: number;
  /** Fields with revisions on both sides that the other side lacks: both kept, the later one shows. */
  conflicts: number;
}

export class FieldRevisionWriter {
  constructor(
    private readonly documents: ImportedDocumentRows,
    private readonly rows: ImportedFieldRevisionRows,
  ) {}

  /** Adds the revisions this project lacks to the document (call inside the bundle's transaction). */
  apply(documentId: string, revisions: readonly BundleFieldRevision[]): FieldRevisionsOutcome {
    const rows = this.rows;
    const keyPage = this.documents.keyPage(documentId);
    if (keyPage === undefined) return { added: 0, conflicts: 0 };
    const existing = rows.ofDocument(documentId);
    const incoming = revisions.filter((r) => !rows.has(r.id));
    const misplaced = existing.some((e) => e.page_id !== keyPage);
    if (incoming.length === 0 && !misplaced) return { added: 0, conflicts: 0 };
    for (const revision of incoming) {
      const problem = bundleFieldRevisionProblem(revision);
      if (problem) throw new FieldRevisionBundleError(problem);
    }

    const bringing = new Set(revisions.map((r) => r.id));
    const onlyHere = new Set(existing.filter((e) => !bringing.has(e.id)).map((e) => e.field));
    const conflicts = new Set(incoming.filter((r) => onlyHere.has(r.field)).map((r) => r.field)).size;

    // Inserted past every seq in use (parents first: a bundle lists revisions in the order they were saved), then the
    // document's revisions are placed on its first page and numbered by time; ties keep each side's order, ours first.
    let seq = existing.length + incoming.length + 1;
    for (const r of incoming) {
      rows.insert(keyPage, { ...r, parentId: rows.has(r.parentId) ? r.parentId : null, undoes: rows.has(r.undoes) ? r.undoes : null }, -(seq++));
    }
    const ordered = [
      ...existing.map((e, i) => ({ id: e.id, at: e.created_at, side: 0, i })),
      ...incoming.map((r, i) => ({ id: r.id, at: r.createdAt, side: 1, i })),
    ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.side - b.side || a.i - b.i));
    // Two passes: the (page, seq) index is unique, so move everything out of the way first (below the inserted rows).
    ordered.forEach((r, i) => rows.place(r.id, keyPage, -(seq + i)));
    ordered.forEach((r, i) => rows.place(r.id, keyPage, i + 1));
    return { added: incoming.length, conflicts };
  }
}
