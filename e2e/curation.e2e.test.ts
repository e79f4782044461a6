/**
 * The curation loop in the browser shell: a correction made in Review shows up in the curation queue with a score
 * below 1, the three summary charts draw, a row leads back to its page, a score range narrows the queue, and the
 * corpus leaves through the export dialog (a non-empty foreign folder is refused, nothing written).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { curationRows, exportFromUi, openCuration, waitForCorrectedRow } from './support/curationPage.js';
import { artifactsDir } from './support/paths.js';
import { editorText, openPage, replaceEditorText, waitForPagesRead } from './support/reviewPage.js';
import { makeHome, startRecto, type RunningRecto } from './support/rectoServer.js';

const correctedDocument = 'northwind-invoice.pdf';
const addedLine = 'Corrected by the curation e2e test: payment terms 30 days net.';

describe('curation view and corpus export from the UI', () => {
  let browser: Browser;
  let recto: RunningRecto;
  let page: Page;
  let correctedPageId = '';
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-e2e-corpus-'));

  beforeAll(async () => {
    browser = await launchChromium();
    recto = await startRecto({ home: makeHome() });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    fs.mkdirSync(artifactsDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await recto?.stop();
    fs.rmSync(outRoot, { recursive: true, force: true });
  });

  it('lists a corrected page with a score below 1 and draws the three charts', async () => {
    await page.goto(recto.url);
    await page.getByTestId('open-samples').click();
    await waitForPagesRead(page, 4);

    const original = await openPage(page, correctedDocument);
    // A real correction: a word changed and a line added, as an analyst would.
    const corrected = `${original.replace(/Invoice/, 'INVOICE')}\n\n${addedLine}\n`;
    expect(corrected).not.toBe(original);
    await replaceEditorText(page, corrected);
    correctedPageId =
      (await page.locator(`[data-testid="page-item"][data-document-name="${correctedDocument}"]`).first().getAttribute('data-page-id')) ?? '';
    expect(correctedPageId).not.toBe('');

    await openCuration(page);
    await waitForCorrectedRow(page, correctedPageId);
    const rows = await curationRows(page);
    expect(rows.length).toBe(4);
    const row = rows.find((candidate) => candidate.pageId === correctedPageId)!;
    expect(row.score).toBeGreaterThan(0);
    expect(row.score).toBeLessThan(1);
    expect(row.text).toContain(correctedDocument);
    // By default, needs attention first: every uncorrected page (heaviest signals first) before the corrected one.
    expect(row.corrected).toBe(true);
    const uncorrected = rows.filter((candidate) => !candidate.corrected);
    expect(rows.slice(0, uncorrected.length)).toEqual(uncorrected);
    expect(uncorrected.map((candidate) => candidate.attention)).toEqual([...uncorrected.map((candidate) => candidate.attention)].sort((a, b) => b - a));
    await page.screenshot({ path: path.join(artifactsDir, 'curation-attention-order-1440.png') });
    // By combined score, worst first: the corrected page comes before every page that was not corrected (score 1).
    await page.getByTestId('curation-sort').selectOption('score');
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="curation-row"]')?.getAttribute('data-page-id') === id,
      correctedPageId,
      { timeout: 30_000 },
    );
    const byScore = await curationRows(page);
    expect(byScore[0]!.score).toBe(Math.min(...byScore.map((candidate) => candidate.score)));
    expect(byScore.findIndex((candidate) => candidate.pageId === correctedPageId)).toBeLessThan(byScore.findIndex((candidate) => candidate.score === 1));

    const histogram = page.getByTestId('chart-score-histogram');
    await expect(histogram.getAttribute('data-empty')).resolves.toBe('false');
    const counts = await histogram.locator('rect[data-count]').evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('data-count'))));
    expect(counts).toHaveLength(10);
    // Only the corrected page has a score; the three others are said to be left out.
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
    await expect(histogram.getByTestId('histogram-counts').getAttribute('data-unscored')).resolves.toBe('3');

    const kinds = page.getByTestId('chart-errors-by-kind');
    await expect(kinds.getAttribute('data-empty')).resolves.toBe('false');
    const changeRates = await kinds.locator('[data-kind]').evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('data-change-rate'))));
    expect(changeRates.length).toBeGreaterThan(0);
    expect(Math.max(...changeRates)).toBeGreaterThan(0);

    const overTime = page.getByTestId('chart-corrections-over-time');
    await expect(overTime.getAttribute('data-empty')).resolves.toBe('false');
    expect(await overTime.locator('svg circle').count()).toBeGreaterThan(0);
    await expect(overTime.locator('svg title').first().textContent()).resolves.toBe('Corrections over time');

    await page.screenshot({ path: path.join(artifactsDir, 'curation-view.png') });
  });

  it('opens the page in Review from its row', async () => {
    await page.locator(`[data-testid="curation-row"][data-page-id="${correctedPageId}"]`).click();
    await page.locator(`[data-testid="page-item"][data-page-id="${correctedPageId}"][aria-current="true"]`).waitFor();
    await page.waitForFunction(
      (line) => (window as unknown as { __rectoEditor?: { getValue(): string } }).__rectoEditor?.getValue().includes(line) === true,
      addedLine,
      { timeout: 30_000 },
    );
    expect(await editorText(page)).toContain(addedLine);
  });

  it('narrows the queue to a score range (the charts keep every scored page), and lists every page again without it', async () => {
    await openCuration(page);
    const rowCount = () => page.locator('[data-testid="curation-row"]').count();
    await page.getByTestId('filter-score-max').fill('0.99');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="curation-row"]').length < 4, undefined, { timeout: 30_000 });
    const ranged = await curationRows(page);
    expect(ranged.map((row) => row.pageId)).toContain(correctedPageId);
    expect(ranged.every((row) => row.score <= 0.99)).toBe(true);
    await expect(page.getByTestId('curation-range').textContent()).resolves.toMatch(new RegExp(`of ${ranged.length} page`));
    const counts = await page
      .getByTestId('chart-score-histogram')
      .locator('rect[data-count]')
      .evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('data-count'))));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);

    await page.getByTestId('filter-score-clear').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="curation-row"]').length === 4, undefined, { timeout: 30_000 });
    expect(await rowCount()).toBe(4);
    await expect(page.getByTestId('filter-score-max').inputValue()).resolves.toBe('');
  });

  it('exports the corpus from the UI, and refuses a non-empty folder that is not an export', async () => {
    await openCuration(page);
    const outDir = path.join(outRoot, 'corpus');
    const result = await exportFromUi(page, outDir, { images: 'none' });
    expect(result.state, result.text).toBe('done');
    expect(result.text).toMatch(/Exported \d+ page/);
    const records = fs.readFileSync(path.join(outDir, 'records.jsonl'), 'utf8').trim().split('\n');
    expect(records.length).toBe(4);
    expect(records.some((line) => line.includes(addedLine))).toBe(true);
    expect(fs.existsSync(path.join(outDir, 'manifest.json'))).toBe(true);
    await page.screenshot({ path: path.join(artifactsDir, 'curation-export-done.png') });

    // The browser shell has no folder picker: the folder is typed.
    expect(await page.getByTestId('export-choose').count()).toBe(0);

    const foreign = path.join(outRoot, 'foreign');
    fs.mkdirSync(foreign);
    fs.writeFileSync(path.join(foreign, 'keep.txt'), 'not a corpus');
    const refused = await exportFromUi(page, foreign);
    expect(refused.state).toBe('failed');
    expect(refused.text).toMatch(/not empty/);
    expect(fs.readdirSync(foreign)).toEqual(['keep.txt']);
  });
});
