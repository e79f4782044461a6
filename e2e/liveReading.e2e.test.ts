/**
 * The live reading view: while the FastMTP engine (reference pack: random weights, nonsense text by design) reads a
 * page, its Markdown streams into the editor pane and the status bar shows tokens/s and accepted drafts per step.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencePackDir } from '../testing/referencePack/referencePackCache.js';
import { launchChromium } from './support/chromium.js';
import { artifactsDir, repoRoot } from './support/paths.js';
import { createProjectThroughWelcome, waitForPagesRead } from './support/reviewPage.js';
import { makeHome, startRecto, type RunningRecto } from './support/rectoServer.js';

describe('live reading view (FastMTP reference pack)', () => {
  let browser: Browser;
  let recto: RunningRecto;
  const home = makeHome();

  beforeAll(async () => {
    const pack = await referencePackDir('high');
    browser = await launchChromium();
    recto = await startRecto({ home, pack });
    fs.mkdirSync(artifactsDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await recto?.stop();
  });

  it('streams the page’s Markdown while it is read, with tokens/s and drafts accepted per step', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(recto.url);
    await createProjectThroughWelcome(page, path.join(home, 'live.recto'));
    await page.getByTestId('engine-select').selectOption('vlm');
    await page.getByTestId('import-input').setInputFiles(path.join(repoRoot, 'resources', 'samples', 'northwind-invoice.pdf'));
    await page.locator('[data-testid="page-item"]').first().click();
    const live = page.getByTestId('live-text');
    await live.waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => (document.querySelector('[data-testid="live-text"]')?.textContent ?? '').length > 20, undefined, { timeout: 60_000 });
    const first = (await live.textContent()) ?? '';
    await page.getByTestId('live-status').waitFor();
    expect(await page.getByTestId('live-status').textContent()).toMatch(/tok\/s.*drafts accepted\/step/);
    await page.screenshot({ path: path.join(artifactsDir, 'live-reading-1440.png') });
    // It grows as tokens arrive (or the page finished first, and the editor holds the whole text).
    await page.waitForFunction(
      (before) => {
        const now = document.querySelector('[data-testid="live-text"]')?.textContent;
        return now === undefined || now === null ? true : now.length > before.length;
      },
      first,
      { timeout: 60_000 },
    );
    expect(await waitForPagesRead(page, 1)).toEqual(['done']);
    await page.close();
  });
});
