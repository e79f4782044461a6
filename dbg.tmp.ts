import { readFileSync } from 'node:fs';
import { runPageChecks } from './app/checks/index.js';
import { teds } from './app/checks/teds.js';
const dir = '/work/shared/testdata/olmocr/olmocr/bench/sample_data/olmocr_pipeline/';
for (const f of ['discoverworld_crazy_table4_pg1_repeat1.md', 'math_2503_04086_pg1_repeat1.md', 'lincoln_letter_pg1_repeat1.md']) {
  const md = readFileSync(dir + f, 'utf8');
  const edited = md.replace(/0\.8/g, '0.9').replace(/the/g, 'teh');
  const times: number[] = [];
  let r;
  for (let i = 0; i < 20; i++) { const t = performance.now(); r = runPageChecks(md, edited); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(f, md.length, 'chars; p50', times[10].toFixed(1), 'ms p95', times[18].toFixed(1), 'ms; combined', r!.combined.score.toFixed(3), JSON.stringify(r!.tables));
}
const big = (rows: number, cols: number, v: string) => `<table>${Array.from({length: rows}, (_, r) => `<tr>${Array.from({length: cols}, (_, c) => `<td>${v}${r}-${c}</td>`).join('')}</tr>`).join('')}</table>`;
let t = performance.now(); const s = teds(big(200, 10, 'a'), big(190, 10, 'b')); console.log('TEDS 200x10 vs 190x10', s.toFixed(3), (performance.now() - t).toFixed(0), 'ms');
