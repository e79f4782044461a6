/**
 * Supplier memory's rows (tables suppliers and supplier_lessons, migration 007). Lessons are validated as they are
 * read back (lessonSchema.ts): a crafted or unreadable row is skipped, and at most MAX_LESSONS rows are loaded, so a
 * hostile project costs neither a crash nor a hang. The index that recognises suppliers is built once per change.
 * Every write is one transaction.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { MAX_TEXT, ownIdentifiers, parseLesson, SupplierIndex, type SupplierLesson, type SupplierTrackRecord, type TaughtLesson } from '../../app/invoice/supplierMemory/index.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { compactId } from '../../app/invoice/identifiers.js';

/** More lessons than any project gathers by hand; rows past it are not loaded. */
export const MAX_LESSONS = 50_000;

export interface SupplierSummary {
  id: string;
  name: string;
  /** The documents' first pages that taught it, newest first. */
  pages: { pageId: string; documentId: string; learnedAt: string; kept: number; corrected: number }[];
  /** Fields it knows where to read. */
  fields: string[];
  /** The supplier's own identifiers (never the buyer's: one another supplier's pages print too is left out). */
  vatIds: string[];
  ibans: string[];
  taxNumbers: string[];
  glns: string[];
  phones: string[];
  kept: number;
  corrected: number;
}

/** A forgotten supplier's rows, exactly as they were in the project file (kept by the session for an undo). */
export interface ForgottenSupplier {
  supplier: { id: string; name: string; createdAt: string };
  lessons: { documentId: string; pageId: string | null; lesson: string; kept: number; corrected: number; approved: number; learnedAt: string }[];
}

interface LessonRow {
  document_id: string;
  supplier_id: string;
  page_id: string;
  lesson: string;
  kept: number;
  corrected: number;
  learned_at: string;
  name: string;
}

/** A lesson as it travels between projects (merge, corpus): its document by SHA-256, its supplier by id and name. */
export const carriedLessonSchema = z.object({
  supplierId: z.string().min(1).max(MAX_TEXT),
  supplierName: z.string().max(MAX_TEXT),
  documentSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The lesson's JSON (lessonSchema.ts), checked again when taken. */
  lesson: z.string().max(64 * 1024),
  kept: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  corrected: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  approved: z.boolean(),
  learnedAt: z.string().max(64),
});
export type CarriedLesson = z.infer<typeof carriedLessonSchema>;

/** Every lesson of a project file (this one, or another opened read-only), validated, at most MAX_LESSONS. */
export function carriedLessonsOf(db: Database.Database): CarriedLesson[] {
  const rows = db
    .prepare(
      `SELECT l.supplier_id AS supplierId, s.name AS supplierName, d.sha256 AS documentSha256, l.lesson, l.kept, l.corrected, l.approved, l.learned_at AS learnedAt
       FROM supplier_lessons l JOIN suppliers s ON s.id = l.supplier_id JOIN documents d ON d.id = l.document_id ORDER BY l.learned_at LIMIT ?`,
    )
    .all(MAX_LESSONS) as Record<string, unknown>[];
  return rows.flatMap((row) => {
    const parsed = carriedLessonSchema.safeParse({ ...row, approved: row.approved === 1 });
    return parsed.success ? [parsed.data] : [];
  });
}

export class SupplierNotFoundError extends CodedError {
  override name = 'SupplierNotFoundError';
  constructor(id: string) {
    super(errorCodes.notFound, `no supplier ${id} in this project`);
  }
}

const cleanName = (name: string): string => name.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT) || 'Unnamed supplier';

export class SupplierMemoryRepository {
  private cached: { lessons: (TaughtLesson & { documentId: string; kept: number; corrected: number; learnedAt: string })[]; index: SupplierIndex } | null = null;

  constructor(private readonly db: Database.Database) {}

  private load(): NonNullable<SupplierMemoryRepository['cached']> {
    if (this.cached) return this.cached;
    const rows = this.db
      .prepare(
        `SELECT l.document_id, l.supplier_id, l.page_id, l.lesson, l.kept, l.corrected, l.learned_at, s.name
         FROM supplier_lessons l JOIN suppliers s ON s.id = l.supplier_id ORDER BY l.learned_at DESC LIMIT ?`,
      )
      .all(MAX_LESSONS) as LessonRow[];
    const lessons = rows.flatMap((row) => {
      const lesson = typeof row.lesson === 'string' ? parseLesson(row.lesson) : null;
      if (!lesson || typeof row.supplier_id !== 'string' || typeof row.name !== 'string') return [];
      const count = (n: unknown): number => (Number.isSafeInteger(n) && (n as number) >= 0 ? (n as number) : 0);
      return [{ supplierId: row.supplier_id, supplierName: cleanName(row.name), pageId: String(row.page_id), documentId: String(row.document_id), lesson, kept: count(row.kept), corrected: count(row.corrected), learnedAt: String(row.learned_at) }];
    });
    this.cached = { lessons, index: new SupplierIndex(lessons) };
    return this.cached;
  }

  private changed(): void {
    this.cached = null;
  }

  index(): SupplierIndex {
    return this.load().index;
  }

  /** Each supplier's kept / corrected counts over its lessons. */
  trackRecords(): Map<string, SupplierTrackRecord> {
    const records = new Map<string, SupplierTrackRecord>();
    for (const l of this.load().lessons) {
      const r = records.get(l.supplierId) ?? { kept: 0, corrected: 0 };
      records.set(l.supplierId, { kept: r.kept + l.kept, corrected: r.corrected + l.corrected });
    }
    return records;
  }

  /** The supplier a document taught, if any. */
  supplierOf(documentId: string): string | null {
    return (this.db.prepare('SELECT supplier_id FROM supplier_lessons WHERE document_id = ?').pluck().get(documentId) as string | undefined) ?? null;
  }

  /**
   * Keeps the document's lesson under `supplierId` (an existing supplier), or under a new supplier named `newName`.
   * `outcome`: how memory's values for this document fared (zero where it was not read through memory).
   */
  teach(input: { documentId: string; pageId: string; lesson: SupplierLesson; supplierId: string | null; newName: string; outcome: SupplierTrackRecord; approved: boolean }): string {
    return this.db.transaction(() => {
      let supplierId = input.supplierId;
      if (!supplierId || !this.db.prepare('SELECT 1 FROM suppliers WHERE id = ?').get(supplierId)) {
        supplierId = randomUUID();
        this.db.prepare('INSERT INTO suppliers (id, name, created_at) VALUES (?, ?, ?)').run(supplierId, cleanName(input.newName), new Date().toISOString());
      } else if (input.lesson.identity.name) this.followConfirmedName(supplierId, input.documentId, input.lesson.identity.name);
      this.db
        .prepare(
          `INSERT INTO supplier_lessons (document_id, supplier_id, page_id, lesson, kept, corrected, approved, learned_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (document_id) DO UPDATE SET supplier_id = excluded.supplier_id, page_id = excluded.page_id, lesson = excluded.lesson,
             kept = excluded.kept, corrected = excluded.corrected, approved = MAX(approved, excluded.approved), learned_at = excluded.learned_at`,
        )
        .run(input.documentId, supplierId, input.pageId, JSON.stringify(input.lesson), input.outcome.kept, input.outcome.corrected, input.approved ? 1 : 0, new Date().toISOString());
      this.dropEmpty();
      this.changed();
      return supplierId;
    })();
  }

  /**
   * A supplier named after its only document's seller follows that name as the analyst corrects it (the supplier is
   * made at the first correction, perhaps before the seller's); a name the analyst gave in the Suppliers view stays.
   */
  private followConfirmedName(supplierId: string, documentId: string, newName: string): void {
    const others = this.db.prepare('SELECT COUNT(*) FROM supplier_lessons WHERE supplier_id = ? AND document_id != ?').pluck().get(supplierId, documentId) as number;
    const previous = this.db.prepare('SELECT lesson FROM supplier_lessons WHERE document_id = ?').pluck().get(documentId) as string | undefined;
    const current = this.db.prepare('SELECT name FROM suppliers WHERE id = ?').pluck().get(supplierId) as string;
    const taughtName = previous ? parseLesson(previous)?.identity.name : null;
    if (others === 0 && taughtName && current === cleanName(taughtName)) this.db.prepare('UPDATE suppliers SET name = ? WHERE id = ?').run(cleanName(newName), supplierId);
  }

  /** Takes back what a document taught (its corrections were all undone), unless the analyst approved it. */
  unteach(documentId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM supplier_lessons WHERE document_id = ? AND approved = 0').run(documentId);
      this.dropEmpty();
    })();
    this.changed();
  }

  list(): SupplierSummary[] {
    const lessons = this.load().lessons;
    // An identifier printed on two suppliers' pages is the buyer's (recogniseSupplier.ts): listed for neither.
    const owners = new Map<string, Set<string>>();
    for (const l of lessons) for (const id of ownIdentifiers(l.lesson)) owners.set(id, (owners.get(id) ?? new Set()).add(l.supplierId));
    const own = (values: readonly string[], into: string[]) => {
      for (const v of values) if (owners.get(compactId(v))?.size === 1 && !into.includes(v)) into.push(v);
    };
    const bySupplier = new Map<string, SupplierSummary>();
    for (const l of lessons) {
      const s = bySupplier.get(l.supplierId) ?? { id: l.supplierId, name: l.supplierName, pages: [], fields: [], vatIds: [], ibans: [], taxNumbers: [], glns: [], phones: [], kept: 0, corrected: 0 };
      s.pages.push({ pageId: l.pageId, documentId: l.documentId, learnedAt: l.learnedAt, kept: l.kept, corrected: l.corrected });
      s.kept += l.kept;
      s.corrected += l.corrected;
      for (const field of Object.keys(l.lesson.hints)) if (!s.fields.includes(field)) s.fields.push(field);
      const { vatIds, ibans, taxNumbers, glns, phones } = l.lesson.identity;
      own(vatIds, s.vatIds);
      own(ibans, s.ibans);
      own(taxNumbers, s.taxNumbers);
      own(glns, s.glns);
      own(phones, s.phones);
      bySupplier.set(l.supplierId, s);
    }
    return [...bySupplier.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  rename(id: string, name: string): void {
    const changes = this.db.prepare('UPDATE suppliers SET name = ? WHERE id = ?').run(cleanName(name), id).changes;
    if (changes === 0) throw new SupplierNotFoundError(id);
    this.changed();
  }

  /** Moves `from`'s lessons to `into` and drops `from`. */
  merge(into: string, from: string): void {
    this.db.transaction(() => {
      for (const id of [into, from]) if (!this.db.prepare('SELECT 1 FROM suppliers WHERE id = ?').get(id)) throw new SupplierNotFoundError(id);
      if (into === from) return;
      this.db.prepare('UPDATE supplier_lessons SET supplier_id = ? WHERE supplier_id = ?').run(into, from);
      this.db.prepare('DELETE FROM suppliers WHERE id = ?').run(from);
    })();
    this.changed();
  }

  /** Forgets a supplier and everything its pages taught; returns exactly the rows removed (for `restore`). */
  forget(id: string): ForgottenSupplier {
    const forgotten = this.db.transaction(() => {
      const supplier = this.db.prepare('SELECT id, name, created_at AS createdAt FROM suppliers WHERE id = ?').get(id) as ForgottenSupplier['supplier'] | undefined;
      if (!supplier) throw new SupplierNotFoundError(id);
      const lessons = this.db
        .prepare('SELECT document_id AS documentId, page_id AS pageId, lesson, kept, corrected, approved, learned_at AS learnedAt FROM supplier_lessons WHERE supplier_id = ?')
        .all(id) as ForgottenSupplier['lessons'];
      this.db.prepare('DELETE FROM supplier_lessons WHERE supplier_id = ?').run(id);
      this.db.prepare('DELETE FROM suppliers WHERE id = ?').run(id);
      return { supplier, lessons };
    })();
    this.changed();
    return forgotten;
  }

  /**
   * Undoes a `forget`: the supplier with its id, name and lessons as they were. A lesson whose document was removed
   * since, or that has taught another supplier since (a correction made after the forget), stays as it is now.
   * Returns how many lessons came back.
   */
  restore(forgotten: ForgottenSupplier): number {
    let restored = 0;
    this.db.transaction(() => {
      const { supplier } = forgotten;
      this.db.prepare('INSERT OR IGNORE INTO suppliers (id, name, created_at) VALUES (?, ?, ?)').run(supplier.id, supplier.name, supplier.createdAt);
      const insert = this.db.prepare(
        `INSERT OR IGNORE INTO supplier_lessons (document_id, supplier_id, page_id, lesson, kept, corrected, approved, learned_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM documents WHERE id = ?)`,
      );
      for (const l of forgotten.lessons) restored += insert.run(l.documentId, supplier.id, l.pageId, l.lesson, l.kept, l.corrected, l.approved, l.learnedAt, l.documentId).changes;
      this.dropEmpty();
    })();
    this.changed();
    return restored;
  }

  /** One page of each document that holds field corrections but has taught no lesson (after a merge or an import). */
  untaughtCorrectedPages(): string[] {
    return this.db
      .prepare(
        `SELECT MIN(f.page_id) FROM field_revisions f JOIN pages p ON p.id = f.page_id
         WHERE p.document_id NOT IN (SELECT document_id FROM supplier_lessons) GROUP BY p.document_id`,
      )
      .pluck()
      .all() as string[];
  }

  /** This project's lessons as they travel to another project: by their document's SHA-256 (all, or those of `shas`). */
  carried(shas?: ReadonlySet<string>): CarriedLesson[] {
    return carriedLessonsOf(this.db).filter((row) => !shas || shas.has(row.documentSha256));
  }

  /**
   * Takes lessons from another project or a corpus: each for a document this project has and that taught nothing
   * here yet (this project's own lessons stand). A supplier keeps its id, so lessons of one supplier stay together
   * and its name (as renamed there) comes along; where this project already files one of that supplier's documents
   * under a supplier of its own, the carried lessons join it (a merge made there) and this project's name stands.
   */
  carry(rows: readonly CarriedLesson[]): number {
    let carried = 0;
    this.db.transaction(() => {
      const docOf = this.db.prepare('SELECT id FROM documents WHERE sha256 = ?').pluck();
      const firstPage = this.db.prepare('SELECT id FROM pages WHERE document_id = ? ORDER BY page_number LIMIT 1').pluck();
      const targetOf = new Map<string, string>();
      for (const row of rows) {
        const documentId = docOf.get(row.documentSha256) as string | undefined;
        const here = documentId ? this.supplierOf(documentId) : null;
        if (here && !targetOf.has(row.supplierId)) targetOf.set(row.supplierId, here);
      }
      for (const row of rows.slice(0, MAX_LESSONS)) {
        const documentId = docOf.get(row.documentSha256) as string | undefined;
        const pageId = documentId ? (firstPage.get(documentId) as string | undefined) : undefined;
        const lesson = parseLesson(row.lesson);
        if (!documentId || !pageId || !lesson || this.supplierOf(documentId)) continue;
        const supplierId = targetOf.get(row.supplierId) ?? row.supplierId;
        this.db.prepare('INSERT OR IGNORE INTO suppliers (id, name, created_at) VALUES (?, ?, ?)').run(supplierId, cleanName(row.supplierName), new Date().toISOString());
        this.db
          .prepare('INSERT INTO supplier_lessons (document_id, supplier_id, page_id, lesson, kept, corrected, approved, learned_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
          .run(documentId, supplierId, pageId, JSON.stringify(lesson), row.kept, row.corrected, row.approved ? 1 : 0, row.learnedAt);
        carried++;
      }
    })();
    this.changed();
    return carried;
  }

  private dropEmpty(): void {
    this.db.prepare('DELETE FROM suppliers WHERE id NOT IN (SELECT supplier_id FROM supplier_lessons)').run();
  }
}
