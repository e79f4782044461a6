/**
 * Maintained aggregates for curation.summary: scanning every page's checks and every kinds row took ~0.5 s at
 * 100,000 pages, so triggers keep running totals instead, per "cell" of the queue's dimension filters — review
 * status × engine × corrected or not × filter key, where the key is '' (every page), 'has:KIND' (pages with an
 * element of that kind) or 'changed:KIND' (pages where the correction changed that kind). A summary under those
 * filters adds up a few dozen rows; other filters (one document, a score range) scan the filtered pages.
 *
 * - curation_rollup: pages, sums of every check (integers: score × 10^6, rounded, so adding and subtracting never
 *   drifts) with counts for the checks that can be null, and the 10-bin score histogram;
 * - curation_rollup_days: corrected pages per UTC day of their latest revision, with their score sum;
 * - curation_rollup_kinds: per element kind, pages / pages changed / elements / chars / changed / inserted chars.
 * Triggers on page_checks add a row's contribution on insert, subtract it on delete, and both on update (a changed
 * review status, engine, revision or kind mask moves the page's kinds contributions to the new cell too). Triggers
 * on page_check_kinds read the cell from the page's page_checks row, which therefore deletes its kinds rows itself
 * before it goes (so they are subtracted while the cell is still known).
 *
 * Also: page_check_kinds gains inserted_chars (the inserted part of changed_chars), so that a kind's change rate,
 * changed / (chars + inserted), is a rate in [0, 1], and is keyed by (page, kind). Check rows computed before this
 * migration lack it, so they are dropped here and recomputed on the next curation query or export (ProjectStore
 * recomputeMissing); the derived-test cache is kept.
 */
import type { Migration } from './migration.js';

/** Kinds with their bit in page_checks.kinds_mask (frozen copy of checkResults.ts kindBits at this version). */
const kinds = ['title', 'heading', 'text', 'list', 'table', 'formula', 'figure', 'caption', 'header', 'footer', 'page-number', 'footnote', 'other'];

const micro = (expression: string) => `CAST(round(${expression} * 1000000) AS INTEGER)`;
const nullableChecks = ['tables_score', 'tables_structure_score', 'formulas_score', 'unit_tests_score'];
const bins = Array.from({ length: 10 }, (_, i) => i);

/** The filter keys a page_checks row R counts under (a join condition on curation_filter_keys f). */
const keysOf = (row: string) =>
  `(f.key = '' OR (${row}.kinds_mask & f.has_bit) != 0 OR (${row}.changed_kinds_mask & f.changed_bit) != 0)`;

/** Histogram bin of a score: bin i is [i/10, (i+1)/10), the last includes 1 (as the scan query counts them). */
const binOf = (row: string) => `(CASE ${[...bins].reverse().slice(0, 9).map((i) => `WHEN ${row}.score >= ${i / 10} THEN ${i}`).join(' ')} ELSE 0 END)`;

const rollupColumns = [
  'pages',
  'score_micro',
  'text_micro',
  'structure_micro',
  'repetition_micro',
  ...nullableChecks.flatMap((c) => [`${c.replace(/_score$/, '')}_micro`, `${c.replace(/_score$/, '')}_n`]),
  ...bins.map((i) => `bin${i}`),
];

const addUp = (columns: string[]) => columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ');

/** What page_checks row R (NEW or OLD) adds to curation_rollup's columns. */
const pageValues = (row: string): string[] => [
  '1',
  micro(`${row}.score`),
  micro(`${row}.text_score`),
  micro(`${row}.structure_score`),
  micro(`${row}.repetition_score`),
  ...nullableChecks.flatMap((c) => [`COALESCE(${micro(`${row}.${c}`)}, 0)`, `(${row}.${c} IS NOT NULL)`]),
  ...bins.map((i) => `(${binOf(row)} = ${i})`),
];

/** Column values `sign × R`, or `NEW − OLD` for 'delta'. */
function signed(values: (row: string) => string[], how: 'add' | 'subtract' | 'delta'): string[] {
  if (how === 'add') return values('NEW');
  if (how === 'subtract') return values('OLD').map((v) => `-(${v})`);
  const old = values('OLD');
  return values('NEW').map((v, i) => `(${v}) - (${old[i]})`);
}

const sameCell = `OLD.review_status IS NEW.review_status AND OLD.engine_id IS NEW.engine_id AND OLD.has_revision IS NEW.has_revision`;

/**
 * How page_checks row changes reach a rollup: an insert adds NEW under its keys, a delete subtracts OLD; an update
 * in the same cell adds the difference under the keys both rows count in and adds / subtracts under the others (so
 * the usual save — same cell, same kinds, new scores — writes each rollup row once), and in another cell subtracts
 * OLD and adds NEW.
 */
function updateParts(): { how: 'add' | 'subtract' | 'delta'; cell: 'NEW' | 'OLD'; where: string }[] {
  return [
    { how: 'delta', cell: 'NEW', where: `${sameCell} AND ${keysOf('OLD')} AND ${keysOf('NEW')}` },
    { how: 'subtract', cell: 'OLD', where: `${keysOf('OLD')} AND NOT (${sameCell} AND ${keysOf('NEW')})` },
    { how: 'add', cell: 'NEW', where: `${keysOf('NEW')} AND NOT (${sameCell} AND ${keysOf('OLD')})` },
  ];
}

/** curation_rollup and curation_rollup_days statements for one part of a page_checks change. */
function pageStatements(how: 'add' | 'subtract' | 'delta', cell: 'NEW' | 'OLD', where: string): string[] {
  const days = (row: string) => [micro(`${row}.score`)];
  // A day row: the page counts there when it is corrected; a delta only when the day itself did not change.
  const dayWhere =
    how === 'delta'
      ? `NEW.has_revision = 1 AND NEW.revision_at IS NOT NULL AND OLD.has_revision = 1 AND substr(OLD.revision_at, 1, 10) IS substr(NEW.revision_at, 1, 10)`
      : `${cell}.has_revision = 1 AND ${cell}.revision_at IS NOT NULL`;
  const statements = [
    `INSERT INTO curation_rollup (review_status, engine_id, has_revision, filter_key, ${rollupColumns.join(', ')})
     SELECT ${cell}.review_status, ${cell}.engine_id, ${cell}.has_revision, f.key, ${signed(pageValues, how).join(', ')}
     FROM curation_filter_keys f WHERE ${where}
     ON CONFLICT (review_status, engine_id, has_revision, filter_key) DO UPDATE SET ${addUp(rollupColumns)};`,
    `INSERT INTO curation_rollup_days (review_status, engine_id, filter_key, day, pages, score_micro)
     SELECT ${cell}.review_status, ${cell}.engine_id, f.key, substr(${cell}.revision_at, 1, 10), ${how === 'delta' ? '0' : how === 'add' ? '1' : '-1'},
            ${signed(days, how)[0]}
     FROM curation_filter_keys f WHERE ${dayWhere} AND ${where}
     ON CONFLICT (review_status, engine_id, filter_key, day) DO UPDATE SET ${addUp(['pages', 'score_micro'])};`,
  ];
  if (how !== 'delta') return statements;
  // A delta keeps a page on its day; a page whose day (or correctedness) changed leaves the old day and joins the new.
  const moved = `NOT (${dayWhere})`;
  return [
    statements[0]!,
    statements[1]!,
    `INSERT INTO curation_rollup_days (review_status, engine_id, filter_key, day, pages, score_micro)
     SELECT OLD.review_status, OLD.engine_id, f.key, substr(OLD.revision_at, 1, 10), -1, -${micro('OLD.score')}
     FROM curation_filter_keys f WHERE ${moved} AND OLD.has_revision = 1 AND OLD.revision_at IS NOT NULL AND ${where}
     ON CONFLICT (review_status, engine_id, filter_key, day) DO UPDATE SET ${addUp(['pages', 'score_micro'])};`,
    `INSERT INTO curation_rollup_days (review_status, engine_id, filter_key, day, pages, score_micro)
     SELECT NEW.review_status, NEW.engine_id, f.key, substr(NEW.revision_at, 1, 10), 1, ${micro('NEW.score')}
     FROM curation_filter_keys f WHERE ${moved} AND NEW.has_revision = 1 AND NEW.revision_at IS NOT NULL AND ${where}
     ON CONFLICT (review_status, engine_id, filter_key, day) DO UPDATE SET ${addUp(['pages', 'score_micro'])};`,
  ];
}

const kindColumns = ['pages', 'pages_changed', 'elements', 'chars', 'changed_chars', 'inserted_chars'];

/** What kinds row K adds to curation_rollup_kinds's columns. */
const kindValues = (row: string): string[] => [
  '1',
  `(${row}.changed_chars > 0)`,
  `${row}.elements`,
  `${row}.chars`,
  `${row}.changed_chars`,
  `${row}.inserted_chars`,
];

const kindsUpsert = (select: string) =>
  `INSERT INTO curation_rollup_kinds (review_status, engine_id, has_revision, filter_key, kind, ${kindColumns.join(', ')})
     ${select}
     ON CONFLICT (review_status, engine_id, has_revision, filter_key, kind) DO UPDATE SET ${addUp(kindColumns)};`;

/** A kinds row change (NEW added, OLD subtracted, or the difference) under its page's current cell and keys. */
const kindsRowStatement = (how: 'add' | 'subtract' | 'delta') => {
  const row = how === 'subtract' ? 'OLD' : 'NEW';
  return kindsUpsert(
    `SELECT c.review_status, c.engine_id, c.has_revision, f.key, ${row}.kind, ${signed(kindValues, how).join(', ')}
     FROM page_checks c JOIN curation_filter_keys f ON ${keysOf('c')} WHERE c.page_id = ${row}.page_id`,
  );
};

/** The page's kinds rows leave the keys (and cell) of OLD that NEW lacks and join those of NEW that OLD lacks. */
const pageKindsStatements = () => [
  kindsUpsert(
    `SELECT OLD.review_status, OLD.engine_id, OLD.has_revision, f.key, k.kind, ${kindValues('k').map((v) => `-(${v})`).join(', ')}
     FROM page_check_kinds k JOIN curation_filter_keys f ON ${keysOf('OLD')} AND NOT (${sameCell} AND ${keysOf('NEW')})
     WHERE k.page_id = OLD.page_id`,
  ),
  kindsUpsert(
    `SELECT NEW.review_status, NEW.engine_id, NEW.has_revision, f.key, k.kind, ${kindValues('k').join(', ')}
     FROM page_check_kinds k JOIN curation_filter_keys f ON ${keysOf('NEW')} AND NOT (${sameCell} AND ${keysOf('OLD')})
     WHERE k.page_id = NEW.page_id`,
  ),
];

const pageChanged = [
  'review_status', 'engine_id', 'has_revision', 'kinds_mask', 'changed_kinds_mask', 'score', 'text_score', 'structure_score',
  'repetition_score', ...nullableChecks, 'revision_at',
]
  .map((c) => `OLD.${c} IS NOT NEW.${c}`)
  .join(' OR ');

const cellChanged = ['review_status', 'engine_id', 'has_revision', 'kinds_mask', 'changed_kinds_mask']
  .map((c) => `OLD.${c} IS NOT NEW.${c}`)
  .join(' OR ');

export const curationRollupsSchema: Migration = {
  version: 3,
  name: 'curation_rollups',
  statements: [
    // Check rows without inserted_chars would give wrong change rates: recomputed on demand (recomputeMissing).
    `DROP TABLE page_check_kinds`,
    `DELETE FROM page_checks`,
    // Keyed by page first: every reader and writer now goes by page (a save rewrites its page's rows, the queue shows
    // a slice's pages); "pages with a kind" is answered by the rollups and the kind masks.
    `CREATE TABLE page_check_kinds (
       page_id TEXT NOT NULL REFERENCES page_checks(page_id) ON DELETE CASCADE,
       kind TEXT NOT NULL,
       elements INTEGER NOT NULL,
       chars INTEGER NOT NULL,
       changed_chars INTEGER NOT NULL,
       inserted_chars INTEGER NOT NULL,
       PRIMARY KEY (page_id, kind)
     ) WITHOUT ROWID`,
    `CREATE TABLE curation_filter_keys (
       key TEXT PRIMARY KEY,
       has_bit INTEGER NOT NULL,
       changed_bit INTEGER NOT NULL
     ) WITHOUT ROWID`,
    `INSERT INTO curation_filter_keys (key, has_bit, changed_bit) VALUES ('', 0, 0), ${kinds
      .flatMap((kind, bit) => [`('has:${kind}', ${1 << bit}, 0)`, `('changed:${kind}', 0, ${1 << bit})`])
      .join(', ')}`,
    `CREATE TABLE curation_rollup (
       review_status TEXT NOT NULL,
       engine_id TEXT NOT NULL,
       has_revision INTEGER NOT NULL,
       filter_key TEXT NOT NULL,
       ${rollupColumns.map((c) => `${c} INTEGER NOT NULL`).join(',\n       ')},
       PRIMARY KEY (review_status, engine_id, has_revision, filter_key)
     ) WITHOUT ROWID`,
    `CREATE TABLE curation_rollup_days (
       review_status TEXT NOT NULL,
       engine_id TEXT NOT NULL,
       filter_key TEXT NOT NULL,
       day TEXT NOT NULL,
       pages INTEGER NOT NULL,
       score_micro INTEGER NOT NULL,
       PRIMARY KEY (review_status, engine_id, filter_key, day)
     ) WITHOUT ROWID`,
    `CREATE TABLE curation_rollup_kinds (
       review_status TEXT NOT NULL,
       engine_id TEXT NOT NULL,
       has_revision INTEGER NOT NULL,
       filter_key TEXT NOT NULL,
       kind TEXT NOT NULL,
       ${kindColumns.map((c) => `${c} INTEGER NOT NULL`).join(',\n       ')},
       PRIMARY KEY (review_status, engine_id, has_revision, filter_key, kind)
     ) WITHOUT ROWID`,
    `CREATE TRIGGER curation_rollup_page_insert AFTER INSERT ON page_checks BEGIN
       ${pageStatements('add', 'NEW', keysOf('NEW')).join('\n       ')}
     END`,
    // Before the row goes: its kinds rows are deleted first, so their trigger still finds the page's cell.
    `CREATE TRIGGER curation_rollup_page_delete BEFORE DELETE ON page_checks BEGIN
       DELETE FROM page_check_kinds WHERE page_id = OLD.page_id;
       ${pageStatements('subtract', 'OLD', keysOf('OLD')).join('\n       ')}
     END`,
    // Not when a recomputation only rewrote computed_at and the results (the same scores, cell and day).
    `CREATE TRIGGER curation_rollup_page_update AFTER UPDATE ON page_checks WHEN ${pageChanged} BEGIN
       ${updateParts().flatMap((part) => pageStatements(part.how, part.cell, part.where)).join('\n       ')}
     END`,
    // The page moved to another cell or key (review status, engine, first revision, kinds): so do its kinds rows.
    `CREATE TRIGGER curation_rollup_page_cell AFTER UPDATE ON page_checks WHEN ${cellChanged} BEGIN
       ${pageKindsStatements().join('\n       ')}
     END`,
    `CREATE TRIGGER curation_rollup_kind_insert AFTER INSERT ON page_check_kinds BEGIN
       ${kindsRowStatement('add')}
     END`,
    `CREATE TRIGGER curation_rollup_kind_delete AFTER DELETE ON page_check_kinds BEGIN
       ${kindsRowStatement('subtract')}
     END`,
    `CREATE TRIGGER curation_rollup_kind_update AFTER UPDATE ON page_check_kinds BEGIN
       ${kindsRowStatement('delta')}
     END`,
  ],
};
