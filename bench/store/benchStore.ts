/**
 * `npm run bench:store [-- --json FILE] [-- --pages N] [-- --only save|export]`: the store's curation figures.
 * - save_p95_ms: saving a revision of a typical invoice page (title, header, text, a 5-row HTML table, a formula,
 *   footer; ~900 characters) with everything a save does in its transaction — the check recomputation, the page's
 *   olmOCR tests for the corpus derived again, the curation rollups (triggers) — 300 saves cycling correction kinds,
 *   with synchronous=FULL (the project's setting); the same saves with synchronous=NORMAL, interleaved, are the
 *   baseline (save_p95_normal_ms, save_p95_full_vs_normal).
 * - query_100k_ms: the slowest of the curation.list and curation.summary variants (sort by score / by a check; filters
 *   by status, kind, engine, document; the list's score range) over 100,000 synthetic pages — median of 5 runs each;
 *   list_100k_ms and summary_100k_ms are the slowest of each.
 * - export_pages_per_s: the FIRST export, without images, of 1,000 fixture pages (a third corrected) whose revisions
 *   were saved through ProjectStore.saveRevision (so their tests were derived when saved), into a new folder.
 *   Also: a second export into another new folder, one into the same folder (nothing changed), and the first export
 *   of the same project with its derived tests dropped (a project saved before the store derived them: the export
 *   derives them, ~1 ms per corrected page). Each also as pages per CPU second (the machine's load left out).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { curationFilterSchema, curationListRequestSchema } from '../../app/contract/curation.js';
import { elementKinds } from '../../app/model/extraction.js';
import { correctPage, fillProject, invoicePage, type CorrectionKind } from '../../testing/corpusFixtures.js';
import { exportCorpus } from '../../main/corpus/exportCorpus.js';
import { kindBits } from '../../main/store/curation/checkResults.js';
import { ProjectStore } from '../../main/store/projectStore.js';
import { rawDatabase } from '../../testing/rawDatabase.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, pages: { type: 'string' }, only: { type: 'string' } } });
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-store-'));
const rows: [string, string][] = [];
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);

interface SaveFigures {
  p95: number;
  /** The same saves into a project with synchronous=NORMAL (the setting before FULL), interleaved with the others. */
  p95Normal: number;
}

function benchSave(): SaveFigures {
  // The product's setting (synchronous=FULL, set when a project is opened) and, as the baseline in the same run,
  // NORMAL: saves alternate between the two files so that the machine's load falls on both alike.
  const full = ProjectStore.create(path.join(root, 'save.recto'));
  const normal = ProjectStore.create(path.join(root, 'save-normal.recto'), { synchronous: 'NORMAL' });
  try {
    const kinds: CorrectionKind[][] = [['table'], ['text'], ['formula'], ['header'], ['order'], ['table', 'text'], []];
    const stores = [
      { store: full, ids: fillProject(full, [{ name: 'invoice.pdf', pages: 10 }]), times: [] as number[], cpuTimes: [] as number[] },
      { store: normal, ids: fillProject(normal, [{ name: 'invoice.pdf', pages: 10 }]), times: [] as number[], cpuTimes: [] as number[] },
    ];
    for (let i = 0; i < 330; i++) {
      const page = i % 10;
      const text = correctPage(invoicePage(page).markdown, kinds[i % kinds.length]!) + (i % 2 ? ` (edit ${i})` : '');
      for (const side of i % 2 ? stores : [...stores].reverse()) {
        const cpu = process.cpuUsage();
        const start = performance.now();
        side.store.revisions.saveRevision(side.ids[page]!, text, 'Bench', null);
        const elapsed = performance.now() - start;
        const used = process.cpuUsage(cpu);
        // The first 30 warm up the JIT and caches.
        if (i >= 30) {
          side.times.push(elapsed);
          side.cpuTimes.push((used.user + used.system) / 1000);
        }
      }
    }
    for (const side of stores) {
      side.times.sort((a, b) => a - b);
      side.cpuTimes.sort((a, b) => a - b);
    }
    const [f, n] = stores as [(typeof stores)[0], (typeof stores)[0]];
    rows.push(
      ['save + checks p50 (ms)', quantile(f.times, 0.5).toFixed(2)],
      ['save + checks p95 (ms)', quantile(f.times, 0.95).toFixed(2)],
      ['save + checks CPU time p50 / p95 (ms; wall time minus waiting for a core)', `${quantile(f.cpuTimes, 0.5).toFixed(2)} / ${quantile(f.cpuTimes, 0.95).toFixed(2)}`],
      ['save + checks p50 / p95 with synchronous=NORMAL, same run (ms)', `${quantile(n.times, 0.5).toFixed(2)} / ${quantile(n.times, 0.95).toFixed(2)}`],
      ['save p95: FULL / NORMAL', (quantile(f.times, 0.95) / quantile(n.times, 0.95)).toFixed(2)],
    );
    return { p95: quantile(f.times, 0.95), p95Normal: quantile(n.times, 0.95) };
  } finally {
    full.close();
    normal.close();
  }
}

/** 100,000 page_checks rows (1,000 documents × 100 pages) with their kinds, inserted directly. */
function syntheticProject(pages: number): ProjectStore {
  // RECTO_BENCH_KEEP=FILE keeps the synthetic project between runs (for looking at query plans).
  const kept = process.env.RECTO_BENCH_KEEP;
  if (kept && fs.existsSync(kept)) return ProjectStore.open(kept);
  const store = ProjectStore.create(kept ?? path.join(root, 'query.recto'));
  const db = rawDatabase(store);
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const statuses = ['unreviewed', 'in-review', 'approved', 'rejected'];
  const kinds = elementKinds.filter((k) => k !== 'other');
  db.transaction(() => {
    const doc = db.prepare('INSERT INTO documents (id, sha256, name, media_type, size_bytes, imported_at) VALUES (?, ?, ?, ?, ?, ?)');
    const page = db.prepare(`INSERT INTO pages (id, document_id, page_number, width, height, dpi, status, review_status) VALUES (?, ?, ?, 1240, 1754, 150, 'done', ?)`);
    const check = db.prepare(
      `INSERT INTO page_checks (page_id, document_id, extraction_id, revision_id, engine_id, review_status, has_revision, score, text_score,
         structure_score, tables_score, tables_structure_score, formulas_score, repetition_score, unit_tests_score,
         changed_chars, engine_chars, kinds_mask, changed_kinds_mask, revision_author, revision_at, results, computed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, 1, NULL, ?, 1500, ?, ?, ?, ?, '{}', '2026-01-01T00:00:00.000Z')`,
    );
    const kind = db.prepare(
      'INSERT INTO page_check_kinds (page_id, kind, elements, chars, changed_chars, inserted_chars) VALUES (?, ?, ?, ?, ?, ?)',
    );
    let documentId = '';
    for (let i = 0; i < pages; i++) {
      if (i % 100 === 0) {
        documentId = randomUUID();
        doc.run(documentId, i.toString(16).padStart(64, '0'), `doc-${i / 100}.pdf`, 'application/pdf', 1000, '2026-01-01T00:00:00.000Z');
      }
      const pageId = randomUUID();
      const status = statuses[Math.floor(random() * 4)];
      page.run(pageId, documentId, (i % 100) + 1, status);
      const corrected = random() < 0.3;
      const text = corrected ? 0.5 + random() * 0.5 : 1;
      const tables = random() < 0.6 ? (corrected ? random() : 1) : null;
      const score = text * (tables === null ? 1 : Math.max(0.1, tables));
      const day = `2026-0${1 + Math.floor(random() * 6)}-1${Math.floor(random() * 9)}T10:00:00.000Z`;
      const pageKinds = kinds
        .filter((k) => random() < 0.35 || k === 'text')
        .map((k) => ({ kind: k, elements: 1 + Math.floor(random() * 5), changed: corrected && random() < 0.4 ? 1 + Math.floor(random() * 50) : 0 }));
      const mask = (list: typeof pageKinds) => list.reduce((m, k) => m | (kindBits[k.kind] ?? 0), 0);
      check.run(pageId, documentId, randomUUID(), corrected ? randomUUID() : null, random() < 0.5 ? 'bundled' : 'vlm', status, corrected ? 1 : 0,
        score, text, tables, tables, random() < 0.1 ? random() : null, corrected ? Math.floor(random() * 200) : 0,
        mask(pageKinds), mask(pageKinds.filter((k) => k.changed > 0)), corrected ? 'Analyst' : null, corrected ? day : null);
      for (const k of pageKinds) kind.run(pageId, k.kind, k.elements, 200, k.changed, Math.floor(k.changed / 3));
    }
  })();
  db.exec('ANALYZE');
  return store;
}

function timed(run: () => void, repeats: number): number {
  return median(
    Array.from({ length: repeats }, () => {
      const start = performance.now();
      run();
      return performance.now() - start;
    }),
  );
}

function benchQuery(pages: number): { list: number; summary: number } {
  const started = performance.now();
  const store = syntheticProject(pages);
  rows.push([`synthetic project of ${pages} pages built (s)`, ((performance.now() - started) / 1000).toFixed(1)]);
  try {
    const documentId = rawDatabase(store).prepare('SELECT id FROM documents LIMIT 1 OFFSET 500').pluck().get() as string;
    const lists: [string, object][] = [
      ['list: by score, worst first', {}],
      ['list: by score, page 200 (offset 10,000)', { offset: 10_000 }],
      ['list: by tables TEDS', { sort: 'tables' }],
      ['list: by changed chars, desc', { sort: 'changedChars', direction: 'desc' }],
      ['list: status approved', { reviewStatus: ['approved'] }],
      ['list: engine vlm, corrected only', { engine: 'vlm', correctedOnly: true }],
      ['list: tables changed', { elementKind: 'table', elementKindChanged: true }],
      ['list: pages with tables, status approved', { elementKind: 'table', reviewStatus: ['approved'] }],
      ['list: one document', { documentId }],
      ['list: score 0.2–0.6', { minScore: 0.2, maxScore: 0.6 }],
      ['list: score ≤ 0.5, by text, status approved', { maxScore: 0.5, sort: 'text', reviewStatus: ['approved'] }],
    ];
    let list = 0;
    for (const [name, request] of lists) {
      const parsed = curationListRequestSchema.parse(request);
      const ms = timed(() => store.curation.list(parsed), 5);
      list = Math.max(list, ms);
      rows.push([`${name} (ms)`, ms.toFixed(1)]);
    }
    // Dimension filters are answered by the maintained aggregates; one document by its pages.
    const summaries: [string, object][] = [
      ['summary: all pages', {}],
      ['summary: status approved', { reviewStatus: ['approved'] }],
      ['summary: engine vlm, corrected only', { engine: 'vlm', correctedOnly: true }],
      ['summary: pages with tables, status approved or rejected', { elementKind: 'table', reviewStatus: ['approved', 'rejected'] }],
      ['summary: tables changed', { elementKind: 'table', elementKindChanged: true }],
      ['summary: one document (from its pages)', { documentId }],
    ];
    let summary = 0;
    for (const [name, filter] of summaries) {
      const parsed = curationFilterSchema.parse(filter);
      const ms = timed(() => store.curation.summarize(parsed), 5);
      summary = Math.max(summary, ms);
      rows.push([`${name} (ms)`, ms.toFixed(1)]);
    }
    // What the rollups replace, for comparison: the same summary aggregated from all 100,000 pages.
    rows.push(['summary: all pages, aggregated from the pages instead (ms)', timed(() => store.curation.summarize({}, { source: 'pages' }), 3).toFixed(1)]);
    return { list, summary };
  } finally {
    store.close();
  }
}

/** Pages per second of wall time and per CPU second of one export. */
async function exportRate(store: ProjectStore, outDir: string): Promise<{ wall: number; cpu: number; records: number; tests: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const summary = await exportCorpus(store, { outDir: path.join(root, outDir), images: 'none' });
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { wall: summary.records / seconds, cpu: summary.records / ((used.user + used.system) / 1e6), records: summary.records, tests: summary.tests };
}

async function benchExport(): Promise<{ first: number; again: number; underived: number }> {
  const store = ProjectStore.create(path.join(root, 'export.recto'));
  try {
    const corrections: Record<number, CorrectionKind[]> = {};
    const kinds: CorrectionKind[][] = [['table'], ['text', 'header'], ['formula'], ['order', 'table']];
    for (let i = 0; i < 50; i += 3) corrections[i] = kinds[i % kinds.length]!;
    // Read and corrected through the store's own paths (saveExtraction, saveRevision), as the app does.
    fillProject(store, Array.from({ length: 20 }, (_, d) => ({ name: `invoice-${d}.pdf`, pages: 50, corrections })));
    const corrected = rawDatabase(store).prepare('SELECT COUNT(*) FROM page_checks WHERE has_revision = 1').pluck().get() as number;
    const first = await exportRate(store, 'corpus');
    const again = await exportRate(store, 'corpus-2');
    const unchanged = await exportRate(store, 'corpus');
    // A project whose corrections were saved before the store derived their tests: the export derives them.
    rawDatabase(store).exec('DELETE FROM page_derived_tests');
    const underived = await exportRate(store, 'corpus-3');
    const line = (rate: { wall: number; cpu: number }) => `${rate.wall.toFixed(0)} (${rate.cpu.toFixed(0)} per CPU s)`;
    rows.push(
      [`export, no images, FIRST export: ${first.records} pages (${corrected} corrected), ${first.tests} tests (pages/s)`, line(first)],
      ['export, no images, again into a new folder (pages/s)', line(again)],
      ['export, no images, again into the same folder, unchanged (pages/s)', line(unchanged)],
      ['export, no images, first export with the tests not derived yet (pages/s)', line(underived)],
    );
    return { first: first.wall, again: again.wall, underived: underived.wall };
  } finally {
    store.close();
  }
}

try {
  // --only save: the save figures alone (the durability setting's cost), without the 100,000-page project;
  // --only export: the export figures alone (a quick before/after of a change to the export).
  const only = values.only;
  const none = { p95: Number.NaN, p95Normal: Number.NaN };
  const save = only === 'export' ? none : benchSave();
  const query = only === 'save' || only === 'export' ? { list: Number.NaN, summary: Number.NaN } : benchQuery(Number(values.pages ?? 100_000));
  const exports = only === 'save' ? { first: Number.NaN, again: Number.NaN, underived: Number.NaN } : await benchExport();
  const load = os.loadavg()[0]!.toFixed(1);
  rows.push(['load average (1 min) at the end', `${load} on ${os.cpus().length} cores`]);
  const width = Math.max(...rows.map(([name]) => name.length));
  process.stdout.write(`${'measure'.padEnd(width)}  value\n${'-'.repeat(width)}  -----\n`);
  for (const [name, value] of rows) process.stdout.write(`${name.padEnd(width)}  ${value}\n`);
  const figures = {
    save_p95_ms: Number(save.p95.toFixed(2)),
    save_p95_normal_ms: Number(save.p95Normal.toFixed(2)),
    save_p95_full_vs_normal: Number((save.p95 / save.p95Normal).toFixed(2)),
    query_100k_ms: Number(Math.max(query.list, query.summary).toFixed(1)),
    export_pages_per_s: Math.round(exports.first),
    list_100k_ms: Number(query.list.toFixed(1)),
    summary_100k_ms: Number(query.summary.toFixed(1)),
    export_first_pages_per_s: Math.round(exports.first),
    export_again_pages_per_s: Math.round(exports.again),
    export_underived_pages_per_s: Math.round(exports.underived),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
