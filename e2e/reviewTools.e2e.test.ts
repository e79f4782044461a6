/**
 * The review tools on real documents: the table grid on a ruled ICDAR 2013 table (edit a cell, merge two cells → the
 * saved HTML has both, the page's other table is byte-identical), the formula editor's error on a broken formula.
 * Screenshots of each state in both themes go to e2e-artifacts/ for people to look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { editorText, openPage } from './support/reviewPage.js';
import { openReadProject, type ReadProject } from './support/appSession.js';
import { makeHome } from './support/rectoServer.js';
import { cursorOffset, htmlTables, revisions, rpc, selectedPageId, setCursor } from './support/toolsPage.js';

const ruledTables = testdata('camelot/tests/files/tabula/icdar2013-dataset/competition-dataset-eu/eu-001.pdf');
const scannedInvoice = testdata('invoice2data/tests/compare/FlipkartInvoice.png');
noteTestdataSkip('the review tools tests (ICDAR eu-001.pdf, FlipkartInvoice.png)');

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`) });
}

async function waitSaved(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="save-state"][data-state="saved"]', { timeout: 30_000 });
}

describe.skipIf(!hasTestdata)('review tools on real documents', () => {
  let session: ReadProject;
  let page: Page;
  const home = makeHome();

  beforeAll(async () => {
    session = await openReadProject({ home, projectFile: path.join(home, 'tools.recto'), files: [ruledTables, scannedInvoice], pages: 4, viewport: { width: 1920, height: 1080 } });
    page = session.page;
  });
  afterAll(() => session?.close());

  it('edits a ruled ICDAR table in the grid: a cell and a merge reach the saved HTML, the other table stays byte-identical', async () => {
    const original = await openPage(page, 'eu-001.pdf', 1);
    const pageId = await selectedPageId(page);
    const [firstTable, secondTable] = htmlTables(original);
    expect(firstTable).toContain('100 million');
    expect(secondTable).toBeDefined();

    // Clicking the table's box on the page puts the cursor in its HTML: the grid opens with the crop beside it.
    await page.locator('rect.kind-table').first().click();
    await page.getByTestId('grid-panel').waitFor();
    await page.getByTestId('page-crop').waitFor();
    await shot(page, 'grid-open-1920-light');

    const cell = page.locator('td[data-testid="grid-cell"]').filter({ hasText: /^100 million$/ });
    const row = Number(await cell.getAttribute('data-row'));
    await cell.click();
    await page.getByTestId('grid-input').fill('100 000 000');
    await page.keyboard.press('Tab');
    await waitSaved(page);

    // Merge the two "-" cells after it (to water, to land) of the Carbon dioxide row.
    await page.locator(`td[data-testid="grid-cell"][data-row="${row}"][data-col="2"]`).click();
    await page.locator(`td[data-testid="grid-cell"][data-row="${row}"][data-col="3"]`).click({ modifiers: ['Shift'] });
    await page.getByTestId('grid-merge').click();
    await waitSaved(page);
    await shot(page, 'grid-merged-1920-light');

    const saved = (await revisions(page, pageId)).at(-1)!.text;
    expect(saved).toBe(await editorText(page));
    const [savedFirst, savedSecond] = htmlTables(saved);
    expect(savedFirst).toContain('<td>100 000 000</td>');
    expect(savedFirst).toMatch(/<tr><td>Carbon dioxide \(CO2\)<\/td><td>100 000 000<\/td><td colspan="2">- -<\/td><\/tr>/);
    expect(savedFirst).not.toContain('100 million');
    expect(savedSecond).toBe(secondTable);
    // Everything outside the first table is as the engine wrote it.
    expect(saved.replace(savedFirst!, '')).toBe(original.replace(firstTable!, ''));
  });

  it('shows every character of long cells at 1440×900, and keeps the row numbers pinned while the grid scrolls sideways', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      // The page's second table has the long pollutant names ("Non-methane volatile organic compounds (NMVOC)").
      await page.locator('rect.kind-table').nth(1).click();
      await page.getByTestId('grid-panel').waitFor();
      const texts = page.locator('[data-testid="grid-table"] .grid-text');
      await expect.poll(async () => Math.max(...(await texts.allTextContents()).map((text) => text.length))).toBeGreaterThan(36);
      const cut = await texts.evaluateAll((spans) => spans.filter((span) => span.scrollWidth > span.clientWidth + 1).map((span) => span.textContent));
      expect(cut).toEqual([]);

      const scroller = page.getByTestId('grid-scroll');
      await scroller.evaluate((element) => (element.scrollLeft = element.scrollWidth));
      const label = page.locator('[data-testid="grid-table"] .grid-row-label').first();
      const [scrollerBox, labelBox] = [await scroller.boundingBox(), await label.boundingBox()];
      expect(Math.abs(labelBox!.x - scrollerBox!.x)).toBeLessThan(2);
      const shots = process.env.RECTO_SHOTS_DIR;
      if (shots) {
        fs.mkdirSync(shots, { recursive: true });
        await scroller.evaluate((element) => (element.scrollLeft = 0));
        await page.screenshot({ path: path.join(shots, 'grid-1440x900.png') });
        await scroller.evaluate((element) => (element.scrollLeft = element.scrollWidth));
        await page.screenshot({ path: path.join(shots, 'grid-1440x900-scrolled.png') });
      }
      await shot(page, 'grid-1440x900');
    } finally {
      await page.setViewportSize({ width: 1920, height: 1080 });
    }
  });

  it('shows a broken formula’s error at its position, never a blank rendering', async () => {
    const text = await editorText(page);
    const offset = text.indexOf('## Greenhouse gases');
    await page.evaluate((at) => {
      const editor = (window as unknown as { __rectoEditor: { getModel(): { getPositionAt(o: number): { lineNumber: number; column: number } }; executeEdits(s: string, e: unknown[]): void } }).__rectoEditor;
      const p = editor.getModel().getPositionAt(at);
      editor.executeEdits('e2e', [{ range: { startLineNumber: p.lineNumber, startColumn: p.column, endLineNumber: p.lineNumber, endColumn: p.column }, text: 'Threshold $E = \\frac{m}{c^2$ per year\n\n' }]);
    }, offset);
    await setCursor(page, offset + 'Threshold $E'.length);
    await page.getByTestId('formula-panel').waitFor();
    const error = page.getByTestId('formula-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/expected '}'/i);
    expect(await page.getByTestId('formula-error-context').textContent()).toContain('c^2');
    expect((await page.getByTestId('formula-render').innerHTML()).length).toBeGreaterThan(0);
    await shot(page, 'formula-error-1920-light');

    // Fixing it in the formula editor renders it and writes it back into the Markdown.
    await page.getByTestId('formula-source').fill('E = \\frac{m}{c^2}');
    await page.getByTestId('formula-error').waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid="formula-render"] .katex').count()).toBe(1);
    expect(await editorText(page)).toContain('Threshold $E = \\frac{m}{c^2}$ per year');
    await waitSaved(page);
  });

  it('shows the edits in the diff against the engine and brings an old revision back as a new revision', async () => {
    const pageId = await selectedPageId(page);
    await page.getByTestId('changes-tab').click();
    await page.getByTestId('changes-panel').waitFor();
    // Monaco's diff marks what was removed (the engine's "100 million") and what was added (the grid's edit).
    await page.locator('[data-testid="diff-editor"] .char-insert, [data-testid="diff-editor"] .line-insert').first().waitFor();
    // Unchanged stretches are folded away: what the diff shows is the edit — the engine's text struck, the grid's added.
    // The table's edit lies below the formula's on this page: "Next change" brings it into view.
    const shown = () => page.getByTestId('diff-editor').innerText().then((text) => text.replace(/\s+/g, ' '));
    for (let step = 0; step < 10 && !(await shown()).includes('<td>100 million</td>'); step++) {
      await page.getByTestId('diff-next').click();
      await page.waitForTimeout(100);
    }
    expect(await shown()).toContain('<td>100 million</td>');
    expect(await shown()).toContain('<td>100 000 000</td>');
    expect(await page.locator('[data-testid="diff-editor"] .char-delete').count()).toBeGreaterThan(0);
    await shot(page, 'changes-diff-1920-light');

    const before = await revisions(page, pageId);
    expect(before.length).toBeGreaterThanOrEqual(3);
    const oldest = before[0]!;
    // Restore the first revision (the cell edit, before the merge and the formula).
    await page.locator(`[data-testid="revision-item"][data-revision-id="${oldest.id}"] [data-testid="restore-revision"]`).click();
    await waitSaved(page);
    await page.waitForFunction((count) => document.querySelectorAll('[data-testid="revision-item"]').length === count, before.length + 1);
    const after = await revisions(page, pageId);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.text).toBe(oldest.text);
    expect(after.at(-1)!.parentId).toBe(before.at(-1)!.id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(await editorText(page)).toBe(oldest.text);
    await shot(page, 'changes-restored-1920-light');
    await page.getByRole('tab', { name: 'Markdown' }).click();
  });

  it('F8 lands on a low-confidence word of a scanned page, and the status bar counts the words left', async () => {
    await openPage(page, 'FlipkartInvoice.png', 1);
    const pageId = await selectedPageId(page);
    const review = await rpc<{ extraction: { words: { text: string; confidence: number | null }[] } }>(page, 'pages.getReview', { pageId });
    const unsure = new Set(review.extraction.words.filter((w) => w.confidence !== null && w.confidence < 0.6).map((w) => w.text.trim()));
    expect(unsure.size).toBeGreaterThan(0);
    const left = page.getByTestId('confidence-left');
    const total = Number(await left.getAttribute('data-left'));
    expect(total).toBeGreaterThan(0);
    expect(await page.getByTestId('confidence-tint').count()).toBeGreaterThanOrEqual(total);

    await setCursor(page, 0);
    await page.keyboard.press('F8');
    const selected = await page.evaluate(() => {
      const editor = (window as unknown as { __rectoEditor: { getModel(): { getValueInRange(r: unknown): string }; getSelection(): unknown } }).__rectoEditor;
      return editor.getModel().getValueInRange(editor.getSelection());
    });
    expect(unsure.has(selected) || [...unsure].some((word) => selected.length > 0 && word.includes(selected))).toBe(true);
    expect(await page.locator('.low-confidence').count()).toBeGreaterThan(0);
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="confidence-left"]')?.getAttribute('data-left')) === n - 1, total);
    const first = await cursorOffset(page);
    await page.keyboard.press('F8');
    expect(await cursorOffset(page)).toBeGreaterThan(first);
    await page.keyboard.press('Shift+F8');
    expect(await cursorOffset(page)).toBe(first);
    await shot(page, 'confidence-f8-1920-light');
  });

  it('links boxes and text: the cursor in an element selects its box, a click on a box moves the cursor to its text, another page opens with none selected', async () => {
    await openPage(page, 'FlipkartInvoice.png', 1);
    const pageId = await selectedPageId(page);
    const review = await rpc<{ latestRevision: unknown; extraction: { elements: { id: string; span: [number, number] }[] } }>(page, 'pages.getReview', { pageId });
    // The engine's spans are the editor's while the page is uncorrected.
    expect(review.latestRevision).toBeNull();
    const withText = review.extraction.elements.filter((element) => element.span[1] - element.span[0] > 2);
    expect(withText.length).toBeGreaterThanOrEqual(2);
    const [first, last] = [withText[0]!, withText.at(-1)!];
    const box = (id: string) => page.locator(`.overlay [data-element-id="${id}"]`);
    const selectedBoxes = () => page.locator('.overlay .box.selected').count();

    await setCursor(page, first.span[0] + 1);
    await expect.poll(() => box(first.id).getAttribute('class')).toContain('selected');
    await box(last.id).dispatchEvent('click');
    await expect.poll(() => cursorOffset(page)).toBe(last.span[0]);
    await expect.poll(() => box(last.id).getAttribute('class')).toContain('selected');
    expect(await selectedBoxes()).toBe(1);

    for (const key of ['Alt+ArrowUp', 'Alt+ArrowDown']) {
      const before = await selectedPageId(page);
      await page.keyboard.press(key);
      await expect.poll(() => selectedPageId(page)).not.toBe(before);
      await page.getByTestId('page-image').waitFor();
      expect(await selectedBoxes()).toBe(0);
    }
    expect(await selectedPageId(page)).toBe(pageId);
  });

  it('runs "Approve page" from the command palette', async () => {
    const pageId = await selectedPageId(page);
    await page.keyboard.press('Control+Shift+P');
    await page.getByTestId('command-palette').waitFor();
    await page.getByTestId('palette-input').fill('approve');
    await shot(page, 'palette-1920-light');
    expect(await page.getByTestId('palette-item').first().textContent()).toContain('Approve page');
    await page.keyboard.press('Enter');
    await page.getByTestId('command-palette').waitFor({ state: 'detached' });
    // A page with exceptions (failed rules, missing fields, page ≠ XML, duplicates) is never approved silently: the
    // approval prompt asks why, and Enter approves with the reason.
    const prompt = page.getByTestId('approval-prompt');
    if (await prompt.waitFor({ timeout: 5_000 }).then(() => true, () => false)) {
      await page.getByTestId('approval-reason').fill('Checked against the paper original');
      await page.keyboard.press('Enter');
      await prompt.waitFor({ state: 'detached' });
    }
    await page.waitForFunction(() => (document.querySelector('[data-testid="review-status"]') as HTMLSelectElement | null)?.value === 'approved');
    const review = await rpc<{ page: { reviewStatus: string } }>(page, 'pages.getReview', { pageId });
    expect(review.page.reviewStatus).toBe('approved');
  });

  it('keeps every state usable in both themes from 1280×720 to 2560×1440 (screenshots)', async () => {
    const sizes = [
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
      { width: 2560, height: 1440 },
    ];
    // A broken formula at the end of the ICDAR page, for the formula editor's screenshots.
    await openPage(page, 'eu-001.pdf', 1);
    const broken = '\n\nRelease limit $L = \\sum_{i} \\frac{m_i}{t$ per year\n';
    await page.evaluate((append) => {
      const editor = (window as unknown as { __rectoEditor: { getModel(): { getFullModelRange(): { endLineNumber: number; endColumn: number } }; executeEdits(s: string, e: unknown[]): void } }).__rectoEditor;
      const end = editor.getModel().getFullModelRange();
      editor.executeEdits('e2e', [{ range: { startLineNumber: end.endLineNumber, startColumn: end.endColumn, endLineNumber: end.endLineNumber, endColumn: end.endColumn }, text: append }]);
    }, broken);
    await waitSaved(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.getByTestId('theme-select').selectOption(theme);
      expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme);
      for (const size of sizes) {
        await page.setViewportSize(size);
        const tag = `${size.width}-${theme}`;
        await openPage(page, 'eu-001.pdf', 1);
        await page.locator('rect.kind-table').first().click();
        await page.getByTestId('grid-panel').waitFor();
        await shot(page, `state-grid-${tag}`);
        const text = await editorText(page);
        await setCursor(page, text.indexOf('$L = ') + 3);
        await page.getByTestId('formula-error').waitFor();
        await shot(page, `state-formula-${tag}`);
        await page.getByTestId('changes-tab').click();
        await page.getByTestId('changes-panel').waitFor();
        // A line with text: Monaco reuses line nodes out of order, and an empty line's node can measure as hidden.
        await page.locator('[data-testid="diff-editor"] .editor.modified .view-line').filter({ hasText: /\S/ }).first().waitFor().catch(async (error: unknown) => {
          await shot(page, `debug-changes-${tag}`);
          throw error;
        });
        await page.waitForTimeout(600); // the diff is computed in Monaco's worker
        await shot(page, `state-changes-${tag}`);
        await page.getByRole('tab', { name: 'Markdown' }).click();
        await openPage(page, 'FlipkartInvoice.png', 1);
        await setCursor(page, 0);
        await page.keyboard.press('F8');
        await shot(page, `state-confidence-${tag}`);
        await page.keyboard.press('Control+Shift+P');
        await page.getByTestId('command-palette').waitFor();
        await shot(page, `state-palette-${tag}`);
        await page.keyboard.press('Escape');
      }
    }
    await page.getByTestId('theme-select').selectOption('system');
  });
});
