/**
 * Approval an auditor can trust, on real e-invoices read from their printed page: approving a page whose page
 * disagrees with its own e-invoice XML asks for a reason first (nothing is approved until it is given; Enter confirms
 * with it) and the rail then shows "approved with exceptions"; the same invoice imported as its PDF and as its
 * standalone XML is flagged as a duplicate naming the other; the payment fields and the XML's line items stand in the
 * fields panel. Screenshots in e2e-artifacts/approval-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCuration } from './support/curationPage.js';
import { shownPageId } from './support/fieldsPage.js';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { openPage } from './support/reviewPage.js';
import { openReadProject, type ReadProject } from './support/appSession.js';
import { makeHome } from './support/rectoServer.js';

const mismatch = testdata('einvoices/pdfs/acme_invoice-42_ZUGFeRD.pdf');
const rentalPdf = testdata('einvoices/pdfs/EN16931_Miete.pdf');
const rentalXml = testdata('einvoices/xml/ubl/EN16931_Miete.ubl.xml');
noteTestdataSkip('the approval and duplicate tests (einvoices/)');

/** Review sizes every screenshot is taken at: the smallest laptop the review screen is built for, and a common one. */
const SHOT_SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];
/** Where the screenshots also go when asked (a folder outside the repository, for the report). */
const extraShots = process.env.RECTO_SHOTS_DIR;

/** The screen at each review size (e2e-artifacts/approval-<name>-<w>x<h>.png), then back to 1440×900. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const size of SHOT_SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(250);
    const file = `approval-${name}-${size.width}x${size.height}.png`;
    await page.screenshot({ path: path.join(artifactsDir, file) });
    if (extraShots) fs.copyFileSync(path.join(artifactsDir, file), path.join(extraShots, file));
  }
}

describe.skipIf(!hasTestdata)('approve with exceptions, duplicates, payment fields', () => {
  let session: ReadProject;
  let page: Page;
  const home = makeHome();
  const projectFile = path.join(home, 'approval.recto');

  beforeAll(async () => {
    if (extraShots) fs.mkdirSync(extraShots, { recursive: true });
    session = await openReadProject({ home, projectFile, files: [mismatch, rentalPdf, rentalXml], pages: 4, viewport: { width: 1440, height: 900 } });
    page = session.page;
  }, 300_000);
  afterAll(() => session?.close());

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

  it('Changes lists the approval with who, when and why among the revisions', async () => {
    // "Approve and next" moved on: back to the approved page.
    await openPage(page, 'acme_invoice-42_ZUGFeRD.pdf');
    await page.getByTestId('changes-tab').click();
    const decision = page.locator('[data-testid="decision-item"][data-status="approved-with-exceptions"]');
    await decision.waitFor();
    await expect(decision.innerText()).resolves.toMatch(/Approved with exceptions[\s\S]*Ada Auditor[\s\S]*Supplier confirmed the page total by phone/);
    await decision.locator('summary').click();
    await shoot(page, 'changes-decision');
    await page.getByRole('tab', { name: 'Markdown' }).click();
  });

  it('shows the payment fields and the XML line items beside the page', async () => {
    await openPage(page, 'EN16931_Miete.pdf');
    await page.getByTestId('payment-fields').waitFor();
    await page.getByTestId('payment-fields-toggle').click();
    await page.getByTestId('payment-fields').scrollIntoViewIfNeeded();
    // The line items render after the toggle's re-render: wait for them (isVisible alone does not wait; a loaded CI run lost the race).
    await page.getByTestId('xml-lines').waitFor();
    await expect(page.getByTestId('xml-lines').isVisible()).resolves.toBe(true);
    // The routing terms XRechnung requires have rows of their own, read from this XRechnung-less invoice's XML where given.
    const routing = page.locator('[data-testid="payment-fields"] tbody[data-group="routing"]');
    await expect(routing.locator('[data-testid="payment-buyer_reference"]').count()).resolves.toBe(1);
    await shoot(page, 'payment-fields');
    await routing.locator('[data-testid="payment-seller_city"]').scrollIntoViewIfNeeded();
    await shoot(page, 'routing-fields');
  });

  it('an IBAN failing mod 97 is a failing rule in the pinned summary', async () => {
    await openPage(page, 'EN16931_Miete.pdf');
    await page.getByTestId('payment-fields').waitFor();
    if (!(await page.getByTestId('payment-fields').evaluate((details) => (details as HTMLDetailsElement).open))) await page.getByTestId('payment-fields-toggle').click();
    const iban = page.locator('[data-testid="payment-iban"] input');
    await iban.fill('DE89 3704 0044 0532 0130 01');
    await iban.press('Enter');
    await page.locator('[data-testid="failure-summary"] [data-summary-rule="IBAN"]').waitFor();
    await expect(page.locator('[data-testid="payment-iban"] .problem').innerText()).resolves.toMatch(/mod 97/);
    await page.getByTestId('failure-summary').scrollIntoViewIfNeeded();
    await shoot(page, 'payment-rule');
    await iban.fill('');
    await iban.press('Enter');
    await page.locator('[data-testid="failure-summary"] [data-summary-rule="IBAN"]').waitFor({ state: 'detached' });
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
