/**
 * `npm run bench:team [-- --users 1,5,20,50] [-- --seconds S] [-- --pace person|full|both] [-- --json FILE]`:
 * N simulated analysts (simulatedAnalyst.ts) against one `recto serve --team` in a child process, over the RPC (HTTP),
 * each with their own account (every third an approver, the first an admin) — for each N and pace:
 * - p50/p95 latency per action (a page read with its fields, a text save, a field save, an approval), client-side;
 * - saves acknowledged and saves kept: after the run the project is opened and every acknowledged revision and field
 *   revision is looked for (by id; a revision's text too) — lost = acknowledged − kept;
 * - replies by error code: `forbidden` are four-eyes refusals (an approver approving what they corrected last: the
 *   rule working), `conflict` saves (text or field) based on an older revision than the latest, anything else an error;
 * - conflicts kept: the rows revision_conflicts and field_conflicts hold after the run — each `conflict` answer must
 *   have kept what it carried (a conflict is surfaced, never a lost save).
 * A fresh project per run: 2 one-page invoices per analyst (at least 4), each analyst working on their own and, 15 %
 * of the time, on a colleague's. Also: what team mode adds to every request — the personal token's lookup (hash and
 * indexed read) among 50 accounts, in this process (µs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ProjectStore } from '../../main/store/projectStore.js';
import { packageRoot } from '../../main/util/packageRoot.js';
import { invoicePage } from '../../testing/corpusFixtures.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { runAnalyst, type Action, type AnalystRun, type Pace } from './simulatedAnalyst.js';

const { values } = parseArgs({
  options: { users: { type: 'string', default: '1,5,20,50' }, seconds: { type: 'string', default: '20' }, pace: { type: 'string', default: 'both' }, json: { type: 'string' } },
});
const USERS = values.users.split(',').map(Number);
if (USERS.some((n) => !Number.isInteger(n) || n < 1 || n > 500)) throw new Error(`--users: whole numbers from 1 to 500, not ${values.users}`);
const SECONDS = Number(values.seconds);
if (!(SECONDS > 0)) throw new Error(`--seconds: a positive number, not ${values.seconds}`);
const PACES: Pace[] = values.pace === 'both' ? ['person', 'full'] : values.pace === 'person' || values.pace === 'full' ? [values.pace] : [];
if (PACES.length === 0) throw new Error(`--pace: person, full or both, not ${values.pace}`);

const root = packageRoot();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-team-'));
const ACTIONS: Action[] = ['read', 'revisions.save', 'fields.save', 'approve'];

/** A seeded generator (mulberry32): the same choices each run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Team {
  file: string;
  analysts: { name: string; token: string; approves: boolean; own: string[] }[];
  pages: string[];
}

function makeProject(users: number, pace: Pace): Team {
  const file = path.join(home, `team-${users}-${pace}.recto`);
  const store = ProjectStore.create(file);
  try {
    const pages: string[] = [];
    for (let i = 0; i < Math.max(4, 2 * users); i += 1) {
      const name = `invoice-${i + 1}.pdf`;
      const fields = { invoice_number: `R-${1000 + i}`, issue_date: '2024-03-01', due_date: null, seller: 'ACME Supplies Ltd', buyer: 'Northwind Traders', currency: 'EUR', subtotal: 100 + i, tax: 19, total: 119 + i, lines: [{ description: 'Work', quantity: 1, unit_price: 100 + i, amount: 100 + i }] };
      pages.push(addReadDocument(store, name, invoiceReading(fields, invoicePage(i)), createHash('sha256').update(name).digest('hex')).pageId);
    }
    const analysts = Array.from({ length: users }, (_, i) => {
      const name = `analyst-${String(i + 1).padStart(2, '0')}`;
      const { account, token } = store.accounts.add(name, i % 3 === 2 ? 'approver' : 'reviewer', { name: 'bench:team' });
      return { name, token, approves: account.role !== 'reviewer', own: pages.filter((_, p) => p % users === i) };
    });
    return { file, analysts, pages };
  } finally {
    store.close();
  }
}

/** `recto serve --team` in a child process (its own event loop, as in use); resolves once it prints its URL. */
function startServer(file: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(root, 'main', 'cli', 'recto.ts'), 'serve', '--team', '--project', file], {
    env: { ...process.env, RECTO_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/#token=/.exec(out);
      if (match) resolve({ child, origin: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`recto serve exited (${code}) before it was ready:\n${out}`)));
  });
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/** Every acknowledged save looked for in the project, as a person reopening it would find it. */
function keptSaves(file: string, pages: string[], runs: AnalystRun[]): { acknowledged: number; kept: number; conflictsKept: number } {
  const store = ProjectStore.open(file);
  try {
    // Nobody chooses during the run: every kept field conflict is still open (one-page invoices: the page is the key page).
    const conflictsKept = pages.reduce((sum, pageId) => sum + store.saveConflicts.allTextConflicts(pageId).length + store.saveConflicts.openFieldConflicts(pageId).length, 0);
    const revisions = new Map<string, Map<string, string>>();
    const fields = new Map<string, Set<string>>();
    let acknowledged = 0;
    let kept = 0;
    for (const save of runs.flatMap((r) => r.acknowledged)) {
      acknowledged += 1;
      if (save.kind === 'revision') {
        if (!revisions.has(save.pageId)) revisions.set(save.pageId, new Map(store.revisions.listRevisions(save.pageId).map((r) => [r.id, r.text])));
        if (revisions.get(save.pageId)!.get(save.id) === save.text) kept += 1;
      } else {
        if (!fields.has(save.pageId)) fields.set(save.pageId, new Set(store.fieldRevisions.list(save.pageId).map((r) => r.id)));
        if (fields.get(save.pageId)!.has(save.id)) kept += 1;
      }
    }
    return { acknowledged, kept, conflictsKept };
  } finally {
    store.close();
  }
}

interface Figures {
  users: number;
  pace: Pace;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: Record<Action, { count: number; p50: number; p95: number }>;
  savesAcknowledged: number;
  savesKept: number;
  savesLost: number;
  fourEyesRefusals: number;
  conflicts: number;
  conflictsKept: number;
  errors: Record<string, number>;
}

async function benchOne(users: number, pace: Pace): Promise<Figures> {
  const team = makeProject(users, pace);
  const server = await startServer(team.file);
  try {
    const start = performance.now();
    const until = start + SECONDS * 1000;
    const runs = await Promise.all(
      team.analysts.map((a, i) => runAnalyst({ origin: server.origin, token: a.token, name: a.name, approves: a.approves, own: a.own, all: team.pages, pace, until, random: seeded(1000 * users + i) })),
    );
    const elapsed = (performance.now() - start) / 1000;
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    const { acknowledged, kept, conflictsKept } = keptSaves(team.file, team.pages, runs);
    const errors: Record<string, number> = {};
    for (const run of runs) for (const [code, n] of run.errors) errors[code] = (errors[code] ?? 0) + n;
    const { forbidden = 0, conflict = 0, ...others } = errors;
    const requests = runs.reduce((sum, r) => sum + r.requests, 0);
    return {
      users,
      pace,
      seconds: elapsed,
      requests,
      requestsPerSecond: requests / elapsed,
      latencyMs: Object.fromEntries(ACTIONS.map((action) => {
        const xs = runs.flatMap((r) => r.latencies[action]);
        return [action, { count: xs.length, p50: quantile(xs, 0.5), p95: quantile(xs, 0.95) }];
      })) as Figures['latencyMs'],
      savesAcknowledged: acknowledged,
      savesKept: kept,
      savesLost: acknowledged - kept,
      fourEyesRefusals: forbidden,
      conflicts: conflict,
      conflictsKept,
      errors: others,
    };
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
}

/** The personal token's lookup that every team-mode request makes, among 50 accounts (µs, median of 5 × 10,000). */
function tokenLookupMicros(): number {
  const store = ProjectStore.create(path.join(home, 'lookup.recto'));
  try {
    const tokens = Array.from({ length: 50 }, (_, i) => store.accounts.add(`person-${i}`, 'reviewer', { name: 'bench:team' }).token);
    const rounds = Array.from({ length: 5 }, () => {
      const start = performance.now();
      for (let i = 0; i < 10_000; i += 1) store.accounts.byToken(tokens[i % 50]!);
      return ((performance.now() - start) / 10_000) * 1000;
    });
    return quantile(rounds, 0.5);
  } finally {
    store.close();
  }
}

const results: Figures[] = [];
try {
  const lookup = tokenLookupMicros();
  process.stdout.write(`team mode's cost per request: token lookup ${lookup.toFixed(1)} µs\n`);
  for (const users of USERS) {
    for (const pace of PACES) {
      const figures = await benchOne(users, pace);
      results.push(figures);
      const l = figures.latencyMs;
      const ms = (a: Action) => (l[a].count ? `${l[a].p50.toFixed(1)}/${l[a].p95.toFixed(1)}` : '—');
      const errors = Object.entries(figures.errors).map(([code, n]) => `${code} ${n}`).join(', ') || 'none';
      process.stdout.write(
        `users ${String(users).padStart(3)} ${pace.padEnd(6)} | ${figures.requestsPerSecond.toFixed(0).padStart(4)} req/s | p50/p95 ms: save ${ms('revisions.save')}, field ${ms('fields.save')}, read ${ms('read')}, approve ${ms('approve')} | saves ${figures.savesAcknowledged} acked, ${figures.savesKept} kept, ${figures.savesLost} lost | four-eyes ${figures.fourEyesRefusals}, conflicts ${figures.conflicts} (${figures.conflictsKept} kept) | errors: ${errors}\n`,
      );
    }
  }
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  process.stdout.write(`(${os.cpus().length} cores; load average ${load}: other work on this machine counts in these latencies)\n`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ cores: os.cpus().length, loadAverage: os.loadavg(), secondsPerRun: SECONDS, tokenLookupMicros: lookup, results }, null, 2));
} finally {
  fs.rmSync(home, { recursive: true, force: true });
}
