/**
 * The small things an analyst meets every day (issue 39), on real e-invoices in Chromium: the import's progress counts
 * every document of the batch and estimates the time left; a refused duplicate names and links the document it
 * repeats; the fields column scrolls as one area with the failure summary in view; a click on a field (or Alt+Z) zooms
 * the page to its box, and Fit page shows the whole page; the Changes diff reads as lines at 1280×720; a closed table
 * grid can be opened again from the page and from the palette; the score chart counts scored pages only and says how
 * many are not. Screenshots at 1280×720 and 1440×900 in e2e-artifacts/daily-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './support/appSession.js';
import { openCuration } from './support/curationPage.js';
import { shownPageId } from './support/fieldsPage.js';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { makeHome } from './support/rectoServer.js';
import { createProjectThroughWelcome, editorText, openPage, replaceEditorText, waitForPagesRead } from './support/reviewPage.js';
import { setCursor } from './support/toolsPage.js';
import { watchRpc } from './support/rpcWatch.js';

const invoices = ['EN16931_Physiotherapeut.pdf', 'EN16931_Miete.pdf', 'acme_invoice-42_ZUGFeRD.pdf', 'Facture_UE_EN16931.pdf', 'EN16931_OEPNV.pdf'];
const pagesInAll = 10;
noteTestdataSkip('the daily review items (einvoices/)');

const viewports = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

/** Takes the same view at both sizes (the second left set for the next test to restore). */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(250);
    await page.screenshot({ path: path.join(artifactsDir, `daily-${name}-${viewport.width}x${viewport.height}.png`) });
  }
  await page.setViewportSize(viewports[0]);
}

/** Replaces the editor's whole text as an edit (autosave and the tools see it). */
async function setEditorText(page: Page, text: string): Promise<void> {
  await page.evaluate((next) => {
    const editor = (window as unknown as {
      __rectoEditor: { getModel(): { getFullModelRange(): unknown }; executeEdits(source: string, edits: { range: unknown; text: string }[]): void };
    }).__rectoEditor;
    editor.executeEdits('e2e', [{ range: editor.getModel().getFullModelRange(), text: next }]);
  }, text);
}

describe.skipIf(!hasTestdata)('the analyst\'s daily items', () => {
  let app: RunningApp;
  let page: Page;
  const home = makeHome();
  /** What the progress bar said while the import was read, sampled. */
  const progress: { done: number; total: number; text: string }[] = [];

  beforeAll(async () => {
    app = await startApp({ home });
    page = await app.browser.newPage({ viewport: viewports[0] });
    watchRpc(page);
    await page.goto(app.recto.url);
    await createProjectThroughWelcome(page, path.join(home, 'daily.recto'));
    await page.getByTestId('import-input').setInputFiles(invoices.map((name) => testdata(`einvoices/pdfs/${name}`)));
    // Sample the bar until every page is read.
    const bar = page.getByTestId('progress-bar');
    const reading = waitForPagesRead(page, pagesInAll, 600_000);
    let finished = false;
    void reading.finally(() => (finished = true));
    while (!finished) {
      const sample = await bar
        .evaluate((element) => ({ done: Number(element.getAttribute('aria-valuenow')), total: Number(element.getAttribute('aria-valuemax')), text: element.getAttribute('aria-valuetext') ?? '' }))
        .catch(() => null);
      if (sample) progress.push(sample);
      await page.waitForTimeout(100);
    }
    expect((await reading).every((status) => status === 'done')).toBe(true);
    // The pages' statuses can say "done" a moment before the bar shows the last count: sample it a little longer
    // (the bar stays while its batch is shown), so the last sample is not lost to the race.
    const last = Date.now() + 10_000;
    while (Date.now() < last && !progress.some((sample) => sample.done === pagesInAll)) {
      const sample = await bar
        .evaluate((element) => ({ done: Number(element.getAttribute('aria-valuenow')), total: Number(element.getAttribute('aria-valuemax')), text: element.getAttribute('aria-valuetext') ?? '' }))
        .catch(() => null);
      if (sample) progress.push(sample);
      await page.waitForTimeout(100);
    }
  });
  afterAll(() => app?.close());

  it('counts every document of the import as it is read, and estimates the time left', () => {
    const seen = progress.filter((sample, i) => i === 0 || sample.text !== progress[i - 1]!.text);
    // One batch for the whole import: its total grows to the import's pages as files arrive (documents read do not
    // drop out of it), its count only grows, …
    expect(Math.max(...progress.map((sample) => sample.total)), JSON.stringify(seen)).toBe(pagesInAll);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.done, JSON.stringify(seen)).toBeGreaterThanOrEqual(progress[i - 1]!.done);
      expect(progress[i]!.total, JSON.stringify(seen)).toBeGreaterThanOrEqual(progress[i - 1]!.total);
    }
    expect(Math.max(...progress.map((sample) => sample.done))).toBe(pagesInAll);
    // … and once a page is read it says how long is left rather than "estimating".
    const estimated = progress.filter((sample) => sample.done > 0 && sample.done < sample.total && /left$/.test(sample.text) && !/estimating/.test(sample.text));
    expect(estimated.length, JSON.stringify(seen)).toBeGreaterThan(0);
  });

  it('names and links the document a refused duplicate repeats', async () => {
    const copy = path.join(home, 'copy-of-miete.pdf');
    fs.copyFileSync(testdata('einvoices/pdfs/EN16931_Miete.pdf'), copy);
    await page.getByTestId('import-input').setInputFiles([copy]);
    const notice = page.getByTestId('import-notice');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain('copy-of-miete.pdf is already in the project as EN16931_Miete.pdf');
    await screenshots(page, 'duplicate');
    await page.getByTestId('duplicate-holder').click();
    const mieteFirst = await page.locator('[data-testid="page-item"][data-document-name="EN16931_Miete.pdf"]').first().getAttribute('data-page-id');
    await expect.poll(() => shownPageId(page)).toBe(mieteFirst);
    await page.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('scrolls the fields column as one area, the failure summary staying in view', async () => {
    await openPage(page, 'acme_invoice-42_ZUGFeRD.pdf');
    await page.locator('.payment-fields').waitFor();
    const scrollAreas = () =>
      page.locator('.fields-column').evaluate((column) =>
        [column, ...column.querySelectorAll('*')].filter((element) => {
          const style = getComputedStyle(element);
          return /(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1;
        }).length,
      );
    expect(await scrollAreas()).toBeLessThanOrEqual(1);
    // Scrolled to the payment fields at the bottom, the summary is still on screen, whole.
    await page.locator('.fields-body').evaluate((body) => (body.scrollTop = body.scrollHeight));
    const summary = (await page.getByTestId('failure-summary').boundingBox())!;
    const body = (await page.locator('.fields-body').boundingBox())!;
    expect(summary.y).toBeGreaterThanOrEqual(0);
    expect(summary.y + summary.height).toBeLessThanOrEqual(body.y + 1);
    const payment = (await page.locator('.payment-fields').boundingBox())!;
    expect(payment.y).toBeLessThan(720);
    await screenshots(page, 'fields-column');
    for (const viewport of viewports) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(200);
      expect(await scrollAreas(), `${viewport.width}x${viewport.height}`).toBeLessThanOrEqual(1);
    }
    await page.setViewportSize(viewports[0]);
  });

  it('zooms the page to a field clicked (or Alt+Z), and fits the whole page', async () => {
    await openPage(page, 'EN16931_Miete.pdf');
    const level = async () => Number((await page.getByTestId('zoom-level').textContent())!.replace(/\D/g, ''));
    const fitted = await level();
    const field = 'invoice_number';
    const box = page.locator(`[data-field-box="${field}"]`).first();
    await box.waitFor({ state: 'attached' });
    const inView = async () => {
      const pane = (await page.locator('.viewer-scroll').boundingBox())!;
      const shown = (await box.boundingBox())!;
      return shown.x >= pane.x && shown.y >= pane.y && shown.x + shown.width <= pane.x + pane.width && shown.y + shown.height <= pane.y + pane.height;
    };
    await page.locator(`.fields-panel [data-field="${field}"]`).click();
    await expect.poll(level).toBeGreaterThan(fitted * 2);
    await expect.poll(inView).toBe(true);
    await screenshots(page, 'zoom-to-field');
    await page.getByRole('button', { name: 'Fit page' }).click();
    await expect
      .poll(async () => {
        const frame = (await page.locator('.page-frame').boundingBox())!;
        const pane = (await page.locator('.viewer-scroll').boundingBox())!;
        return frame.height <= pane.height && frame.width <= pane.width;
      })
      .toBe(true);
    await screenshots(page, 'fit-page');
    await page.getByRole('button', { name: 'Fit width' }).click();
    await expect.poll(level).toBe(fitted);
    // The key, on the field focused.
    await page.locator(`.fields-panel [data-field="${field}"]`).focus();
    await page.keyboard.press('Alt+z');
    await expect.poll(level).toBeGreaterThan(fitted * 2);
    await expect.poll(inView).toBe(true);
    await page.getByRole('button', { name: 'Fit width' }).click();
  });

  it('shows the Changes diff as lines of text at 1280×720, the history under it', async () => {
    await openPage(page, 'EN16931_OEPNV.pdf');
    const original = await editorText(page);
    await setEditorText(page, original.replace(/\S+/, (word) => `${word} corrected`));
    await page.getByTestId('changes-tab').click();
    await page.getByTestId('diff-editor').locator('.editor.modified').waitFor();
    const panel = (await page.getByTestId('changes-panel').boundingBox())!;
    const diff = (await page.getByTestId('diff-editor').boundingBox())!;
    const history = (await page.locator('.revision-list').boundingBox())!;
    expect(diff.width).toBeGreaterThanOrEqual(panel.width - 2);
    expect(history.y).toBeGreaterThanOrEqual(diff.y + diff.height - 1);
    // The modified text's lines hold phrases, not a word each: the widest line drawn is over 30 characters.
    await expect
      .poll(() => page.getByTestId('diff-editor').locator('.editor.modified .view-line').evaluateAll((lines) => Math.max(0, ...lines.map((line) => (line.textContent ?? '').trim().length))))
      .toBeGreaterThan(30);
    await screenshots(page, 'changes-diff');
    await page.getByRole('tab', { name: 'Markdown' }).click();
    await setEditorText(page, original);
  });

  it('opens a closed table grid again from its place, from the table\'s box on the page and from the palette', async () => {
    await openPage(page, 'EN16931_Physiotherapeut.pdf');
    await page.getByRole('tab', { name: 'Markdown' }).click();
    const original = await editorText(page);
    const table = '| Item | Price |\n|---|---|\n| Massage | 40.00 |\n| Fango | 15.00 |';
    await setEditorText(page, `${original}\n\n${table}\n`);
    const text = await editorText(page);
    await setCursor(page, text.indexOf('Fango') + 2);
    await page.getByTestId('grid-panel').waitFor();
    await page.getByRole('button', { name: 'Close the grid' }).click();
    await page.getByTestId('grid-panel').waitFor({ state: 'detached' });
    // In its place, a way back.
    await page.getByTestId('grid-reopen').click();
    await page.getByTestId('grid-panel').waitFor();
    await screenshots(page, 'grid-back');
    await page.getByRole('button', { name: 'Close the grid' }).click();
    await page.getByTestId('grid-panel').waitFor({ state: 'detached' });
    // From the palette, with the cursor outside every table: the page's first table.
    await setCursor(page, 0);
    await page.keyboard.press('F1');
    await page.getByTestId('palette-input').fill('open the table grid');
    await expect.poll(() => page.getByTestId('palette-item').allTextContents()).toEqual(['Open the table grid']);
    await page.getByTestId('palette-input').press('Enter');
    await page.getByTestId('grid-panel').waitFor();
    await page.getByRole('button', { name: 'Close the grid' }).click();
    await setEditorText(page, original);
    // From the page: a table's box opens its grid, closed before or not.
    await openPage(page, 'EN16931_OEPNV.pdf');
    const tableBox = page.locator('.page-frame rect.kind-table').first();
    await tableBox.dispatchEvent('click');
    await page.getByTestId('grid-panel').waitFor();
    await page.getByRole('button', { name: 'Close the grid' }).click();
    await page.getByTestId('grid-panel').waitFor({ state: 'detached' });
    await tableBox.dispatchEvent('click');
    await page.getByTestId('grid-panel').waitFor();
    await page.getByRole('button', { name: 'Close the grid' }).click();
  });

  it('counts only scored pages in the score chart, saying how many are not', async () => {
    // A text correction: the page is scored from then on (the page it compares is the correction).
    await openPage(page, 'EN16931_Miete.pdf');
    const text = await editorText(page);
    await replaceEditorText(page, text.replace(/\S+/, (word) => `${word}x`));
    await openCuration(page);
    const counts = page.getByTestId('histogram-counts');
    await counts.waitFor();
    const scored = Number(await counts.getAttribute('data-scored'));
    const unscored = Number(await counts.getAttribute('data-unscored'));
    expect(scored).toBeGreaterThan(0);
    expect(scored + unscored).toBe(pagesInAll);
    const bars = await page.locator('[data-testid="chart-score-histogram"] .chart-bar').evaluateAll((rects) => rects.reduce((sum, rect) => sum + Number(rect.getAttribute('data-count')), 0));
    expect(bars).toBe(scored);
    await expect(counts.textContent()).resolves.toContain(`${unscored} not corrected yet, not counted`);
    await screenshots(page, 'score-chart');
    await page.getByTestId('nav-review').click();
  });
});
