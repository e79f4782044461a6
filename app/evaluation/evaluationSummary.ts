/**
 * The figures of an engine evaluation, from one row per (engine, page): what share of the analyst's pages an engine
 * reads well enough (combined check score ≥ threshold), how long it takes end to end, and what an accepted page
 * costs. Pure, so the CLI's report and the app's Evaluate view compute the same numbers.
 */
import type { PageScoreTerms } from '../checks/pageScore.js';
import type { EngineSummary, EvaluationSummary } from '../contract/evaluation.js';

export type { EngineSummary, EvaluationSummary } from '../contract/evaluation.js';

export type TermName = keyof PageScoreTerms;

/** One engine's reading of one reference page, scored against the analyst's final text. */
export interface PageEvaluation {
  /** The engine as the user named it: `bundled`, `pack:DIR`, `remote:URL`. */
  engine: string;
  engineName: string;
  engineVersion: string;
  pageId: string;
  documentId: string;
  documentName: string;
  pageNumber: number;
  /** SHA-256 of the reference text the page was scored against (a changed correction is scored again). */
  referenceSha256: string;
  /** Wall-clock seconds of the reading, retries included. */
  seconds: number;
  /** Why the engine produced nothing for this page; the page then counts as not accepted, with score 0. */
  error: string | null;
  score: number;
  /** The combined score's terms after their floors (those that apply to the page). */
  terms: Partial<Record<TermName, number>>;
  /**
   * The same checks before their floors (absent in rows written before it was kept): what a check measured. A format
   * check of 0 is multiplied as 0.2, but its mean and a page's "why" must say 0.
   */
  raw?: Partial<Record<TermName, number>>;
  /** Characters of each element kind in the engine's reading and how many of them the reference changes. */
  kinds: { kind: string; chars: number; changedChars: number }[];
}

/** How many worst pages each engine lists. */
const worstListed = 5;

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
const round = (value: number, digits = 4): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** What each check measured on the page: its raw values where the row keeps them. */
const checksOf = (row: PageEvaluation): Partial<Record<TermName, number>> => row.raw ?? row.terms;

/** Why a page scored low: its error, or its lowest checks. */
export function whyLow(row: PageEvaluation): string {
  if (row.error) return `error: ${row.error}`;
  const low = Object.entries(checksOf(row))
    .filter(([, value]) => value < 0.95)
    .sort((a, b) => a[1] - b[1])
    .slice(0, 2)
    .map(([term, value]) => `${term} ${value.toFixed(2)}`);
  return low.length > 0 ? low.join(', ') : 'every term ≥ 0.95';
}

function engineSummary(rows: readonly PageEvaluation[], threshold: number, costPerHour: number | null): EngineSummary {
  const first = rows[0]!;
  const accepted = rows.filter((row) => row.error === null && row.score >= threshold).length;
  const seconds = rows.reduce((sum, row) => sum + row.seconds, 0);
  const terms: Partial<Record<TermName, number>> = {};
  const termNames = [...new Set(rows.flatMap((row) => Object.keys(checksOf(row)) as TermName[]))].sort();
  for (const term of termNames) {
    terms[term] = round(mean(rows.flatMap((row) => (checksOf(row)[term] === undefined ? [] : [checksOf(row)[term]!]))));
  }
  const documents = new Map<string, PageEvaluation[]>();
  for (const row of rows) documents.set(row.documentId, [...(documents.get(row.documentId) ?? []), row]);
  const kinds = new Map<string, { chars: number; changed: number }>();
  for (const row of rows) {
    for (const kind of row.kinds) {
      const total = kinds.get(kind.kind) ?? { chars: 0, changed: 0 };
      total.chars += kind.chars;
      total.changed += kind.changedChars;
      kinds.set(kind.kind, total);
    }
  }
  return {
    engine: first.engine,
    engineName: first.engineName,
    engineVersion: first.engineVersion,
    pages: rows.length,
    errors: rows.filter((row) => row.error !== null).length,
    accepted,
    accepted_share: round(accepted / rows.length),
    mean_score: round(mean(rows.map((row) => row.score))),
    terms,
    seconds_per_page: round(seconds / rows.length, 3),
    cost_per_accepted_page: costPerHour === null ? null : accepted === 0 ? null : round(((seconds / 3600) * costPerHour) / accepted, 6),
    worst: [...rows]
      .sort((a, b) => a.score - b.score || a.documentName.localeCompare(b.documentName) || a.pageNumber - b.pageNumber)
      .slice(0, worstListed)
      .map((row) => ({ pageId: row.pageId, document: row.documentName, page: row.pageNumber, score: round(row.score), why: whyLow(row) })),
    by_document: [...documents.values()]
      .map((pages) => ({
        documentId: pages[0]!.documentId,
        document: pages[0]!.documentName,
        pages: pages.length,
        accepted_share: round(pages.filter((p) => p.error === null && p.score >= threshold).length / pages.length),
        mean_score: round(mean(pages.map((p) => p.score))),
      }))
      .sort((a, b) => a.mean_score - b.mean_score || a.document.localeCompare(b.document)),
    by_kind: [...kinds.entries()]
      .map(([kind, total]) => ({
        kind,
        chars: total.chars,
        changed_chars: total.changed,
        kept_share: total.chars === 0 ? 1 : round(Math.max(0, 1 - total.changed / total.chars)),
      }))
      .sort((a, b) => a.kind.localeCompare(b.kind)),
    failures: rows
      .filter((row) => row.error !== null)
      .map((row) => ({ pageId: row.pageId, document: row.documentName, page: row.pageNumber, error: row.error! })),
  };
}

/** The latest row per (engine, page): a resumed run that scored a page again replaces the earlier row. */
export function latestEvaluationRows(rows: readonly PageEvaluation[]): PageEvaluation[] {
  const latest = new Map<string, PageEvaluation>();
  for (const row of rows) latest.set(`${row.engine}\u0000${row.pageId}`, row);
  return [...latest.values()];
}

/**
 * Per engine, in the order the engines were given. Only the latest row per (engine, page) counts, so a resumed run
 * that re-scored a page does not count it twice.
 */
export function summarizeEvaluation(
  rows: readonly PageEvaluation[],
  options: { threshold: number; costPerHour?: number | null; engines?: readonly string[] },
): EvaluationSummary {
  const byEngine = new Map<string, PageEvaluation[]>();
  for (const row of latestEvaluationRows(rows)) byEngine.set(row.engine, [...(byEngine.get(row.engine) ?? []), row]);
  const order = options.engines ?? [...byEngine.keys()];
  return {
    threshold: options.threshold,
    cost_per_hour: options.costPerHour ?? null,
    engines: order.filter((engine) => byEngine.has(engine)).map((engine) => engineSummary(byEngine.get(engine)!, options.threshold, options.costPerHour ?? null)),
  };
}
