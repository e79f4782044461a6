/**
 * The whole path on a real invoice: import → read → review side by side → edit → the edit survives a reload and a
 * fresh server process reopening the project file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { createProjectThroughWelcome, editorText, openPage, replaceEditorText, waitForPagesRead } from './support/reviewPage.js';
import { makeHome, startRecto, type RunningRecto } from './support/rectoServer.js';

const invoice = testdata('invoice2data/tests/compare/AmazonWebServices.pdf');
noteTestdataSkip('the AmazonWebServices.pdf review tests');

describe.skipIf(!hasTestdata)('reviewing a real invoice in the browser shell', () => {
  let browser: Browser;
  let recto: RunningRecto;
  const home = makeHome();
  const projectFile = path.join(home, 'aws.recto');
  const correction = 'Checked by the e2e suite: total 4.11 USD';

  beforeAll(async () => {
    browser = await launchChromium();
    recto = await startRecto({ home });
    fs.mkdirSync(artifactsDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await recto?.stop();
  });

  it('imports the invoice, shows its text next to the page, and keeps an edit across a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(recto.url);
    await createProjectThroughWelcome(page, projectFile);
    await page.getByTestId('import-input').setInputFiles(invoice);
    expect(await waitForPagesRead(page, 1)).toEqual(['done']);

    const text = await openPage(page, 'AmazonWebServices.pdf');
    expect(text).toContain('Amazon Web Services');
    expect(text).toContain('42183017'); // the invoice number printed on the page
    await expect(page.getByTestId('engine-label').textContent()).resolves.toMatch(/Bundled/);
    await page.screenshot({ path: path.join(artifactsDir, 'review-aws-invoice.png') });

    await replaceEditorText(page, `${text}\n\n${correction}\n`);
    await page.reload();
    const afterReload = await openPage(page, 'AmazonWebServices.pdf');
    expect(afterReload).toContain(correction);
    await page.close();
  });

  it('shows the edit when a fresh server process reopens the project file', async () => {
    await recto.stop();
    recto = await startRecto({ home, project: projectFile });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(recto.url);
    await page.getByTestId('doc-list').waitFor();
    const text = await openPage(page, 'AmazonWebServices.pdf');
    expect(text).toContain(correction);
    expect(text).toContain('Amazon Web Services');
    await page.screenshot({ path: path.join(artifactsDir, 'review-aws-reopened.png') });
    await page.close();
  });
});
