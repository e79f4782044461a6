/**
 * The review tools on real documents: the table grid on a ruled ICDAR 2013 table (edit a cell, merge two cells → the
 * saved HTML has both, the page's other table is byte-identical), the formula editor's error on a broken formula.
 * Screenshots of each state in both themes go to e2e-artifacts/ for people to look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { createProjectThroughWelcome, editorText, openPage, waitForPagesRead } from './support/reviewPage.js';
import { makeHome, startRecto, type RunningRecto } from './support/rectoServer.js';
import { htmlTables, revisions, selectedPageId, setCursor } from './support/toolsPage.js';

const ruledTables = testdata('camelot/tests/files/tabula/icdar2013-dataset/competition-dataset-eu/eu-001.pdf');
noteTestdataSkip('the review tools tests (ICDAR eu-001.pdf)');

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`) });
}

async function waitSaved(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="save-state"][data-state="saved"]', { timeout: 30_000 });
}

describe.skipIf(!hasTestdata)('review tools on real documents', () => {
  let browser: Browser;
  let recto: RunningRecto;
  let page: Page;
  const home = makeHome();

  beforeAll(async () => {
    browser = await launchChromium();
    recto = await startRecto({ home });
    fs.mkdirSync(artifactsDir, { recursive: true });
    page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(recto.url);
    await createProjectThroughWelcome(page, path.join(home, 'tools.recto'));
    await page.getByTestId('import-input').setInputFiles(ruledTables);
    await waitForPagesRead(page, 3);
  });
  afterAll(async () => {
    await browser?.close();
    await recto?.stop();
  });

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

    const cell = page.locator('input[data-testid="grid-cell"][value="100 million"]');
    const row = Number(await cell.getAttribute('data-row'));
    await cell.click();
    await cell.fill('100 000 000');
    await page.keyboard.press('Tab');
    await waitSaved(page);

    // Merge the two "-" cells after it (to water, to land) of the Carbon dioxide row.
    await page.locator(`input[data-row="${row}"][data-col="2"]`).click();
    await page.locator(`input[data-row="${row}"][data-col="3"]`).click({ modifiers: ['Shift'] });
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
});
