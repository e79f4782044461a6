/**
 * Approval an auditor can trust, on real e-invoices read from their printed page: approving a page whose page
 * disagrees with its own e-invoice XML asks for a reason first (nothing is approved until it is given; Enter confirms
 * with it) and the rail then shows "approved with exceptions"; the same invoice imported as its PDF and as its
 * standalone XML is flagged as a duplicate naming the other; the payment fields and the XML's line items stand in the
 * fields panel. Screenshots in e2e-artifacts/approval-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { openCuration } from './support/curationPage.js';
import { shownPageId } from './support/fieldsPage.js';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { createProjectThroughWelcome, openPage, waitForPagesRead } from './support/reviewPage.js';
import { makeHome, startRecto, type RunningRecto } from './support/rectoServer.js';

const mismatch = testdata('einvoices/pdfs/acme_invoice-42_ZUGFeRD.pdf');
const rentalPdf = testdata('einvoices/pdfs/EN16931_Miete.pdf');
const rentalXml = testdata('einvoices/xml/ubl/EN16931_Miete.ubl.xml');
noteTestdataSkip('the approval and duplicate tests (einvoices/)');

const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(artifactsDir, `approval-${name}.png`) });

describe.skipIf(!hasTestdata)('approve with exceptions, duplicates, payment fields', () => {
  let browser: Browser;
  let recto: RunningRecto;
  let page: Page;
  const home = makeHome();
  const projectFile = path.join(home, 'approval.recto');

  beforeAll(async () => {
    browser = await launchChromium();
    recto = await startRecto({ home });
    fs.mkdirSync(artifactsDir, { recursive: true });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(recto.url);
    await createProjectThroughWelcome(page, projectFile);
    await page.getByTestId('import-input').setInputFiles([mismatch, rentalPdf, rentalXml]);
    await waitForPagesRead(page, 4);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await recto?.stop();
  });

  it('asks once for the reviewer name', async () => {
    await page.getByTestId('reviewer-name-prompt').waitFor();
    await page.getByTestId('reviewer-name').fill('Ada Auditor');
    await page.getByTestId('reviewer-name-prompt').getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('reviewer-name-prompt').waitFor({ state: 'detached' });
  });

  it('approving a page that disagrees with its XML asks why first; Enter approves with the reason', async () => {
    const pageId = await page.locator('[data-testid="page-item"][data-document-name="acme_invoice-42_ZUGFeRD.pdf"]').first().getAttribute('data-page-id');
    await openPage(page, 'acme_invoice-42_ZUGFeRD.pdf');
    await page.locator('.editor-pane .monaco-editor').first().click();
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('approval-prompt').waitFor();
    const listed = await page.locator('[data-testid="approval-exceptions"] li').allTextContents();
    expect(listed.some((text) => /Page ≠ XML|Failed rule/.test(text))).toBe(true);
    await page.getByTestId('approval-reason').fill('Supplier confirmed the page total by phone');
    await shoot(page, 'exception-prompt');
    // Nothing was approved while the prompt was open.
    await expect(page.locator(`[data-testid="page-item"][data-page-id="${pageId}"] .page-item-badge.approved`).count()).resolves.toBe(0);
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="page-item"][data-page-id="${pageId}"] [data-testid="approved-with-exceptions"]`).waitFor();
    await shoot(page, 'approved-with-exceptions');
  });

  it('shows the payment fields and the XML line items beside the page', async () => {
    await openPage(page, 'EN16931_Miete.pdf');
    await page.getByTestId('payment-fields').waitFor();
    await page.getByTestId('payment-fields-toggle').click();
    await page.getByTestId('payment-fields').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('xml-lines').isVisible()).resolves.toBe(true);
    await shoot(page, 'payment-fields');
  });

  it('the same invoice imported as PDF and as XML is a duplicate naming the other, with a link to it', async () => {
    await openPage(page, 'EN16931_Miete.pdf');
    const links = page.getByTestId('duplicate-links');
    await links.waitFor();
    await expect(links.textContent()).resolves.toMatch(/Same supplier and invoice number as\s*EN16931_Miete\.ubl\.xml/);
    // The pinned summary at the top of the fields panel names it too, as its own group, a link to the other invoice.
    const pinned = page.locator('[data-testid="failure-summary"] [data-summary="duplicate"]');
    await expect(pinned.textContent()).resolves.toContain('EN16931_Miete.ubl.xml');
    const otherPage = await pinned.locator('[data-summary-duplicate]').first().getAttribute('data-summary-duplicate');
    await shoot(page, 'duplicate');
    await pinned.locator('[data-summary-duplicate]').first().click();
    await expect.poll(() => shownPageId(page)).toBe(otherPage);
    await openPage(page, 'EN16931_Miete.pdf');
    await page.getByTestId('duplicate-open').first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="page-item"][data-document-name="EN16931_Miete.ubl.xml"].selected, [data-testid="page-item"][data-document-name="EN16931_Miete.ubl.xml"][aria-current="true"]') !== null || document.body.innerText.includes('EN16931_Miete.ubl'), undefined, { timeout: 15_000 });
    await openCuration(page);
    await page.locator('[data-testid="curation-row"]').first().waitFor();
    await page.locator('[data-testid="attention-queue"] [data-signal="duplicate"]').click();
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="curation-row"]')];
      return rows.length > 0 && rows.every((row) => row.querySelector('[data-signal="duplicate"]'));
    }, undefined, { timeout: 30_000 });
    await shoot(page, 'duplicate-queue');
  });
});
