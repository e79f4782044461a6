/**
 * First start on any clone (no shared test data needed): the welcome screen offers the samples; they are read —
 * born-digital PDFs from their text layer, scans by OCR — and their known text shows up. Bad files are reported by
 * name and leave the app running.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { artifactsDir, repoRoot } from './support/paths.js';
import { openPage, waitForPagesRead } from './support/reviewPage.js';
import { makeHome, startRecto, type RunningRecto } from './support/rectoServer.js';

const samplesDir = path.join(repoRoot, 'resources', 'samples');
const samples = fs.readdirSync(samplesDir).filter((name) => /\.(pdf|png)$/.test(name)).sort();

interface Truth {
  fields: { invoice_number: string; seller: string };
}
const truthOf = (name: string): Truth =>
  JSON.parse(fs.readFileSync(path.join(samplesDir, name.replace(/\.[^.]+$/, '.truth.json')), 'utf8')) as Truth;

describe('first start with the sample invoices', () => {
  let browser: Browser;
  let recto: RunningRecto;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    recto = await startRecto({ home: makeHome() });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    fs.mkdirSync(artifactsDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await recto?.stop();
  });

  it('offers the samples, reads every one of them, and shows their known text', async () => {
    expect(samples.length).toBeGreaterThanOrEqual(2);
    await page.goto(recto.url);
    await page.getByTestId('open-samples').click();
    const statuses = await waitForPagesRead(page, samples.length);
    expect(statuses.every((status) => status === 'done')).toBe(true);

    for (const name of samples) {
      const text = await openPage(page, name);
      const truth = truthOf(name);
      expect(text, name).toContain(truth.fields.invoice_number);
      expect(text, name).toContain(truth.fields.seller);
    }
    await page.screenshot({ path: path.join(artifactsDir, 'review-sample-scan.png') });
  });

  it('names a file it cannot import and the reason, and keeps running', async () => {
    await page.getByTestId('import-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('This is not an invoice.'),
    });
    const banner = page.getByTestId('import-error');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toMatch(/notes\.txt.*not a PDF/s);
    await page.getByTestId('page-item').first().click();
    await page.getByTestId('page-image').waitFor();
  });
});
