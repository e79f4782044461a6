/**
 * `suppliers.jsonl` in an exported corpus: the project's supplier memory for the documents exported, one lesson a
 * line (docs/corpus-format.md) — its supplier's id and name, its document's SHA-256, the lesson (where and how the
 * supplier prints its fields, never an invoice's values), kept / corrected, approved. An import takes them back
 * (SupplierMemoryRepository.carry), so a supplier renamed or merged keeps its name and its lessons together. A line
 * that is not a lesson is reported and skipped; the file is optional (corpora of older Recto have none).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProjectStore } from '../store/projectStore.js';
import { carriedLessonSchema, MAX_LESSONS, type CarriedLesson } from '../store/supplierMemory.js';

export const SUPPLIERS_FILE = 'suppliers.jsonl';
/** A lesson is a few kilobytes: a file far over MAX_LESSONS of them is not read. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** The file's text for the exported documents (by SHA-256); empty where memory knows none of them. */
export function suppliersJsonl(store: ProjectStore, documentShas: ReadonlySet<string>): string {
  return store.supplierMemory
    .carried(documentShas)
    .map((row) => `${JSON.stringify(row)}\n`)
    .join('');
}

/** Takes the corpus's supplier memory into the project; problems name the file and line. */
export function carrySupplierMemoryFromCorpus(store: ProjectStore, dir: string): { carried: number; problems: { where: string; reason: string }[] } {
  const file = path.join(dir, SUPPLIERS_FILE);
  const problems: { where: string; reason: string }[] = [];
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return { carried: 0, problems };
  if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return { carried: 0, problems: [{ where: SUPPLIERS_FILE, reason: 'not a plain file of a readable size; supplier memory not taken' }] };
  const rows: CarriedLesson[] = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, MAX_LESSONS + 1)
    .forEach((line, index) => {
      if (!line.trim()) return;
      let parsed: ReturnType<typeof carriedLessonSchema.safeParse> | null = null;
      try {
        parsed = carriedLessonSchema.safeParse(JSON.parse(line));
      } catch {
        parsed = null;
      }
      if (parsed?.success) rows.push(parsed.data);
      else problems.push({ where: `${SUPPLIERS_FILE}:${index + 1}`, reason: 'not a supplier lesson; skipped' });
    });
  return { carried: store.supplierMemory.carry(rows), problems };
}
