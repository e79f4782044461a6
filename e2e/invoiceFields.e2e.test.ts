/**
 * The invoice fields beside the page, on real e-invoices read from their printed page: the panel lists the number and
 * the total, clicking the total shows its box, a wrong line amount makes BR-CO-10 fail naming the line and fixing it
 * clears it, a correction survives a reload and leaves in the export's fields.jsonl, and approving with the keyboard
 * lands on the next page needing attention. Screenshots of each state at 1280×720 and 1920×1080 in e2e-artifacts/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curationRows, exportFromUi, openCuration } from './support/curationPage.js';
import { editField, fieldText, fieldValue, rule, ruleStatus, shootSizes, shownPageId } from './support/fieldsPage.js';
import { hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { openPage } from './support/reviewPage.js';
import { openReadProject, type ReadProject } from './support/appSession.js';
import { makeHome } from './support/rectoServer.js';

const physio = testdata('einvoices/pdfs/EN16931_Physiotherapeut.pdf');
const rental = testdata('einvoices/pdfs/EN16931_Miete.pdf');
noteTestdataSkip('the invoice fields panel tests (einvoices/)');

interface Truth {
  fields: { invoice_number: string; total: number; lines: { description: string; amount: number }[] };
}

describe.skipIf(!hasTestdata)('invoice fields beside the page', () => {
  let session: ReadProject;
  let page: Page;
  const home = makeHome();
  const projectFile = path.join(home, 'invoices.recto');
  const truth = hasTestdata ? (JSON.parse(fs.readFileSync(testdata('einvoices/truth.json'), 'utf8')) as Record<string, Truth>) : {};
  const physioTruth = truth['EN16931_Physiotherapeut.pdf']?.fields;

  beforeAll(async () => {
    session = await openReadProject({ home, projectFile, files: [physio, rental], pages: 3, viewport: { width: 1440, height: 900 } });
    page = session.page;
    expect(session.statuses.every((status) => status === 'done')).toBe(true);
  });
  afterAll(() => session?.close());

  it('lists the invoice number and total; clicking the total highlights its box', async () => {
    await openPage(page, 'EN16931_Physiotherapeut.pdf');
    await page.getByTestId('fields-panel').waitFor();
    expect(await fieldText(page, 'invoice_number')).toBe(physioTruth!.invoice_number);
    expect(await fieldText(page, 'total')).toBe('380,00');
    // The PDF carries its e-invoice XML: its values are the invoice's, the page's own reading stands beside them, here agreeing.
    await expect(page.locator('[data-page-reading="total"]').textContent()).resolves.toBe('380,00');
    await expect(page.locator('[data-page-reading="invoice_number"]').textContent()).resolves.toBe(physioTruth!.invoice_number);
    // Each line's unit and VAT category with rate, as the XML states them (its two lines: C62, exempt at 0 %).
    await expect(page.locator('[data-testid="line-items"] [data-line-unit]').allTextContents()).resolves.toEqual(['C62', 'C62']);
    await expect(page.locator('[data-testid="line-items"] [data-line-vat]').allTextContents()).resolves.toEqual(['E 0 %', 'E 0 %']);
    await shootSizes(page, 'panel');

    await fieldValue(page, 'total').click();
    const box = page.locator('[data-field-box="total"].selected');
    await box.first().waitFor();
    expect(await box.count()).toBeGreaterThan(0);
    await shootSizes(page, 'total-selected');

    // The reverse: the box carries the field and selects it in the panel (the tax is read on the same page).
    await fieldValue(page, 'tax').click();
    await expect.poll(() => fieldValue(page, 'total').getAttribute('class')).not.toContain('selected');
    await page.locator('[data-field-box="total"]').first().dispatchEvent('click');
    await expect.poll(() => fieldValue(page, 'total').getAttribute('class')).toContain('selected');
  });

  it('a wrong line amount makes BR-CO-10 fail naming the line; fixing it clears it', async () => {
    const lines = physioTruth!.lines;
    expect(await ruleStatus(page, 'BR-CO-10')).toBe('pass');
    await editField(page, 'lines.0.amount', '270,00');
    await expect.poll(() => ruleStatus(page, 'BR-CO-10')).toBe('fail');
    const message = (await rule(page, 'BR-CO-10').textContent()) ?? '';
    expect(message).toContain(`Line 1 (${lines[0]!.description})`);
    // Amounts in the message as the German page prints them.
    expect(message).toContain('390,00');
    await rule(page, 'BR-CO-10').click();
    await shootSizes(page, 'br-co-10-failing');

    // An entry in the wrong number format is refused, not guessed.
    await fieldValue(page, 'lines.0.amount').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-field-input="lines.0.amount"]').fill('260.00');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: "document's format" }).waitFor();
    await shootSizes(page, 'invalid-entry');
    await page.keyboard.press('Escape');

    await editField(page, 'lines.0.amount', '260,00');
    await expect.poll(() => ruleStatus(page, 'BR-CO-10')).toBe('pass');
  });

  it('shows the VAT breakdown and amount due read from the page; an edited VAT amount makes BR-CO-17 fail in the page\'s format', async () => {
    await openPage(page, 'EN16931_Miete.pdf');
    await page.getByTestId('vat-breakdown').waitFor();
    await expect.poll(() => fieldText(page, 'amount_due')).toBe('340,96');
    expect(await fieldText(page, 'tax_breakdown.0.rate')).toBe('19');
    expect(await fieldText(page, 'tax_breakdown.0.base')).toBe('286,52');
    expect(await fieldText(page, 'tax_breakdown.0.amount')).toBe('54,44');
    expect(await ruleStatus(page, 'BR-CO-17')).toBe('pass');
    expect(await ruleStatus(page, 'BR-CO-14')).toBe('pass');
    expect(await ruleStatus(page, 'BR-CO-16')).toBe('pass');
    await editField(page, 'tax_breakdown.0.amount', '55,44');
    await expect.poll(() => ruleStatus(page, 'BR-CO-17')).toBe('fail');
    expect((await rule(page, 'BR-CO-17').textContent()) ?? '').toContain('286,52 × 19 % = 54,44 ≠ VAT amount 55,44');
    await rule(page, 'BR-CO-17').click();
    await shootSizes(page, 'vat-breakdown-failing');
    await editField(page, 'tax_breakdown.0.amount', '54,44');
    await expect.poll(() => ruleStatus(page, 'BR-CO-17')).toBe('pass');
    await openPage(page, 'EN16931_Physiotherapeut.pdf');
  });

  it('a correction survives a reload and appears in the export\'s fields.jsonl', async () => {
    await editField(page, 'buyer', 'Liselotte Müller (geprüft)');
    await page.reload();
    await openPage(page, 'EN16931_Physiotherapeut.pdf');
    await expect.poll(() => fieldText(page, 'buyer')).toBe('Liselotte Müller (geprüft)');
    await shootSizes(page, 'after-reload');

    await openCuration(page);
    const out = path.join(home, 'export');
    const result = await exportFromUi(page, out, { images: 'none' });
    expect(result.state).toBe('done');
    const documents = fs.readFileSync(path.join(out, 'fields.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const exported = documents.find((doc) => doc.invoice_number === physioTruth!.invoice_number)!;
    expect(exported.buyer).toBe('Liselotte Müller (geprüft)');
    expect(exported.total).toBe(380);
    expect(typeof exported.document_id).toBe('string');
    const records = fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, { buyer?: string } | null>);
    const record = records.find((r) => r.fields?.buyer === 'Liselotte Müller (geprüft)');
    expect(record?.fields_engine?.buyer).not.toBe('Liselotte Müller (geprüft)');
    await page.keyboard.press('Escape');
    await page.getByTestId('export-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('nav-review').click();
  });

  it('approving with the keyboard lands on the next page needing attention', async () => {
    await openPage(page, 'EN16931_Physiotherapeut.pdf');
    // Make this page and the other one need attention in a way any reading has: a missing invoice number there.
    const rentalId = await page.locator('[data-testid="page-item"][data-document-name="EN16931_Miete.pdf"]').first().getAttribute('data-page-id');
    const left = page.getByTestId('attention-left');
    await openPage(page, 'EN16931_Miete.pdf');
    await editField(page, 'invoice_number', '');
    await expect.poll(() => ruleStatus(page, 'BR-02')).toBe('fail');
    await openPage(page, 'EN16931_Physiotherapeut.pdf');
    await expect.poll(async () => (await left.textContent()) ?? '').toMatch(/^[1-9]\d* pages? needs? attention/);
    await shootSizes(page, 'before-approve');
    const current = await shownPageId(page);
    const expected = await page.evaluate(async (currentId) => {
      const response = await fetch('/api/rpc/attention.list', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' },
        body: '{}',
      });
      const { result } = (await response.json()) as { result: { items: { pageId: string; documentId: string; reviewStatus: string; signals: unknown[] }[] } };
      const items = result.items;
      const at = items.findIndex((item) => item.pageId === currentId);
      // The invoice is approved whole: the next page needing attention of another document.
      const document = items[at]!.documentId;
      for (let step = 1; step <= items.length; step++) {
        const item = items[(at + step) % items.length]!;
        if (item.documentId !== document && item.signals.length > 0 && item.reviewStatus !== 'approved' && item.reviewStatus !== 'rejected') return item.pageId;
      }
      return null;
    }, current);
    expect(expected).not.toBeNull();
    await page.locator('.editor-pane .monaco-editor').first().click();
    await page.keyboard.press('Control+Enter');
    // The page has exceptions now (the edits above): the approval asks why first, and Enter approves with the reason.
    const prompt = page.getByTestId('approval-prompt');
    if (await prompt.waitFor({ timeout: 5_000 }).then(() => true, () => false)) {
      await page.getByTestId('approval-reason').fill('Checked against the paper original');
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => shownPageId(page)).toBe(expected);
    // Approved, or approved with exceptions where the prompt above asked for a reason (its own badge).
    const approved = page.locator(`[data-testid="page-item"][data-page-id="${current}"] :is(.page-item-badge.approved, [data-testid="approved-with-exceptions"])`);
    await approved.waitFor();
    // The rental invoice's first page lacks its number now: it needs attention, so the walk reaches it.
    expect(rentalId).not.toBeNull();
    await page.getByTestId('approve-next').focus();
    await page.keyboard.press('?');
    await page.getByTestId('shortcut-sheet').waitFor();
    await shootSizes(page, 'shortcuts');
    // The sheet is the keymap: every key the listeners bind is a row (keymap.test.ts checks the whole list).
    await expect(page.locator('[data-testid="shortcut-sheet"] tr[data-command]').count()).resolves.toBeGreaterThanOrEqual(10);
    await expect(page.locator('[data-testid="shortcut-sheet"] tr[data-command="next-attention"] kbd').textContent()).resolves.toBe('Alt+N');
    await page.keyboard.press('Escape');
  });

  it('the curation queue leads with uncorrected pages by their signals, and narrows to one signal', async () => {
    const rentalId = await page.locator('[data-testid="page-item"][data-document-name="EN16931_Miete.pdf"]').first().getAttribute('data-page-id');
    await openCuration(page);
    await page.locator('[data-testid="curation-row"]').first().waitFor();
    await expect(page.getByTestId('curation-sort').inputValue()).resolves.toBe('attention');
    const rows = await curationRows(page);
    const uncorrected = rows.filter((row) => !row.corrected);
    expect(rows.slice(0, uncorrected.length)).toEqual(uncorrected);
    expect(uncorrected.map((row) => row.attention)).toEqual([...uncorrected.map((row) => row.attention)].sort((a, b) => b - a));
    // The rental invoice's number was emptied above: a missing field, and the filter finds it.
    await page.locator('[data-testid="attention-queue"] [data-signal="missing-field"]').click();
    // The rental row was listed before the filter too: wait for the narrowed table (every row with the signal), not for it.
    await page.waitForFunction(
      (id) => {
        const listed = [...document.querySelectorAll('[data-testid="curation-row"]')];
        return listed.some((row) => row.getAttribute('data-page-id') === id) && listed.every((row) => (row.textContent ?? '').includes('Missing field'));
      },
      rentalId,
      { timeout: 30_000 },
    );
    const missing = page.locator('[data-testid="curation-row"]');
    expect(await missing.count()).toBeLessThan(rows.length);
    for (const text of await missing.allTextContents()) expect(text).toContain('Missing field');
    await shootSizes(page, 'curation-signal');
    await page.locator('[data-testid="attention-queue"] [data-signal="missing-field"]').click();
    await page.getByTestId('nav-review').click();
  });
});
