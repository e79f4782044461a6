/**
 * Three-way matching in the app: purchase orders imported from the Suppliers view (a PO.csv whose first line orders
 * the rental days cheaper than billed), the Matching panel beside the fields of a Factur-X invoice shows each line
 * against its PO line with the price difference as PO-PRICE, a line's PO line is changed by the analyst, and the
 * curation view's "Match failed" filter lists the invoice. Screenshot in e2e-artifacts/.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { openPage } from './support/reviewPage.js';
import { openReadProject, type ReadProject } from './support/appSession.js';
import { openCuration } from './support/curationPage.js';
import { makeHome } from './support/rectoServer.js';

const rental = testdata('einvoices/pdfs/EN16931_Miete.pdf');
noteTestdataSkip('the PO matching tests (einvoices/)');

// The invoice's own lines (its XML), the rental days ordered at 80.00 where 86.55 is billed.
const PO_CSV = [
  'po_number,supplier_name,supplier_vat_id,line,description,item_id,quantity,unit,unit_price,currency,order_date',
  '4711,MUSTER-Autovermietung,,10,Miettage,,2,,80.00,EUR,2018-09-20',
  '4711,MUSTER-Autovermietung,,20,Navigationssystem - Garantie,,2,,5.04,EUR,2018-09-20',
  '4711,MUSTER-Autovermietung,,30,Vollkasko,,2,,23.10,EUR,2018-09-20',
  '4711,MUSTER-Autovermietung,,40,minimale Selbstbeteiligung,,2,,15.55,EUR,2018-09-20',
  '4711,MUSTER-Autovermietung,,50,Personen-Unfallversicherung,,2,,7.98,EUR,2018-09-20',
  '4711,MUSTER-Autovermietung,,60,Choice Upgrade,,2,,5.04,EUR,2018-09-20',
].join('\n');

describe.skipIf(!hasTestdata)('PO matching in the app', () => {
  let session: ReadProject;
  let page: Page;
  const home = makeHome();

  beforeAll(async () => {
    session = await openReadProject({ home, projectFile: path.join(home, 'matching.recto'), files: [rental], pages: 1, viewport: { width: 1600, height: 1000 } });
    page = session.page;
  });
  afterAll(() => session?.close());

  it('imports purchase orders from the Suppliers view', async () => {
    await page.getByTestId('nav-suppliers').click();
    const form = page.getByTestId('master-data-import');
    await form.locator('input[data-slot="purchaseOrders"]').setInputFiles({ name: 'PO.csv', mimeType: 'text/csv', buffer: Buffer.from(PO_CSV) });
    await form.getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => page.getByTestId('master-data-result').textContent()).toContain('PO lines: 6 added');
    expect(await page.getByTestId('master-data-result').textContent()).toContain('PO.csv: 6 rows, decimal point (detected)');
  });

  it('shows each line against its PO line, the price difference as PO-PRICE, and lets the analyst relink a line', async () => {
    await page.getByTestId('nav-review').click();
    await openPage(page, 'EN16931_Miete.pdf');
    const panel = page.getByTestId('matching-panel');
    await panel.waitFor();
    await expect.poll(() => panel.getByTestId('match-status').textContent()).toBe('exception');
    expect(await panel.getByTestId('match-findings').textContent()).toContain('PO-PRICE');
    expect(await panel.locator('tr[data-line="1"] .match-off').count()).toBeGreaterThan(0);
    expect(await panel.locator('tr[data-line="2"] .match-off').count()).toBe(0);
    await page.screenshot({ path: path.join(artifactsDir, 'po-matching.png') });

    const choice = panel.locator('tr[data-line="6"] select');
    expect(await choice.inputValue()).toBe('4711#60');
    await choice.selectOption('4711#20');
    await expect.poll(() => choice.inputValue()).toBe('4711#20');
  });

  it('lists the invoice under the curation view\'s "Match failed" filter', async () => {
    await openCuration(page);
    const chip = page.locator('.attention-filters [data-signal="match-failed"]');
    await expect.poll(() => chip.textContent()).toContain('1');
  });
});
