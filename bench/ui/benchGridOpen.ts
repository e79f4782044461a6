/**
 * `npm run bench:grid [-- --json FILE] [-- --runs N]`: opening a table in the grid editor, in the real app (browser
 * shell, built renderer, Debian's Chromium).
 *
 * - grid_open_p95_ms: from the cursor entering a 50-row × 6-column HTML table (header row, a merged cell) to the grid
 *   on screen: the grid's 50 rows committed to the DOM, then the next animation frame (what the analyst sees).
 * - baseline, in the same run: the same for a 5-row table of the same shape; the ratio says what the 45 more rows cost.
 * - grid_parse_p95_ms: the pure part (locating the table in the page's Markdown and parsing it into the grid) in Node.
 *
 * Run after `npm run build`. Needs Chromium (/usr/bin/chromium or RECTO_CHROMIUM). The figure joins bench:ui.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { locateTables, parseHtmlTable } from '../../app/tables/index.js';
import { launchChromium } from '../../e2e/support/chromium.js';
import { repoRoot } from '../../e2e/support/paths.js';
import { createProjectThroughWelcome, openPage, replaceEditorText, waitForPagesRead } from '../../e2e/support/reviewPage.js';
import { makeHome, startRecto } from '../../e2e/support/rectoServer.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, runs: { type: 'string' } } });
const runs = Number(values.runs ?? 30);
/** Openings before measuring: the first ones include JIT and layout warm-up. */
const warmup = 5;

/** An invoice-style table: a header row, `rows` body rows, a merged "subtotal" cell at the foot. */
function invoiceTable(rows: number): string {
  const lines = ['<table>', '<thead>', '<tr><th>Item</th><th>Description</th><th>Qty</th><th>Unit</th><th>Unit price</th><th>Amount</th></tr>', '</thead>', '<tbody>'];
  for (let i = 1; i < rows; i++) {
    const qty = (i % 7) + 1;
    const price = ((i * 37) % 500) / 10 + 1;
    lines.push(`<tr><td>${1000 + i}</td><td>Part ${i} — steel bracket, zinc plated</td><td>${qty}</td><td>pcs</td><td>&#36;${price.toFixed(2)}</td><td>&#36;${(qty * price).toFixed(2)}</td></tr>`);
  }
  lines.push('<tr><td colspan="5">Subtotal</td><td>&#36;0.00</td></tr>', '</tbody>', '</table>');
  return lines.join('\n');
}

const quantile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

const large = invoiceTable(50);
const small = invoiceTable(5);
const markdown = `# Bench invoice\n\nText before the tables.\n\n${small}\n\nBetween the tables.\n\n${large}\n\nAfter the tables.\n`;

// ---- the pure part, in Node ----
const parseTimes: number[] = [];
for (let i = 0; i < runs + warmup; i++) {
  const start = performance.now();
  const location = locateTables(markdown).find((t) => markdown.slice(...t.range) === large)!;
  const table = parseHtmlTable(markdown.slice(...location.range));
  if (!table || table.rowCount !== 51) throw new Error('the bench table did not parse as 51 rows');
  if (i >= warmup) parseTimes.push(performance.now() - start);
}

// ---- the app ----
const home = makeHome();
const recto = await startRecto({ home });
const browser = await launchChromium();
const rows: [string, string][] = [];
const figures: Record<string, number> = {};
try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.goto(recto.url);
  await createProjectThroughWelcome(page, path.join(home, 'bench.recto'));
  await page.getByTestId('import-input').setInputFiles(path.join(repoRoot, 'resources', 'samples', 'northwind-invoice.pdf'));
  await waitForPagesRead(page, 1);
  await openPage(page, 'northwind-invoice.pdf');
  await replaceEditorText(page, markdown);
  // tsx (esbuild, keepNames) wraps named functions in __name(); the page has no such helper.
  await page.evaluate('window.__name = (fn) => fn');

  const openTimes = async (table: string, bodyRows: number): Promise<{ commit: number[]; frame: number[] }> => {
    const inside = markdown.indexOf(table) + 10;
    const outside = markdown.indexOf('Text before');
    const commit: number[] = [];
    const frame: number[] = [];
    for (let i = 0; i < runs + warmup; i++) {
      const times = await page.evaluate(
        async ({ inside, outside, rowCount }) => {
          type Editor = { getModel(): { getPositionAt(o: number): unknown }; setPosition(p: unknown): void };
          const editor = (window as unknown as { __rectoEditor: Editor }).__rectoEditor;
          const gridRows = () => document.querySelectorAll('[data-testid="grid-table"] tbody tr').length;
          const waitUntil = (done: () => boolean) =>
            new Promise<void>((resolve) => {
              if (done()) return resolve();
              const observer = new MutationObserver(() => {
                if (done()) {
                  observer.disconnect();
                  resolve();
                }
              });
              observer.observe(document.body, { childList: true, subtree: true });
            });
          editor.setPosition(editor.getModel().getPositionAt(outside));
          await waitUntil(() => gridRows() === 0);
          await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
          const start = performance.now();
          editor.setPosition(editor.getModel().getPositionAt(inside));
          await waitUntil(() => gridRows() === rowCount);
          const committed = performance.now() - start;
          await new Promise((resolve) => requestAnimationFrame(resolve));
          return { committed, painted: performance.now() - start };
        },
        { inside, outside, rowCount: bodyRows },
      );
      if (i >= warmup) {
        commit.push(times.committed);
        frame.push(times.painted);
      }
    }
    return { commit, frame };
  };

  const big = await openTimes(large, 51);
  const base = await openTimes(small, 6);
  figures['grid_open_p95_ms'] = quantile(big.frame, 0.95);
  figures['grid_open_p50_ms'] = quantile(big.frame, 0.5);
  figures['grid_open_commit_p95_ms'] = quantile(big.commit, 0.95);
  figures['grid_open_5_rows_p95_ms'] = quantile(base.frame, 0.95);
  figures['grid_open_5_rows_p50_ms'] = quantile(base.frame, 0.5);
  figures['grid_open_ratio_50_vs_5_rows'] = figures['grid_open_p95_ms'] / figures['grid_open_5_rows_p95_ms'];
  figures['grid_parse_p95_ms'] = quantile(parseTimes, 0.95);
  figures['grid_parse_p50_ms'] = quantile(parseTimes, 0.5);
  figures['load_average_1min'] = os.loadavg()[0]!;
  rows.push(
    ['grid open, 50 rows × 6 columns: p50 / p95 to the next frame (ms)', `${figures['grid_open_p50_ms'].toFixed(1)} / ${figures['grid_open_p95_ms'].toFixed(1)}`],
    ['grid open, 50 rows: p95 to DOM commit (ms)', figures['grid_open_commit_p95_ms'].toFixed(1)],
    ['baseline: grid open, 5 rows × 6 columns: p50 / p95 to the next frame (ms)', `${figures['grid_open_5_rows_p50_ms'].toFixed(1)} / ${figures['grid_open_5_rows_p95_ms'].toFixed(1)}`],
    ['ratio 50 rows / 5 rows (p95)', `${figures['grid_open_ratio_50_vs_5_rows'].toFixed(2)}×`],
    ['locate + parse the 50-row table in Node: p50 / p95 (ms)', `${figures['grid_parse_p50_ms'].toFixed(2)} / ${figures['grid_parse_p95_ms'].toFixed(2)}`],
    ['target: grid_open_p95_ms ≤ 100', figures['grid_open_p95_ms'] <= 100 ? 'met' : 'NOT met'],
    // Timings on a shared machine are mostly waiting for a core: say how busy it was.
    ['load average (1 min) / CPU cores', `${os.loadavg()[0]!.toFixed(1)} / ${os.cpus().length}`],
  );
} finally {
  await browser.close();
  await recto.stop();
  fs.rmSync(home, { recursive: true, force: true });
}

const width = Math.max(...rows.map(([label]) => label.length));
console.log(`Grid editor (${runs} openings each, after ${warmup} warm-up)`);
for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
if (values.json) {
  fs.writeFileSync(values.json, JSON.stringify({ bench: 'grid', runs, figures }, null, 2) + '\n');
  console.log(`wrote ${values.json}`);
}
