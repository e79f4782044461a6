/**
 * `recto evaluate P.recto --out DIR [--engines bundled,pack:DIR,remote:URL] [--threshold 0.9] [--cost-per-hour X] [--limit N]
 * [--json FILE]`: every corrected or approved page of the project read again by each engine and scored against the
 * analyst's text. Writes DIR/evaluation.jsonl (one row per engine and page, appended as pages finish, so Ctrl-C or a
 * kill loses at most the page being read and the same command resumes), DIR/evaluation.json (the summary) and
 * DIR/report.html (self-contained, with charts). The project itself is only read.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type { EvaluationSummary } from '../../app/evaluation/evaluationSummary.js';
import { createEngineRegistry } from '../composition/engines.js';
import { inspectFile } from '../composition/createRectoSession.js';
import type { EngineRegistry } from '../engines/engineRegistry.js';
import { evaluateProject, NothingToEvaluateError, writeWhole } from '../evaluate/evaluateProject.js';
import type { EvaluatedEngine } from '../evaluate/runEvaluation.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { pageInputFor } from '../services/pageInputs.js';
import { defaultAppPaths } from '../settings/appPaths.js';
import { ProjectFileError, ProjectStore } from '../store/projectStore.js';

export const evaluateUsage = `  recto evaluate P.recto --out DIR [--engines bundled,pack:DIR,remote:URL] [--threshold 0.9] [--cost-per-hour X]
                 [--limit N] [--json FILE]
      Reads every corrected or approved page again with each engine (remote:URL: an OpenAI-compatible server such as
      vLLM, API key from RECTO_API_KEY) and scores it against the analyst's text:
      accepted share (score >= threshold), mean scores, seconds and cost per accepted page, the worst pages.
      Writes DIR/report.html, DIR/evaluation.json and DIR/evaluation.jsonl (a stopped run resumes).`;

type Err = NodeJS.WritableStream & { isTTY?: boolean };

export interface EngineSpec {
  key: string;
  kind: 'bundled' | 'pack' | 'remote';
  target: string | null;
}

/** `bundled`, `pack:DIR`, `remote:URL` (an OpenAI-compatible server); one entry per comma. */
export function parseEngineSpecs(text: string): EngineSpec[] {
  const specs = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((key): EngineSpec => {
      if (key === 'bundled') return { key, kind: 'bundled', target: null };
      const pack = key.match(/^pack:(.+)$/);
      if (pack) return { key, kind: 'pack', target: path.resolve(pack[1]!) };
      const remote = /^remote:(.+)$/.exec(key);
      if (remote) {
        if (!/^https?:\/\//.test(remote[1]!)) throw new Error(`--engines: "${key}": remote:URL needs an http(s) URL`);
        return { key, kind: 'remote', target: remote[1]! };
      }
      throw new Error(`--engines: "${key}" is not an engine (bundled, pack:DIR or remote:URL)`);
    });
  if (specs.length === 0) throw new Error('--engines: name at least one engine');
  if (new Set(specs.map((spec) => spec.key)).size !== specs.length) throw new Error('--engines: an engine is named twice');
  return specs;
}

/** Each spec's engine from a registry of its own (a pack or a server per registry); the API key from RECTO_API_KEY. */
function engineRegistries(specs: readonly EngineSpec[]): { registries: EngineRegistry[]; engines: EvaluatedEngine[] } {
  const registries: EngineRegistry[] = [];
  const engines = specs.map((spec): EvaluatedEngine => {
    const registry =
      spec.kind === 'pack'
        ? createEngineRegistry({ packDir: spec.target! })
        : spec.kind === 'remote'
          ? createEngineRegistry({ remote: { endpoints: [spec.target!], apiKey: process.env.RECTO_API_KEY || undefined } })
          : createEngineRegistry({});
    registries.push(registry);
    const id = spec.kind === 'pack' ? 'vlm' : spec.kind === 'remote' ? 'remote' : 'bundled';
    return { key: spec.key, engine: () => registry.get(id) };
  });
  return { registries, engines };
}

function positiveNumber(name: string, text: string | undefined, fallback: number | null): number | null {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}: not a non-negative number: ${text}`);
  return value;
}

export async function evaluateCommand(args: string[], stderr: Err, stdout: NodeJS.WritableStream): Promise<number> {
  let options: { project: string; out: string; specs: EngineSpec[]; threshold: number; costPerHour: number | null; limit?: number; json?: string };
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        engines: { type: 'string' },
        threshold: { type: 'string' },
        'cost-per-hour': { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new Error('give one project file (P.recto)');
    if (!values.out) throw new Error('--out DIR is required');
    const threshold = positiveNumber('--threshold', values.threshold, 0.9)!;
    if (threshold > 1) throw new Error(`--threshold: a score from 0 to 1, not ${values.threshold}`);
    const limit = positiveNumber('--limit', values.limit, null);
    if (limit !== null && !Number.isInteger(limit)) throw new Error(`--limit: a whole number of pages, not ${values.limit}`);
    options = {
      project: path.resolve(positionals[0]!),
      out: path.resolve(values.out),
      specs: parseEngineSpecs(values.engines ?? 'bundled'),
      threshold,
      costPerHour: positiveNumber('--cost-per-hour', values['cost-per-hour'], null),
      limit: limit ?? undefined,
      json: values.json,
    };
  } catch (error) {
    stderr.write(`recto evaluate: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }

  let store: ProjectStore;
  try {
    store = ProjectStore.open(options.project);
  } catch (error) {
    if (error instanceof ProjectFileError) {
      stderr.write(`recto evaluate: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { registries, engines } = engineRegistries(options.specs);
  const images = new PageImageCache(defaultAppPaths().cacheDir, inspectFile);
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    stderr.write('\nrecto: stopping the evaluation after this page (Ctrl-C again to quit at once); run the same command to resume\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const bar = new cliProgress.SingleBar(
    { stream: stderr, format: 'Evaluating |{bar}| {value}/{total} | {label}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 2000 },
    cliProgress.Presets.shades_classic,
  );
  try {
    let started = false;
    const result = await evaluateProject({
      store,
      engines,
      pageInput: (page) => pageInputFor(images, store, page),
      outDir: options.out,
      threshold: options.threshold,
      costPerHour: options.costPerHour,
      limit: options.limit,
      signal: controller.signal,
      onProgress: (done, total, label) => {
        if (!started) bar.start(total, done, { label });
        else bar.update(done, { label });
        started = true;
      },
    });
    bar.stop();
    if (options.json) writeWhole(path.resolve(options.json), `${JSON.stringify(result.summary, null, 2)}\n`);
    stdout.write(summaryTable(result.summary));
    if (result.cancelled) {
      stderr.write('recto evaluate: stopped; the figures cover the pages read so far — run the same command to finish\n');
      return 130;
    }
    stderr.write(`recto evaluate: ${result.readNow} page reading(s) this run; report in ${result.reportPath}\n`);
    return 0;
  } catch (error) {
    if (error instanceof NothingToEvaluateError) {
      stderr.write(`recto evaluate: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    bar.stop();
    store.close();
    await Promise.all(registries.map((registry) => registry.dispose()));
  }
}

function summaryTable(summary: EvaluationSummary): string {
  const header = ['engine', 'pages', 'accepted', 'mean score', 's/page', 'cost/accepted page'];
  const rows = summary.engines.map((e) => [
    e.engine,
    String(e.pages),
    `${(e.accepted_share * 100).toFixed(1)}%`,
    e.mean_score.toFixed(3),
    e.seconds_per_page.toFixed(2),
    e.cost_per_accepted_page === null ? '—' : e.cost_per_accepted_page.toFixed(4),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  const worst = summary.engines
    .map((e) => `${e.engine} — worst: ${e.worst.slice(0, 3).map((w) => `${w.document} p. ${w.page} (${w.score.toFixed(2)}: ${w.why})`).join('; ')}`)
    .join('\n');
  return `${line(header)}\n${rows.map(line).join('\n')}\n(threshold ${summary.threshold})\n${worst}\n`;
}
