/**
 * The document type in the review screen, on a real scanned till receipt (receipts/ in the test documents): the page
 * is read as a receipt, so the invoice-only rule BR-07 (buyer) does not apply; the analyst changes the type to invoice
 * from the fields panel and BR-07 fails for the missing buyer; back to receipt (and with the panel's undo) it no longer
 * applies. Screenshot in e2e-artifacts/.
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

  it('a receipt read as one owes no buyer; as an invoice it does; the analyst changes the type and takes it back', async () => {
    await openPage(page, path.basename(receipt));
    const type = page.getByTestId('document-type');
    await type.waitFor();
    expect(await type.inputValue()).toBe('receipt');
    await expect.poll(() => ruleStatus(page, 'BR-07')).toBe('not-applicable');

    await type.selectOption('invoice');
    await expect.poll(() => ruleStatus(page, 'BR-07')).toBe('fail');
    expect(await type.getAttribute('data-corrected')).toBe('true');
    await shootSizes(page, 'receipt-as-invoice');

    await type.selectOption('receipt');
    await expect.poll(() => ruleStatus(page, 'BR-07')).toBe('not-applicable');
    // The change is a field correction: the reload shows it kept.
    await page.reload();
    await openPage(page, path.basename(receipt));
    await expect.poll(() => page.getByTestId('document-type').inputValue()).toBe('receipt');
    await expect.poll(() => ruleStatus(page, 'BR-07')).toBe('not-applicable');
  });
});
