/**
 * The jina-ocr-v1 runtime through the whole app: `recto serve --pack` offers it, the analyst picks it, a page is
 * imported, read by FastMTP on onnxruntime-node (in a worker thread) and reviewed. The reference pack's weights are
 * random, so its text is nonsense by design: this proves the pipeline, not the reading.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencePackDir } from '../testing/referencePack/referencePackCache.js';
import { startApp, type RunningApp } from './support/appSession.js';
import { artifactsDir, repoRoot } from './support/paths.js';
import { createProjectThroughWelcome, openPage, waitForPagesRead } from './support/reviewPage.js';
import { makeHome } from './support/rectoServer.js';

describe('the FastMTP engine in the app (reference pack)', () => {
  let app: RunningApp;
  const home = makeHome();

  beforeAll(async () => {
    app = await startApp({ home, pack: await referencePackDir('high') });
  });
  afterAll(() => app?.close());

  it('is offered with its licence, reads an imported page, and reports τ', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(app.recto.url);
    await createProjectThroughWelcome(page, path.join(home, 'vlm.recto'));
    const select = page.getByTestId('engine-select');
    await select.waitFor();
    await expect(select.locator('option[value="vlm"]').textContent()).resolves.toMatch(/FastMTP.*MIT/);
    await select.selectOption('vlm');
    await page.getByTestId('import-input').setInputFiles(path.join(repoRoot, 'resources', 'samples', 'northwind-invoice.pdf'));
    expect(await waitForPagesRead(page, 1)).toEqual(['done']);
    const text = await openPage(page, 'northwind-invoice.pdf');
    expect(text.length).toBeGreaterThan(0);
    await expect(page.getByTestId('engine-label').textContent()).resolves.toMatch(/FastMTP/);
    const review = await page.evaluate(async () => {
      const pageId = document.querySelector('[data-testid="page-item"]')!.getAttribute('data-page-id');
      const response = await fetch('/api/rpc/pages.getReview', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' },
        body: JSON.stringify({ pageId }),
      });
      return (await response.json()) as { result: { extraction: { engine: { id: string }; stats: { meanAcceptedLength?: number } } } };
    });
    expect(review.result.extraction.engine.id).toBe('vlm');
    expect(review.result.extraction.stats.meanAcceptedLength).toBeGreaterThan(1);
    await page.screenshot({ path: path.join(artifactsDir, 'review-vlm-reference-pack.png') });
    await page.close();
  });
});
