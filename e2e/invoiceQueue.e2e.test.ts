/**
 * The invoice queue in Chromium, on five real e-invoices: one row per invoice (supplier, number, total, due, waiting,
 * status, exceptions, assignee); headers sort both ways; the filters narrow and their counts equal the rows they show
 * ("N need attention" among them); Alt+N / Alt+P from an invoice opened there follow the queue's visible order; clean
 * invoices are selected and approved in one action with one confirmation; an invoice is assigned; another person's
 * claim warns on the review screen; a change made elsewhere shows live. Screenshots in e2e-artifacts/invoices-*-{1280x720,1440x900}.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownPageId } from './support/fieldsPage.js';
import { artifactsDir, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { openReadProject, type ReadProject } from './support/appSession.js';
import { makeHome } from './support/rectoServer.js';
import { rpc } from './support/toolsPage.js';

const invoices = ['EN16931_Physiotherapeut.pdf', 'EN16931_Miete.pdf', 'acme_invoice-42_ZUGFeRD.pdf', 'Facture_UE_EN16931.pdf', 'EN16931_OEPNV.pdf'];
noteTestdataSkip('the invoice queue tests (einvoices/)');

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];

async function shoot(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(artifactsDir, `invoices-${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(SIZES[0]!);
}

const rows = (page: Page) =>
  page.$$eval('[data-testid="invoice-row"]', (list) =>
    list.map((row) => ({
      documentName: row.getAttribute('data-document-name') ?? '',
      clean: row.getAttribute('data-clean') === 'true',
      supplier: row.querySelector('[data-testid="invoice-supplier"]')?.textContent ?? '',
      total: row.querySelector('[data-testid="invoice-total"]')?.textContent ?? '',
      status: row.querySelector('[data-testid="invoice-status"]')?.textContent ?? '',
      exceptions: Number(row.querySelector('[data-testid="invoice-exceptions"]')?.textContent ?? 'NaN'),
    })),
  );
const chipCount = async (page: Page, testId: string) => Number(await page.getByTestId(testId).locator('.chip-count').textContent());
const shownDocument = async (page: Page) => page.locator(`[data-testid="page-item"][data-page-id="${await shownPageId(page)}"]`).getAttribute('data-document-name');

async function openInvoices(page: Page): Promise<void> {
  await page.getByTestId('nav-invoices').click();
  await page.getByTestId('invoice-queue-view').waitFor();
  await expect.poll(async () => (await rows(page)).length).toBe(invoices.length);
}

describe.skipIf(!hasTestdata)('the invoice queue', () => {
  let session: ReadProject;
  let page: Page;
  let consoleErrors: string[] = [];
  /** The queue's "N need attention" as the first test read it. */
  let needAttention = -1;
  const home = makeHome();

  beforeAll(async () => {
    session = await openReadProject({ home, projectFile: path.join(home, 'queue.recto'), files: invoices.map((n) => testdata(`einvoices/pdfs/${n}`)), pages: 10, viewport: SIZES[0]!, readTimeoutMs: 600_000 });
    page = session.page;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    consoleErrors = errors;
    await page.getByTestId('reviewer-name-prompt').waitFor();
    await page.getByTestId('reviewer-name').fill('Ada Auditor');
    await page.getByTestId('reviewer-name-prompt').getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('reviewer-name-prompt').waitFor({ state: 'detached' });
  }, 700_000);
  afterAll(() => session?.close());

  it('one row per invoice; each filter chip counts the rows it shows, "N need attention" among them', async () => {
    await openInvoices(page);
    const all = await rows(page);
    expect(all.every((r) => r.supplier !== '' && r.total !== '—')).toBe(true);
    const needText = await page.getByTestId('invoice-need-attention').textContent();
    const need = Number(needText!.match(/^(\d+)/)![1]);
    needAttention = need;
    for (const [chip, expected] of [
      ['invoice-filter-attention', need],
      ['invoice-filter-clean', null],
      ['invoice-filter-exceptions', null],
      ['invoice-filter-unassigned', null],
    ] as const) {
      const count = await chipCount(page, chip);
      if (expected !== null) expect(count).toBe(expected);
      await page.getByTestId(chip).click();
      await expect.poll(async () => (await rows(page)).length).toBe(count);
      await page.getByTestId(chip === 'invoice-filter-unassigned' ? chip : 'invoice-filter-all').click();
    }
    // acme's page disagrees with its XML: an exception, so it needs attention and is not clean.
    const acme = (await rows(page)).find((r) => r.documentName === 'acme_invoice-42_ZUGFeRD.pdf')!;
    expect(acme.exceptions).toBeGreaterThan(0);
    expect(acme.clean).toBe(false);
    await page.getByTestId('invoice-filter-text').fill('acme');
    await expect.poll(async () => (await rows(page)).map((r) => r.documentName)).toEqual(['acme_invoice-42_ZUGFeRD.pdf']);
    await page.getByTestId('invoice-filter-text').fill('');
    await shoot(page, 'queue');
  });

  it('sorts on a column both ways', async () => {
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
    await page.getByTestId('invoice-sort-supplier').click();
    const ascending = (await rows(page)).map((r) => r.supplier);
    expect(ascending).toEqual([...ascending].sort(collator.compare));
    await page.getByTestId('invoice-sort-supplier').click();
    await expect.poll(async () => (await rows(page)).map((r) => r.supplier)).toEqual([...ascending].reverse());
  });

  it('Alt+N and Alt+P from an invoice opened in the queue follow the queue\'s visible order', async () => {
    const order = (await rows(page)).map((r) => r.documentName);
    await page.locator('[data-testid="invoice-row"]').first().click();
    await page.getByTestId('page-image').waitFor();
    await expect.poll(() => shownDocument(page)).toBe(order[0]);
    // The review bar counts the invoices of the Invoices view that need attention, as its "N need attention" does.
    const need = Number((await page.getByTestId('attention-left').textContent())!.match(/^(\d+) invoices? needs? attention \(Invoices view\)$/)![1]);
    expect(need).toBe(needAttention);
    for (const expected of [order[1], order[2]]) {
      await page.keyboard.press('Alt+n');
      await expect.poll(() => shownDocument(page)).toBe(expected);
    }
    await page.keyboard.press('Alt+p');
    await expect.poll(() => shownDocument(page)).toBe(order[1]);
  });

  it('selects the clean invoices and approves them all with one confirmation, each as a whole', async () => {
    await openInvoices(page);
    const clean = (await rows(page)).filter((r) => r.clean).map((r) => r.documentName);
    expect(clean.length).toBeGreaterThan(0);
    await page.getByTestId('invoice-select-clean').click();
    await expect.poll(() => page.getByTestId('invoice-selected-count').textContent()).toBe(`${clean.length} selected`);
    await page.getByTestId('invoice-approve-clean').click();
    await page.getByTestId('bulk-approve-dialog').waitFor();
    await shoot(page, 'bulk-confirm');
    await page.getByTestId('bulk-approve-confirm').click();
    await expect.poll(() => page.getByTestId('invoice-outcome').textContent()).toContain(`Approved ${clean.length} invoice`);
    await expect.poll(async () => (await rows(page)).filter((r) => clean.includes(r.documentName)).map((r) => r.status)).toEqual(clean.map(() => 'Approved'));
    // Every page of each approved invoice is approved (the unit of approval is the invoice).
    const documents = await rpc<{ name: string; pages: { reviewStatus: string }[] }[]>(page, 'documents.list', {});
    for (const doc of documents.filter((d) => clean.includes(d.name))) expect(doc.pages.every((p) => p.reviewStatus === 'approved')).toBe(true);
    expect(await chipCount(page, 'invoice-filter-clean')).toBe(0);
    await shoot(page, 'bulk-approved');
  });

  it('assigns an invoice, and "Unassigned" / the assignee filter follow', async () => {
    const unassigned = await chipCount(page, 'invoice-filter-unassigned');
    await page.locator('[data-testid="invoice-row"][data-document-name="acme_invoice-42_ZUGFeRD.pdf"] [data-testid="invoice-select"]').check();
    await page.getByTestId('invoice-assign-to').fill('Bo Bookkeeper');
    await page.getByTestId('invoice-assign').click();
    await expect.poll(() => chipCount(page, 'invoice-filter-unassigned')).toBe(unassigned - 1);
    await page.getByTestId('invoice-filter-assignee').selectOption('Bo Bookkeeper');
    await expect.poll(async () => (await rows(page)).map((r) => r.documentName)).toEqual(['acme_invoice-42_ZUGFeRD.pdf']);
    await page.getByTestId('invoice-filter-assignee').selectOption('');
    // A change made elsewhere (another window, another person) shows without reloading: the queue refetches on events.
    const other = (await rpc<{ rows: { documentId: string; documentName: string }[] }>(page, 'invoices.queue', {})).rows.find((r) => r.documentName === 'Facture_UE_EN16931.pdf')!;
    await rpc(page, 'work.assign', { documentId: other.documentId, assignee: 'Cy Controller' });
    await expect.poll(() => page.locator('[data-testid="invoice-row"][data-document-name="Facture_UE_EN16931.pdf"]').textContent()).toContain('Cy Controller');
  });

  it("another person's claim warns on the review screen before editing, and can be taken over", async () => {
    const acme = (await rpc<{ rows: { documentId: string; documentName: string }[] }>(page, 'invoices.queue', {})).rows.find((r) => r.documentName === 'acme_invoice-42_ZUGFeRD.pdf')!;
    // Bo claims it from the same workstation (the reviewer name is who claims).
    await rpc(page, 'settings.set', { authorName: 'Bo Bookkeeper' });
    await rpc(page, 'work.claim', { documentId: acme.documentId });
    await rpc(page, 'settings.set', { authorName: 'Ada Auditor' });
    await page.locator('[data-testid="invoice-row"][data-document-name="acme_invoice-42_ZUGFeRD.pdf"]').click();
    await page.getByTestId('work-claimed-by').waitFor();
    expect(await page.getByTestId('work-claimed-by').textContent()).toContain('Bo Bookkeeper is working on this invoice');
    await shoot(page, 'claimed-by-other');
    await page.getByTestId('work-take-over').click();
    await page.getByTestId('work-claimed-by').waitFor({ state: 'detached' });
    const history = await rpc<{ action: string; person: string; by: string }[]>(page, 'work.history', { documentId: acme.documentId });
    expect(history.map((e) => `${e.action}:${e.person}:${e.by}`)).toEqual(['assigned:Bo Bookkeeper:Ada Auditor', 'claimed:Bo Bookkeeper:Bo Bookkeeper', 'released:Bo Bookkeeper:Ada Auditor', 'claimed:Ada Auditor:Ada Auditor']);
  });

  it('left no error in the page on the way', () => {
    expect(consoleErrors).toEqual([]);
  });
});
