/**
 * The live reading view: while the FastMTP engine (reference pack: random weights, nonsense text by design) reads a
 * page, its Markdown streams into the editor pane and the status bar shows tokens/s and accepted drafts per step.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencePackDir } from '../testing/referencePack/referencePackCache.js';
import { startApp, type RunningApp } from './support/appSession.js';
import { artifactsDir, repoRoot } from './support/paths.js';
import { createProjectThroughWelcome, waitForPagesRead } from './support/reviewPage.js';
import { makeHome } from './support/rectoServer.js';

describe('live reading view (FastMTP reference pack)', () => {
  let app: RunningApp;
  const home = makeHome();

  beforeAll(async () => {
    app = await startApp({ home, pack: await referencePackDir('high') });
  });
  afterAll(() => app?.close());

  it('streams the page’s Markdown while it is read, with tokens/s and drafts accepted per step', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1440, height: 900 } });
    // The reference pack reads a page in well under a second, so polling from here could miss the whole reading.
    // The page records what the live view showed instead, on every DOM change, and the test checks the record.
    await page.addInitScript(() => {
      const seen = { lengths: [] as number[], statuses: [] as string[] };
      (window as unknown as { liveSeen: typeof seen }).liveSeen = seen;
      const record = () => {
        const text = document.querySelector('[data-testid="live-text"]')?.textContent;
        if (text && text.length !== seen.lengths.at(-1)) seen.lengths.push(text.length);
        const status = document.querySelector('[data-testid="live-status"]')?.textContent;
        if (status) seen.statuses.push(status);
      };
      new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(app.recto.url);
    await createProjectThroughWelcome(page, path.join(home, 'live.recto'));
    await page.getByTestId('engine-select').selectOption('vlm');
    await page.getByTestId('import-input').setInputFiles(path.join(repoRoot, 'resources', 'samples', 'northwind-invoice.pdf'));
    await page.locator('[data-testid="page-item"]').first().click();
    const live = page.getByTestId('live-text');
    await live.waitFor({ timeout: 120_000 }).then(
      () => page.screenshot({ path: path.join(artifactsDir, 'live-reading-1440.png') }),
      () => undefined, // judged from the record below
    );
    expect(await waitForPagesRead(page, 1)).toEqual(['done']);
    const seen = await page.evaluate(() => (window as unknown as { liveSeen: { lengths: number[]; statuses: string[] } }).liveSeen);
    // It was shown while the page was read, only ever grew, and the status bar gave the decoding figures.
    expect(seen.lengths.length).toBeGreaterThan(0);
    expect(Math.max(...seen.lengths)).toBeGreaterThan(20);
    expect(seen.lengths).toEqual([...seen.lengths].sort((a, b) => a - b));
    expect(seen.statuses.some((status) => /tok\/s.*drafts accepted\/step/.test(status))).toBe(true);
    // Once read, the editor holds the page's text and the live view is gone.
    await expect(live.count()).resolves.toBe(0);
    await page.close();
  });
});
