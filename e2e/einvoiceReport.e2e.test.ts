/**
 * The e-invoice's EN 16931 report beside the page: on a Factur-X PDF whose XML is valid the report says so; an
 * analyst's wrong amount due makes BR-CO-16 fire, grouped under that field, and the page joins the needs-attention
 * queue; clicking the group selects the field and its box on the page. Screenshot in e2e-artifacts/.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editField, fieldValue } from './support/fieldsPage.js';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { onRpcRequest } from './support/rpcWatch.js';
import { openPage } from './support/reviewPage.js';
import { openReadProject, type ReadProject } from './support/appSession.js';
import { makeHome } from './support/rectoServer.js';

const rental = testdata('einvoices/pdfs/EN16931_Miete.pdf');
noteTestdataSkip('the e-invoice validation report tests (einvoices/)');

describe.skipIf(!hasTestdata)('the e-invoice validation report beside the page', () => {
  let session: ReadProject;
  let page: Page;
  const home = makeHome();

  beforeAll(async () => {
    session = await openReadProject({ home, projectFile: path.join(home, 'einvoice.recto'), files: [rental], pages: 1, viewport: { width: 1600, height: 1000 } });
    page = session.page;
  });
  afterAll(() => session?.close());

  it('re-validates while a field is typed, before it is saved, and reverts when the edit is cancelled', async () => {
    await openPage(page, 'EN16931_Miete.pdf');
    const report = page.getByTestId('einvoice-report');
    await expect.poll(() => report.locator('.fields-heading').textContent()).toContain('valid');
    let saves = 0;
    onRpcRequest(page, 'fields.save', () => saves++);
    await fieldValue(page, 'amount_due').focus();
    await page.keyboard.press('Enter');
    const input = page.locator('[data-field-input="amount_due"]');
    await input.fill('');
    await input.pressSequentially('1,00');
    const fired = report.locator('.einvoice-group[data-term="BT-115"] [data-rule="BR-CO-16"][data-flag="fatal"]');
    await fired.waitFor();
    expect(await input.isVisible()).toBe(true); // still editing: the report followed the unsaved entry

    await input.press('Escape');
    await expect.poll(() => report.locator('[data-flag="fatal"]').count()).toBe(0);
    await expect.poll(() => report.locator('.fields-heading').textContent()).toContain('valid');
    expect(saves).toBe(0);
  });

  it('shows the verdict, re-validates an edited field, and selects the field from its group', async () => {
    const report = page.getByTestId('einvoice-report');
    await report.waitFor();
    await expect.poll(() => report.locator('.fields-heading').textContent()).toContain('valid');
    expect(await report.locator('[data-flag="fatal"]').count()).toBe(0);
    // The schema layer: the CII checked against the XSD of its level, named with its verdict.
    await expect.poll(() => report.getByTestId('einvoice-schema').textContent()).toBe('Factur-X 1.07.3 EN16931 XSD (CII D16B): valid');

    await editField(page, 'amount_due', '1,00');
    const fired = report.locator('.einvoice-group[data-term="BT-115"] [data-rule="BR-CO-16"][data-flag="fatal"]');
    await fired.waitFor();
    await expect.poll(() => report.locator('.fields-heading').textContent()).toContain('fatal');
    await expect.poll(() => page.getByTestId('attention-left').textContent()).toMatch(/^[1-9]/);

    await page.locator('[data-testid="fields-panel"] [data-field="total"]').first().click(); // select something else first
    await report.locator('.einvoice-group[data-term="BT-115"] .einvoice-group-head').click();
    await expect.poll(() => fieldValue(page, 'amount_due').getAttribute('class')).toContain('selected');
    await page.screenshot({ path: path.join(artifactsDir, 'einvoice-report.png') });
  });
});
