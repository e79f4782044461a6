/**
 * `npm run bench:reward [-- --json FILE] [--pairs N]`: how fast the reward scores 1-page pairs, for a rollout loop.
 *
 * Pairs are made from the sample invoices' known page text (resources/samples/*.truth.json) with an HTML table of
 * their line items added: the reference is the page, the prediction the same page with deterministic damage (words
 * dropped, digits changed, a table cell merged away, a repeated line), the errors a reading model makes. Three
 * figures in one run: the text term alone (edit distance — the baseline every reward pays), the full reward in
 * process, and `recto reward --jsonl` through a child process (parsing and I/O included). Ratios are against the
 * baseline.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { reward } from '../../app/checks/reward.js';
import { readingOrderDistance } from '../../app/checks/textDistance.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const samples = path.join(root, 'resources', 'samples');

/** A small deterministic generator, so every run scores the same pairs. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function pageOf(truth: { text: string }): string {
  const lines = truth.text.split('\n');
  const rows = lines.filter((line) => /\d+[.,]\d{2}\s*$/.test(line)).slice(0, 8);
  const table = `<table><tr><th>Description</th><th>Amount</th></tr>${rows
    .map((row) => {
      const cut = row.lastIndexOf(' ');
      return `<tr><td>${row.slice(0, cut)}</td><td>${row.slice(cut + 1)}</td></tr>`;
    })
    .join('')}</table>`;
  return `${lines.filter((line) => !rows.includes(line)).join('\n\n')}\n\n${table}\n`;
}

function damaged(page: string, random: () => number): string {
  const words = page.split(' ');
  const out = words
    .filter(() => random() > 0.03)
    .map((word) => (random() < 0.03 ? word.replace(/\d/g, (d) => String((Number(d) + 1) % 10)) : word));
  let text = out.join(' ');
  if (random() < 0.3) text = text.replace(/<\/td><td>/, ' ');
  if (random() < 0.1) text += `\n${'Total due '.repeat(20)}`;
  return text;
}

export function makePairs(count: number): { ref: string; pred: string }[] {
  const pages = fs
    .readdirSync(samples)
    .filter((name) => name.endsWith('.truth.json'))
    .sort()
    .map((name) => pageOf(JSON.parse(fs.readFileSync(path.join(samples, name), 'utf8')) as { text: string }));
  const random = lcg(7);
  return Array.from({ length: count }, (_, i) => {
    const ref = pages[i % pages.length]!;
    return { ref, pred: damaged(ref, random) };
  });
}

function pairsPerSecond(pairs: readonly { ref: string; pred: string }[], score: (ref: string, pred: string) => unknown): number {
  for (const pair of pairs.slice(0, 10)) score(pair.ref, pair.pred); // warm-up (JIT, KaTeX)
  const start = process.hrtime.bigint();
  for (const pair of pairs) score(pair.ref, pair.pred);
  return pairs.length / (Number(process.hrtime.bigint() - start) / 1e9);
}

/**
 * `recto reward --jsonl` in a child process. The clock starts when the answer to a first warm-up pair arrives (so
 * start-up is not counted) and stops at the last answer.
 */
async function cliPairsPerSecond(pairs: readonly { ref: string; pred: string }[]): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'main', 'cli', 'recto.ts'), 'reward', '--jsonl'], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let answered = 0;
    let start = 0n;
    let seconds = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      const before = answered;
      answered += chunk.toString().split('\n').length - 1;
      if (before === 0 && answered >= 1) {
        start = process.hrtime.bigint();
        child.stdin.end(`${pairs.map((pair) => JSON.stringify(pair)).join('\n')}\n`);
      }
      if (answered === pairs.length + 1) seconds = Number(process.hrtime.bigint() - start) / 1e9;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || answered !== pairs.length + 1) reject(new Error(`recto reward exited ${code} after ${answered} answers`));
      else resolve(pairs.length / seconds);
    });
    child.stdin.write(`${JSON.stringify(pairs[0])}\n`);
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { json: { type: 'string' }, pairs: { type: 'string' } } });
  const pairs = makePairs(Number(values.pairs ?? 400));
  const baseline = pairsPerSecond(pairs, (ref, pred) => readingOrderDistance(pred, ref));
  const library = pairsPerSecond(pairs, (ref, pred) => reward(ref, pred));
  const cli = await cliPairsPerSecond(pairs);
  const meanChars = pairs.reduce((sum, pair) => sum + pair.ref.length, 0) / pairs.length;
  const report = {
    pairs: pairs.length,
    mean_reference_chars: Math.round(meanChars),
    text_term_pairs_per_s: Math.round(baseline),
    reward_pairs_per_s: Math.round(library),
    reward_cli_jsonl_pairs_per_s: Math.round(cli),
    reward_vs_text_term: Number((library / baseline).toFixed(3)),
  };
  console.table([
    { measure: 'text term only (baseline)', 'pairs/s': report.text_term_pairs_per_s, ratio: 1 },
    { measure: 'reward (library)', 'pairs/s': report.reward_pairs_per_s, ratio: report.reward_vs_text_term },
    {
      measure: 'recto reward --jsonl (child process)',
      'pairs/s': report.reward_cli_jsonl_pairs_per_s,
      ratio: Number((cli / baseline).toFixed(3)),
    },
  ]);
  console.log(`${report.pairs} pairs, ${report.mean_reference_chars} reference characters on average`);
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
}

await main();
