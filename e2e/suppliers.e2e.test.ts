/**
 * The Suppliers view in the browser shell, on a project whose analyst corrected one real e-invoice of a supplier
 * (einvoice-corpus, a development family) and read its next invoice through memory: the next invoice's fields say
 * which values memory read and link the invoice that taught them; the supplier is listed with the page it learned
 * from and the fields it reads, renames with Enter (Escape puts the name back), and is forgotten after a confirmation
 * and brought back by Undo. Screenshots at 1280×720 and 1440×900 left as artifacts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../app/model/page.js';
import { contractOf, sessionIn } from '../testing/realInvoiceProject.js';
import { startApp, type RunningApp } from './support/appSession.js';
import { artifactsDir, noteTestdataSkip, testdata } from './support/paths.js';
import { makeHome } from './support/rectoServer.js';
import { openPage } from './support/reviewPage.js';

const pdfs = testdata('einvoice-corpus/pdfs');
const invoices = [
  'correct-intarsys-EN16931__zugferd_2p0_EN16931_Innergemeinschaftliche_Lieferungen.pdf',
  'correct-intarsys-EXTENDED__zugferd_2p0_EXTENDED_InnergemeinschLieferungMehrereBestellungen.pdf',
].map((name) => path.join(pdfs, name));
const available = invoices.every((file) => fs.existsSync(file));
noteTestdataSkip('the Suppliers view on real e-invoices');

async function projectWithMemory(dir: string): Promise<string> {
  const session = sessionIn(dir);
  const dispatch = contractOf(session);
  const ok = async <T>(method: Parameters<typeof dispatch>[0], params: unknown): Promise<T> => {
    const reply = await dispatch(method, params as never);
    if (!reply.ok) throw new Error(`${method}: ${JSON.stringify(reply)}`);
    return reply.result as T;
  };
  try {
    const project = path.join(dir, 'suppliers.recto');
    await ok('project.create', { path: project });
    await ok('documents.importPaths', { paths: [invoices[0]] });
    await session.queue.idle();
    const [first] = await ok<DocumentSummary[]>('documents.list', {});
    await ok('fields.save', { pageId: first!.pages[0]!.id, field: 'seller', value: 'Global Supplies Ltd.' });
    await ok('documents.importPaths', { paths: [invoices[1]] });
    await session.queue.idle();
    return project;
  } finally {
    await session.dispose();
  }
}

describe.skipIf(!available)('Suppliers view', () => {
  let app: RunningApp;
  let page: Page;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-e2e-suppliers-'));

  beforeAll(async () => {
    const project = await projectWithMemory(work);
    app = await startApp({ home: makeHome(), project });
    page = await app.browser.newPage({ viewport: { width: 1280, height: 720 } });
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('shows which values memory read and opens the invoice that taught them', async () => {
    const [firstName, nextName] = invoices.map((file) => path.basename(file));
    await page.goto(app.recto.url);
    await openPage(page, nextName!);
    const seller = page.locator('[data-memory-source="seller"]');
    await seller.waitFor({ timeout: 30_000 });
    expect(await seller.getAttribute('title')).toBe(`Read through the supplier memory of Global Supplies Ltd., taught by ${firstName}: open it`);
    const summary = page.getByTestId('memory-summary');
    expect(await summary.textContent()).toContain('read through the memory of Global Supplies Ltd., taught by');
    expect(await summary.getByRole('button').textContent()).toBe(firstName);
    for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
      await page.setViewportSize({ width, height });
      await summary.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(artifactsDir, `fields-memory-source-${width}x${height}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    await seller.click();
    const current = page.locator('[data-testid="page-item"][aria-current="true"]');
    await expect.poll(() => current.getAttribute('data-document-name'), { timeout: 30_000 }).toBe(firstName);
    // The teaching invoice's own values came from its page: none says memory.
    await expect.poll(() => page.locator('[data-memory-source]').count(), { timeout: 30_000 }).toBe(0);
  }, 120_000);

  it('lists what memory learned, renames and forgets a supplier', async () => {
    await page.goto(app.recto.url);
    await page.getByTestId('nav-suppliers').click();
    const row = page.getByTestId('supplier-row');
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    expect(await row.getByLabel('Supplier name').inputValue()).toBe('Global Supplies Ltd.');
    expect(await row.textContent()).toContain('total');
    // Its own VAT ID, never the buyer's (printed under "Käufer/Leistungsempfänger" on the same page).
    const ids = await row.getByTestId('supplier-ids').textContent();
    expect(ids).toContain('VAT GB123456789');
    expect(ids).not.toContain('DE123456789');
    await page.screenshot({ path: path.join(artifactsDir, 'suppliers-1280x720.png') });
    // Escape puts the name back; Enter renames.
    const nameInput = () => page.getByTestId('supplier-row').getByLabel('Supplier name');
    await nameInput().fill('Global Supplies typo');
    await nameInput().press('Escape');
    expect(await nameInput().inputValue()).toBe('Global Supplies Ltd.');
    await nameInput().fill('Global Supplies (UK)');
    await nameInput().press('Enter');
    await expect.poll(() => page.getByTestId('supplier-row').getByRole('button', { name: 'Rename' }).count()).toBe(0);
    await page.reload();
    await page.getByTestId('nav-suppliers').click();
    await expect.poll(() => nameInput().inputValue(), { timeout: 30_000 }).toBe('Global Supplies (UK)');

    // Forget asks first; Cancel keeps the supplier.
    await page.getByTestId('supplier-row').getByRole('button', { name: 'Forget' }).click();
    const confirm = page.getByTestId('supplier-forget-confirm');
    expect(await confirm.textContent()).toContain('Forget Global Supplies (UK)');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('supplier-row').count()).toBe(1);
    await page.getByTestId('supplier-row').getByRole('button', { name: 'Forget' }).click();
    for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: path.join(artifactsDir, `suppliers-forget-confirm-${width}x${height}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    await confirm.getByRole('button', { name: 'Forget supplier' }).click();
    await expect.poll(() => page.getByTestId('supplier-row').count()).toBe(0);
    const forgotten = page.getByTestId('supplier-forgotten');
    expect(await forgotten.textContent()).toContain('Forgot Global Supplies (UK)');
    await page.screenshot({ path: path.join(artifactsDir, 'suppliers-forgotten-1280x720.png') });

    // Undo brings it back as it was: its name, and what it reads.
    await forgotten.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.getByTestId('supplier-row').count()).toBe(1);
    expect(await nameInput().inputValue()).toBe('Global Supplies (UK)');
    expect(await page.getByTestId('supplier-row').textContent()).toContain('total');
    expect(await page.getByTestId('supplier-forgotten').count()).toBe(0);
  }, 120_000);
});
