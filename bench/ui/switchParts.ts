/**
 * `npx tsx bench/ui/switchParts.ts [--samples 60] [--load N] [--pace MS]`: bench:ui's page switch with its three parts
 * timed apart — the new text in the editor, the invoice number in the fields panel, the image loaded — to say which
 * one the slowest switches waited for. `--pace`: ms before each Alt+↓ (0, the default: a held key); `--load N`: N busy
 * threads throughout (cpuBurner.ts). Needs `npm run build`.
 */
import { parseArgs } from 'node:util';
import { openBenchPage, startBenchApp } from './benchApp.js';
import { startCpuBurner } from './cpuBurner.js';
import { pauseBeforeInput } from './userPace.js';

const { values } = parseArgs({ options: { samples: { type: 'string' }, load: { type: 'string' }, pace: { type: 'string' } } });
const samples = Number(values.samples ?? 60);
const load = Number(values.load ?? 0);
const pace = Number(values.pace ?? 0);
const WARM_UP_SAMPLES = 2;

/** One switch in the page: [total, text, fields, image] ms after the key (-1: not within 10 s). */
const oneSwitch = `(async () => {
  const editor = window.__rectoEditor;
  const before = editor.getValue().match(/INV-\\d+/)?.[0] ?? '';
  const imageBefore = document.querySelector('[data-testid="page-image"]')?.src ?? '';
  let text = -1, fields = -1, image = -1;
  const start = performance.now();
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', altKey: true, bubbles: true, cancelable: true }));
  for (;;) {
    const t = performance.now() - start;
    const now = editor.getValue().match(/INV-\\d+/)?.[0] ?? '';
    const fresh = now !== before && now !== '';
    if (text < 0 && fresh) text = t;
    const field = document.querySelector('.fields-panel [data-field="invoice_number"]')?.textContent ?? '';
    if (fields < 0 && fresh && field.includes(now)) fields = t;
    const shown = document.querySelector('[data-testid="page-image"]');
    if (image < 0 && shown && shown.src !== imageBefore && shown.complete && shown.naturalWidth > 0) image = t;
    if (text >= 0 && fields >= 0 && image >= 0) return [Math.max(text, fields, image), text, fields, image];
    if (t > 10000) return [-1, text, fields, image];
    await new Promise((r) => setTimeout(r, 1));
  }
})()`;

const app = await startBenchApp(Math.max(200, samples + WARM_UP_SAMPLES + 10));
const burner = load > 0 ? startCpuBurner(load) : null;
try {
  const page = await openBenchPage(app);
  burner?.set(true);
  const rows: number[][] = [];
  for (let i = 0; i < samples + WARM_UP_SAMPLES; i++) {
    await pauseBeforeInput(page, pace);
    const row = (await page.evaluate(oneSwitch)) as number[];
    if (i >= WARM_UP_SAMPLES) rows.push(row);
  }
  const quantile = (column: number, q: number) => {
    const sorted = rows.map((r) => r[column]!).sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  };
  console.log(`${samples} page switches, ${pace} ms before each Alt+↓, +${load} busy threads`);
  console.log(['part', 'p50 ms', 'p95 ms'].join('\t'));
  ['switch', 'text', 'fields', 'image'].forEach((part, column) => console.log([part, quantile(column, 0.5), quantile(column, 0.95)].join('\t')));
  console.log('slowest switches: total / text / fields / image ms');
  for (const row of [...rows].sort((a, b) => b[0]! - a[0]!).slice(0, 6)) console.log(row.map((ms) => ms.toFixed(0)).join(' / '));
} finally {
  await burner?.stop();
  await app.close();
}
