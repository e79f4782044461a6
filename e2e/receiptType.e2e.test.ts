/**
 * The document type in the review screen, on a real scanned till receipt (receipts/ in the test documents): the page
 * is read as a receipt, so the invoice-only rules BR-02, BR-05 and BR-07 (invoice number, currency code, buyer) do not
 * apply (not listed); the analyst changes the type to invoice from the fields panel and they are checked, failing for
 * what a receipt does not print; back to receipt they no longer apply, and the choice survives a reload. Screenshots in e2e-artifacts/.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleStatus, shootSizes } from './support/fieldsPage.js';
import { hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { openPage } from './support/reviewPage.js';
import { openReadProject, type ReadProject } from './support/appSession.js';
import { makeHome } from './support/rectoServer.js';

// A development receipt (bench/fields/heldOutVendors.ts keeps its vendor out of the held-out split).
const receipt = testdata('receipts/img/075.jpg');
noteTestdataSkip('the document type tests (receipts/)');

describe.skipIf(!hasTestdata)('the document type in the fields panel', () => {
  let session: ReadProject;
  let page: Page;
  const home = makeHome();

  beforeAll(async () => {
    session = await openReadProject({ home, projectFile: path.join(home, 'receipts.recto'), files: [receipt], pages: 1, viewport: { width: 1440, height: 900 } });
    page = session.page;
    expect(session.statuses.every((status) => status === 'done')).toBe(true);
  });
  afterAll(() => session?.close());
  // A rule that does not apply is not listed (RuleList shows the failing and passing ones).
  const invoiceOnly = ['BR-02', 'BR-05', 'BR-07'];
  const invoiceOnlyShown = async (): Promise<number> => {
    let shown = 0;
    for (const name of invoiceOnly) shown += await page.locator(`.rules [data-rule="${name}"]`).count();
    return shown;
  };

  it('a receipt read as one owes no invoice number, currency code or buyer; as an invoice it does; the analyst changes the type back', async () => {
    await openPage(page, path.basename(receipt));
    const type = page.getByTestId('document-type');
    await type.waitFor();
    expect(await type.inputValue()).toBe('receipt');
    await expect.poll(() => invoiceOnlyShown()).toBe(0);

    await type.selectOption('invoice');
    await expect.poll(() => invoiceOnlyShown()).toBe(3);
    // As an invoice it lacks what a till receipt does not print (here its invoice number and its buyer).
    const statuses = await Promise.all(invoiceOnly.map((name) => ruleStatus(page, name)));
    console.log(`[receiptType] as an invoice: ${invoiceOnly.map((name, i) => `${name} ${statuses[i]}`).join(', ')}`);
    expect(statuses.filter((status) => status === 'fail').length).toBeGreaterThanOrEqual(2);
    expect(await type.getAttribute('data-corrected')).toBe('true');
    await shootSizes(page, 'receipt-as-invoice');

    await type.selectOption('receipt');
    await expect.poll(() => invoiceOnlyShown()).toBe(0);
    // The change is a field correction: the reload shows it kept.
    await page.reload();
    await openPage(page, path.basename(receipt));
    await expect.poll(() => page.getByTestId('document-type').inputValue()).toBe('receipt');
    await expect.poll(() => invoiceOnlyShown()).toBe(0);
  });
});
