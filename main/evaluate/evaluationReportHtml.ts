/**
 * The evaluation as one self-contained HTML file: no script, no external resource (a CSP meta tag forbids both), the
 * charts as inline SVG — score distribution per engine and accepted share against seconds per page — and the tables
 * behind them. Every name that came from a project or an engine is escaped.
 */
import type { EngineSummary, EvaluationSummary, PageEvaluation } from '../../app/evaluation/evaluationSummary.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const palette = ['#2f6db5', '#d9822b', '#3a9b5c', '#b5452f', '#7a5bb5', '#5b8fa8'];
const bins = 10;

function histogram(summary: EvaluationSummary, rows: readonly PageEvaluation[]): string {
  const width = 560;
  const height = 220;
  const pad = { left: 40, right: 10, top: 10, bottom: 30 };
  const engines = summary.engines.map((e) => e.engine);
  const counts = engines.map((engine) => {
    const scores = rows.filter((row) => row.engine === engine).map((row) => row.score);
    const out = new Array<number>(bins).fill(0);
    for (const score of scores) out[Math.min(bins - 1, Math.floor(score * bins))]! += 1;
    return out;
  });
  const max = Math.max(1, ...counts.flat());
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const binW = plotW / bins;
  const barW = (binW - 4) / Math.max(1, engines.length);
  const bars = counts
    .flatMap((perBin, e) =>
      perBin.map((count, b) => {
        const h = (count / max) * plotH;
        const x = pad.left + b * binW + 2 + e * barW;
        return `<rect x="${x.toFixed(1)}" y="${(pad.top + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${palette[e % palette.length]}"><title>${escapeHtml(engines[e]!)}: ${count} page(s) scoring ${(b / bins).toFixed(1)}–${((b + 1) / bins).toFixed(1)}</title></rect>`;
      }),
    )
    .join('');
  const ticks = Array.from({ length: bins + 1 }, (_, b) => `<text x="${pad.left + b * binW}" y="${height - 10}" text-anchor="middle">${(b / bins).toFixed(1)}</text>`).join('');
  return `<svg role="img" aria-label="Score distribution per engine" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
<line x1="${pad.left}" y1="${pad.top + plotH}" x2="${width - pad.right}" y2="${pad.top + plotH}" stroke="#888"/>
<text x="4" y="${pad.top + 10}">${max}</text><text x="4" y="${pad.top + plotH}">0</text>${bars}${ticks}</svg>`;
}

function scatter(summary: EvaluationSummary): string {
  const width = 560;
  const height = 240;
  const pad = { left: 50, right: 20, top: 10, bottom: 40 };
  const maxSeconds = Math.max(0.001, ...summary.engines.map((e) => e.seconds_per_page)) * 1.1;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const points = summary.engines
    .map((engine, i) => {
      const x = pad.left + (engine.seconds_per_page / maxSeconds) * plotW;
      const y = pad.top + (1 - engine.accepted_share) * plotH;
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="6" fill="${palette[i % palette.length]}"><title>${escapeHtml(engine.engine)}: ${(engine.accepted_share * 100).toFixed(1)}% accepted, ${engine.seconds_per_page.toFixed(2)} s/page</title></circle><text x="${(x + 9).toFixed(1)}" y="${(y + 4).toFixed(1)}">${escapeHtml(engine.engine)}</text>`;
    })
    .join('');
  return `<svg role="img" aria-label="Accepted share against seconds per page" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
<line x1="${pad.left}" y1="${pad.top + plotH}" x2="${width - pad.right}" y2="${pad.top + plotH}" stroke="#888"/>
<line x1="${pad.left}" y1="${pad.top}" x2="${pad.left}" y2="${pad.top + plotH}" stroke="#888"/>
<text x="4" y="${pad.top + 10}">100%</text><text x="4" y="${pad.top + plotH}">0%</text>
<text x="${pad.left}" y="${height - 8}">0 s</text><text x="${width - pad.right}" y="${height - 8}" text-anchor="end">${maxSeconds.toFixed(2)} s per page</text>${points}</svg>`;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function engineSection(engine: EngineSummary, index: number): string {
  const terms = Object.entries(engine.terms)
    .map(([term, value]) => `<tr><td>${escapeHtml(term)}</td><td>${value.toFixed(3)}</td></tr>`)
    .join('');
  const worst = engine.worst
    .map((w) => `<tr><td>${escapeHtml(w.document)}</td><td>${w.page}</td><td>${w.score.toFixed(3)}</td><td>${escapeHtml(w.why)}</td></tr>`)
    .join('');
  const documents = engine.by_document
    .map((d) => `<tr><td>${escapeHtml(d.document)}</td><td>${d.pages}</td><td>${percent(d.accepted_share)}</td><td>${d.mean_score.toFixed(3)}</td></tr>`)
    .join('');
  const kinds = engine.by_kind
    .map((k) => `<tr><td>${escapeHtml(k.kind)}</td><td>${k.chars}</td><td>${k.changed_chars}</td><td>${percent(k.kept_share)}</td></tr>`)
    .join('');
  const failures = engine.failures
    .map((f) => `<tr><td>${escapeHtml(f.document)}</td><td>${f.page}</td><td>${escapeHtml(f.error)}</td></tr>`)
    .join('');
  return `<section><h2><span class="swatch" style="background:${palette[index % palette.length]}"></span>${escapeHtml(engine.engine)} <small>${escapeHtml(engine.engineName)} ${escapeHtml(engine.engineVersion)}</small></h2>
<p class="figures"><b>${percent(engine.accepted_share)}</b> accepted (${engine.accepted} of ${engine.pages} pages) · mean score <b>${engine.mean_score.toFixed(3)}</b> · <b>${engine.seconds_per_page.toFixed(2)} s</b> per page${engine.cost_per_accepted_page === null ? '' : ` · <b>${engine.cost_per_accepted_page.toFixed(4)}</b> per accepted page`}${engine.errors > 0 ? ` · ${engine.errors} page(s) failed` : ''}</p>
<div class="grid"><table><caption>Mean of each check</caption><tr><th>check</th><th>mean</th></tr>${terms}</table>
<table><caption>Worst pages</caption><tr><th>document</th><th>page</th><th>score</th><th>why</th></tr>${worst}</table>
<table><caption>By document</caption><tr><th>document</th><th>pages</th><th>accepted</th><th>mean score</th></tr>${documents}</table>
<table><caption>By element kind (share of its characters the analyst left unchanged)</caption><tr><th>kind</th><th>chars</th><th>changed</th><th>kept</th></tr>${kinds}</table>
${failures ? `<table><caption>Failed pages</caption><tr><th>document</th><th>page</th><th>error</th></tr>${failures}</table>` : ''}</div></section>`;
}

export function evaluationReportHtml(summary: EvaluationSummary, rows: readonly PageEvaluation[], project: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Recto engine evaluation — ${escapeHtml(project)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1d232b;background:#fff}
@media (prefers-color-scheme: dark){body{color:#e4e8ee;background:#16191d}th{background:#232830!important}td,th{border-color:#343a44!important}}
h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:28px 0 6px} small{color:#6b7480;font-weight:normal}
.figures{margin:4px 0 10px} .charts{display:flex;flex-wrap:wrap;gap:24px} figure{margin:0} figcaption{font-weight:600;margin-bottom:4px}
svg text{font-size:11px;fill:currentColor} .grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:16px}
table{border-collapse:collapse;width:100%} caption{text-align:left;font-weight:600;padding:4px 0}
td,th{border:1px solid #d8dde3;padding:3px 6px;text-align:left;vertical-align:top} th{background:#f1f3f6}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:8px}
</style></head><body>
<h1>Engine evaluation</h1>
<p>${escapeHtml(project)} · a page is accepted when its combined check score is at least <b>${summary.threshold}</b>${summary.cost_per_hour === null ? '' : ` · compute cost ${summary.cost_per_hour} per hour`}</p>
<div class="charts"><figure><figcaption>Score distribution</figcaption>${histogram(summary, rows)}</figure>
<figure><figcaption>Accepted share against time per page</figcaption>${scatter(summary)}</figure></div>
${summary.engines.map(engineSection).join('\n')}
</body></html>
`;
}
