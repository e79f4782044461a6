/**
 * The Evaluate view in the browser shell, on a project of real invoices with analyst corrections: the bundled engine
 * is evaluated from the UI, its accepted share and worst pages show, a worst page opens in the review screen, and the
 * self-contained HTML report opens in Chromium. Screenshots at 1280×720 and 1920×1080 are left as artifacts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRealInvoiceProject, realInvoicesAvailable } from '../testing/realInvoiceProject.js';
import { startApp, type RunningApp } from './support/appSession.js';
import { artifactsDir, noteTestdataSkip } from './support/paths.js';
import { makeHome } from './support/rectoServer.js';

noteTestdataSkip('the Evaluate view on real invoices');

describe.skipIf(!realInvoicesAvailable)('Evaluate view', () => {
  let app: RunningApp;
  let page: Page;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-e2e-evaluate-'));
  const home = makeHome();

  beforeAll(async () => {
    // One page corrected a little (accepted), one rewritten (not accepted); the rest left unreviewed.
    const { project } = await makeRealInvoiceProject(work, (markdown, index) => {
      if (index === 0) return `${markdown}\n\nChecked.`;
      if (index === 1) return `${markdown}\n\n${'A paragraph the analyst typed that the page does not carry. '.repeat(30)}`;
      return null;
    });
    app = await startApp({ home, project });
    page = await app.browser.newPage({ viewport: { width: 1280, height: 720 } });
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('evaluates the bundled engine from the UI and shows what it would take', async () => {
    await page.goto(app.recto.url);
    await page.getByTestId('nav-evaluate').click();
    await expect(page.getByTestId('evaluate-view').isVisible()).resolves.toBe(true);
    await page.getByTestId('evaluate-start').click();
    const card = page.getByTestId('evaluate-engine-bundled');
    await card.waitFor({ timeout: 180_000 });
    const accepted = await card.getByTestId('accepted-share').textContent();
    // Two reference pages, one of them rewritten by the analyst: half accepted.
    expect(accepted).toBe('50.0%');
    await expect(page.getByTestId('evaluate-summary').textContent()).resolves.toContain('2 reference page(s)');
    await page.screenshot({ path: path.join(artifactsDir, 'evaluate-1280x720.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: path.join(artifactsDir, 'evaluate-1920x1080.png') });

    // The worst page opens in the review screen.
    await card.locator('button.link').first().click();
    await page.getByTestId('nav-review').waitFor();
    await expect(page.getByTestId('nav-review').getAttribute('aria-current')).resolves.toBe('page');
  }, 300_000);

  it("links the report from the view: it opens in a tab, served by the shell, sandboxed", async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('nav-evaluate').click();
    const link = page.getByTestId('evaluate-report-link');
    await link.waitFor();
    const [report] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await report.waitForLoadState();
    expect(new URL(report.url()).pathname).toBe('/api/evaluation-report');
    await expect(report.locator('h1').textContent()).resolves.toBe('Engine evaluation');
    await report.screenshot({ path: path.join(artifactsDir, 'evaluate-report-link-1280x720.png') });
    await report.close();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: path.join(artifactsDir, 'evaluate-1440x900.png') });
  });

  it('writes a self-contained report that opens in Chromium', async () => {
    const reports = path.join(home, 'data', 'evaluations');
    const found = fs.readdirSync(reports, { recursive: true, encoding: 'utf8' }).find((file) => file.endsWith('report.html'));
    expect(found).toBeDefined();
    const report = await app.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const blocked: string[] = [];
    report.on('request', (request) => {
      if (!request.url().startsWith('file:')) blocked.push(request.url());
    });
    await report.goto(`file://${path.join(reports, found!)}`);
    await expect(report.locator('h1').textContent()).resolves.toBe('Engine evaluation');
    expect(await report.locator('svg').count()).toBe(2);
    await report.screenshot({ path: path.join(artifactsDir, 'evaluate-report.png'), fullPage: true });
    expect(blocked).toEqual([]);
    await report.close();
  });
});
