/**
 * Hostile rows (issue 23, holes 3 and 5): a merged project or an imported corpus whose rows the store would never
 * write — `words: [null]`, a page past the cap or the pixel limits, a source blob that is not its SHA-256 — is
 * refused naming the file and the row, nothing of it stored; a project file poisoned by hand still lists its curation
 * queue. Seeded fuzz over mutated rows: a merge or import either refuses cleanly or stores rows that curation reads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { curationListRequestSchema } from '../../../app/contract/curation.js';
import { fillProject } from '../../../testing/corpusFixtures.js';
import { fakeInspect } from '../../../testing/fakes.js';
import { closeRawDatabase, rawDatabase } from '../../../testing/rawDatabase.js';
import { exportCorpus } from '../../corpus/exportCorpus.js';
import { CorpusImportError, importCorpus } from '../../corpus/importCorpus.js';
import { mergeProjectInto } from '../../corpus/mergeProjects.js';
import { projectPageImages } from '../../corpus/pageImages.js';
import { PageImageCache } from '../../services/pageImageCache.js';
import { ProjectFileError, ProjectStore } from '../projectStore.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-hostile-rows-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function project(name: string, seed: number, pages = 2): string {
  const file = path.join(dir, name);
  const store = ProjectStore.create(file);
  fillProject(store, [{ name: `${name}.pdf`, pages, corrections: { 0: ['text'] } }], seed);
  store.close();
  return file;
}

function tamper(file: string, sql: string): void {
  rawDatabase({ file }).exec(sql);
  closeRawDatabase({ file });
}

/** SQL adding one review event to page 1 of the project (`reason` null: none). */
const reviewEvent = (id: string, status: string, exceptions: string, reason: string | null, reviewer: string, at: string) =>
  `INSERT INTO review_events (id, page_id, status, exceptions, reason, reviewer, at)
   SELECT '${id}', id, '${status}', '${exceptions}', ${reason === null ? 'NULL' : `'${reason}'`}, '${reviewer}', '${at}' FROM pages WHERE page_number = 1`;

const listAll = (store: ProjectStore) => store.curation.list(curationListRequestSchema.parse({ limit: 500 }), () => store.attention.list());
const pageCount = (store: ProjectStore) => store.documents.listDocuments().reduce((n, d) => n + d.pages.length, 0);

describe('a merged project with rows the store would not write', () => {
  const cases: [string, string, RegExp][] = [
    ['words [null]', `UPDATE extractions SET words = '[null]'`, /other\.recto: other\.recto\.pdf, page 1: engine run .*: words\.0/],
    ['a page past the cap', 'UPDATE pages SET page_number = page_number + 5000', /page 5001 is past the limit of 2,000 pages/],
    ['a 1 × 100,000,000 px page', 'UPDATE pages SET width = 1, height = 100000000', /longer than 100 times its width/],
    ['a text layer of nulls', `UPDATE pages SET text_layer = '{"words":[null]}'`, /text layer: words\.0/],
    ['a source blob that is not its SHA-256', `UPDATE source_blobs SET bytes = zeroblob(6000000)`, /source file does not match its SHA-256/],
    ['a review event of an unknown status', reviewEvent('ev-1', 'approved-by-magic', '[]', null, 'Ada', '2024-01-01T00:00:00.000Z'), /page 1: review event ev-1: status/],
    ['review event exceptions that are not a list of texts', reviewEvent('ev-2', 'approved-with-exceptions', '{"a":1}', 'ok', 'Ada', '2024-01-01T00:00:00.000Z'), /review event ev-2: exceptions/],
    ['review event exceptions that are not JSON', reviewEvent('ev-3', 'approved', 'not json', null, 'Ada', '2024-01-01T00:00:00.000Z'), /review event ev-3: exceptions/],
    ['an approval over exceptions without a reason', reviewEvent('ev-4', 'approved-with-exceptions', '["failed-rule: BR-CO-15"]', ' ', 'Ada', '2024-01-01T00:00:00.000Z'), /review event ev-4: .*needs its exceptions and a reason/],
    ['a review event at no time', reviewEvent('ev-5', 'rejected', '[]', null, 'Ada', 'yesterday'), /review event ev-5: at/],
    ['a review event by nobody', reviewEvent('ev-6', 'rejected', '[]', null, '', '2024-01-01T00:00:00.000Z'), /review event ev-6: reviewer/],
  ];
  it.each(cases)('%s: refused naming the file and row, nothing merged', (_name, sql, message) => {
    const other = project('other.recto', 1);
    tamper(other, sql);
    const target = ProjectStore.create(path.join(dir, 'target.recto'));
    try {
      fillProject(target, [{ name: 'mine.pdf', pages: 1 }], 7);
      expect(() => mergeProjectInto(target, other)).toThrow(ProjectFileError);
      expect(() => mergeProjectInto(target, other)).toThrow(message);
      expect(pageCount(target)).toBe(1);
      expect(listAll(target).items).toHaveLength(1);
    } finally {
      target.close();
    }
  });
});

describe('project rows fuzz', () => {
  it('a merge of mutated rows is refused as a ProjectFileError or stores rows curation reads', () => {
    const base = project('base.recto', 4);
    const json = fc.oneof(fc.constant('null'), fc.constant('[null]'), fc.constant('{}'), fc.constant('[[1,2]]'), fc.constant('"x"'), fc.constant('{"words":[{"box":null}]}'), fc.jsonValue().map((v) => JSON.stringify(v)));
    const column = fc.constantFrom(
      ['extractions', 'words'],
      ['extractions', 'elements'],
      ['extractions', 'fields'],
      ['extractions', 'warnings'],
      ['engine_runs', 'settings'],
      ['engine_runs', 'stats'],
      ['pages', 'text_layer'],
    );
    const number = fc.constantFrom(['pages', 'width'], ['pages', 'height'], ['pages', 'dpi'], ['pages', 'page_number']);
    let run = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.tuple(column, json), fc.tuple(number, fc.oneof(fc.integer(), fc.double(), fc.constant(1e12)).map(String))), { minLength: 1, maxLength: 3 }), (edits) => {
        const other = path.join(dir, `fuzz-other-${run}.recto`);
        fs.copyFileSync(base, other);
        const db = rawDatabase({ file: other });
        for (const [[table, name], value] of edits) {
          try {
            db.prepare(`UPDATE ${table} SET ${name} = ? WHERE rowid = (SELECT MIN(rowid) FROM ${table})`).run(value);
          } catch {
            // a constraint of the schema refused the value: that row cannot exist in a Recto project anyway
          }
        }
        closeRawDatabase({ file: other });
        const target = ProjectStore.create(path.join(dir, `fuzz-target-${run++}.recto`));
        try {
          try {
            mergeProjectInto(target, other);
          } catch (error) {
            expect(error).toBeInstanceOf(ProjectFileError);
          }
          expect(() => listAll(target)).not.toThrow();
        } finally {
          target.close();
        }
      }),
      { numRuns: Number(process.env.RECTO_FUZZ_RUNS ?? 60), seed: Number(process.env.RECTO_FUZZ_SEED ?? 23) },
    );
  }, 120_000);
});

describe('a project file poisoned by hand', () => {
  it('still lists its curation queue and attention (bad words and elements are skipped on reading)', () => {
    const file = project('poisoned.recto', 2);
    tamper(file, `UPDATE extractions SET words = '[null, 5, {"text":"x"}]', elements = '{"page":{"width":1,"height":1},"elements":[null]}'`);
    const store = ProjectStore.open(file);
    try {
      expect(listAll(store).items).toHaveLength(2);
      expect(() => store.attention.list()).not.toThrow();
    } finally {
      store.close();
    }
  });
});

describe('a corpus with rows the store would not write', () => {
  async function exported(): Promise<{ out: string; lines: string[] }> {
    const source = ProjectStore.open(project('source.recto', 3, 3));
    const out = path.join(dir, 'corpus');
    try {
      await exportCorpus(source, { outDir: out, images: 'none', pageImage: projectPageImages(source, new PageImageCache(path.join(dir, 'cache'), fakeInspect)) });
    } finally {
      source.close();
    }
    return { out, lines: fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8').trim().split('\n') };
  }

  it('refuses the bad record by file:line and imports the others; curation keeps working', async () => {
    const { out, lines } = await exported();
    const record = JSON.parse(lines[1]!) as { engine: { words: unknown[] } };
    record.engine.words = [null];
    lines[1] = JSON.stringify(record);
    fs.writeFileSync(path.join(out, 'records.jsonl'), `${lines.join('\n')}\n`);
    const target = ProjectStore.create(path.join(dir, 'target.recto'));
    try {
      const summary = importCorpus(target, out);
      expect(summary.problems).toContainEqual({ where: 'records.jsonl:2', reason: expect.stringMatching(/words\.0/) });
      expect(summary.records).toBe(2);
      expect(pageCount(target)).toBe(2);
      expect(listAll(target).items).toHaveLength(2);
    } finally {
      target.close();
    }
  });

  it('refuses a record carrying a crafted review event by file:line, imports the others', async () => {
    const { out, lines } = await exported();
    const record = JSON.parse(lines[2]!) as { review_events: unknown[] };
    record.review_events = [{ id: 'ev-9', status: 'approved-with-exceptions', exceptions: ['duplicate: x'], reason: null, reviewer: 'Ada', at: '2024-01-01T00:00:00.000Z' }];
    lines[2] = JSON.stringify(record);
    fs.writeFileSync(path.join(out, 'records.jsonl'), `${lines.join('\n')}\n`);
    const target = ProjectStore.create(path.join(dir, 'target.recto'));
    try {
      const summary = importCorpus(target, out);
      expect(summary.problems).toContainEqual({ where: 'records.jsonl:3', reason: expect.stringMatching(/review event ev-9: .*needs its exceptions and a reason/) });
      expect(summary.records).toBe(2);
      expect(target.reviewEvents.ofPage(target.documents.listDocuments()[0]!.pages[0]!.id)).toEqual([]);
      expect(listAll(target).items).toHaveLength(2);
    } finally {
      target.close();
    }
  });

  it('fuzz: mutated records are refused by line or stored in a form curation reads', async () => {
    const { out, lines } = await exported();
    const json = fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.string({ maxLength: 8 }), fc.constant([null]), fc.constant({}), fc.constant([[1, 2]]));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: lines.length - 1 }), fc.array(fc.tuple(fc.nat(), json), { minLength: 1, maxLength: 4 }), async (which, edits) => {
        const record = JSON.parse(lines[which]!) as Record<string, unknown>;
        for (const [at, value] of edits) mutateAt(record, at, value);
        const folder = path.join(dir, `fuzz-${run}`);
        fs.cpSync(out, folder, { recursive: true });
        fs.writeFileSync(path.join(folder, 'records.jsonl'), lines.map((l, i) => (i === which ? JSON.stringify(record) : l)).join('\n'));
        const target = ProjectStore.create(path.join(dir, `fuzz-${run++}.recto`));
        try {
          try {
            importCorpus(target, folder);
          } catch (error) {
            expect(error).toBeInstanceOf(CorpusImportError);
          }
          expect(() => listAll(target)).not.toThrow();
        } finally {
          target.close();
        }
      }),
      { numRuns: Number(process.env.RECTO_FUZZ_RUNS ?? 60), seed: Number(process.env.RECTO_FUZZ_SEED ?? 23) },
    );
  }, 120_000);
});

/** Replaces the `at`-th value found walking the record (depth first) with `value`. */
function mutateAt(record: Record<string, unknown>, at: number, value: unknown): void {
  const slots: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach((v, i) => (slots.push([node, i]), walk(v)));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) (slots.push([node as Record<string, unknown>, k]), walk(v));
  };
  walk(record);
  const [holder, key] = slots[at % slots.length]!;
  (holder as Record<string | number, unknown>)[key] = value;
}
