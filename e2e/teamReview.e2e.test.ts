/**
 * Team review in Chromium (issue 40): a project read with `recto ocr`, its accounts made with `recto users`, served
 * with `recto serve --team`; three people in their own browser contexts, each signed in with their personal token.
 * The reviewer corrects the total and is refused the approval by role; an approver corrects a line amount and is
 * refused by four eyes, the refusal naming the rule; another approver approves, and the decision is recorded under
 * her account's name. Working side by side, two accounts: the invoice an approver opened and claimed shows as hers
 * (claimed, open) in a colleague's Invoices view, and the colleague opening it is warned before editing while she sees
 * him on it. Screenshots in e2e-artifacts/team-four-eyes-refused.png and team-claimed-in-queue.png.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './support/chromium.js';
import { editField } from './support/fieldsPage.js';
import { artifactsDir, compiledCli, hasTestdata, noteTestdataSkip, testdata } from './support/paths.js';
import { openPage } from './support/reviewPage.js';
import { watchRpc } from './support/rpcWatch.js';
import { makeHome, startRecto, type RunningRecto } from './support/rectoServer.js';

const invoice = testdata('einvoices/pdfs/EN16931_Physiotherapeut.pdf');
const name = 'EN16931_Physiotherapeut.pdf';
noteTestdataSkip('the team review test (einvoices/)');

/** The compiled `recto` command, as an admin at the server would run it. */
function recto(home: string, ...args: string[]): string {
  const run = spawnSync(process.execPath, [compiledCli, ...args], { env: { ...process.env, RECTO_HOME: home }, encoding: 'utf8', timeout: 240_000 });
  if (run.status !== 0) throw new Error(`recto ${args.join(' ')} exited ${run.status}:\n${run.stderr}`);
  return run.stdout;
}

describe.skipIf(!hasTestdata || !hasChromium)('team review: roles and four eyes in two approvers\u2019 and a reviewer\u2019s browsers', () => {
  const home = makeHome();
  const project = path.join(home, 'team.recto');
  let server: RunningRecto;
  let browser: Browser;
  const people: Record<string, { context: BrowserContext; page: Page }> = {};

  beforeAll(async () => {
    recto(home, 'ocr', invoice, '--out', path.join(home, 'read'), '--project', project);
    const tokens: Record<string, string> = {};
    for (const [person, role] of [['Ada', 'admin'], ['Rae', 'reviewer'], ['Ann', 'approver'], ['Bo', 'approver']]) {
      tokens[person!] = recto(home, 'users', 'add', person!, '--role', role!, '--project', project).trim();
    }
    server = await startRecto({ home, project, team: true });
    browser = await launchChromium();
    for (const person of ['Rae', 'Ann', 'Bo']) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      watchRpc(page);
      await page.goto(`${server.origin}/#token=${tokens[person]}`);
      await page.getByTestId('doc-list').waitFor();
      people[person] = { context, page };
    }
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Ctrl+Enter in the editor: approve the invoice the page belongs to. */
  async function approveShown(page: Page): Promise<void> {
    await page.locator('.editor-pane .monaco-editor').first().click();
    await page.keyboard.press('Control+Enter');
  }

  it('signs each person in under their account, without asking for a reviewer name', async () => {
    for (const [person, role] of [['Rae', 'reviewer'], ['Ann', 'approver'], ['Bo', 'approver']]) {
      const info = await people[person]!.page.evaluate(async () => {
        const response = await fetch('/api/rpc/app.info', { method: 'POST', headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' }, body: '{}' });
        return ((await response.json()) as { result: { user: unknown } }).result.user;
      });
      expect(info).toEqual({ name: person, role });
      await expect(people[person]!.page.getByTestId('reviewer-name-prompt').count()).resolves.toBe(0);
    }
  });

  it('lets the reviewer correct the total, and refuses her the approval naming the role rule', async () => {
    const { page } = people.Rae!;
    await openPage(page, name);
    await page.getByTestId('fields-panel').waitFor();
    await editField(page, 'total', '390,00');
    await approveShown(page);
    await page.getByTestId('approval-refused').waitFor();
    await expect(page.getByTestId('approval-refused-reason').textContent()).resolves.toMatch(/^roles: Rae is a reviewer; approval\.approve needs an approver or admin/);
    await page.keyboard.press('Escape');
    await page.getByTestId('approval-refused').waitFor({ state: 'detached' });
  });

  it('refuses the approver who corrected a line amount last: four eyes, named', async () => {
    const { page } = people.Ann!;
    await openPage(page, name);
    await page.getByTestId('fields-panel').waitFor();
    await editField(page, 'lines.0.amount', '270,00');
    await approveShown(page);
    await page.getByTestId('approval-refused').waitFor();
    await expect(page.getByTestId('approval-refused-reason').textContent()).resolves.toMatch(/^four-eyes: Ann changed Line 1 amount last on this invoice; another approver must approve it/);
    await page.screenshot({ path: path.join(artifactsDir, 'team-four-eyes-refused.png') });
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-testid="page-item"] .page-item-badge.approved').count()).resolves.toBe(0);
  });

  it('lets another approver approve, recorded under her name', async () => {
    const { page } = people.Bo!;
    const pageId = await openPage(page, name).then(() => page.locator(`[data-testid="page-item"][data-document-name="${name}"]`).first().getAttribute('data-page-id'));
    await approveShown(page);
    // The corrections left the invoice disagreeing with its XML: the approval asks why, as for anyone.
    await page.getByTestId('approval-prompt').waitFor();
    await page.getByTestId('approval-reason').fill('Checked against the delivery note');
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="page-item"][data-page-id="${pageId}"] [data-testid="approved-with-exceptions"]`).waitFor();
    const history = await page.evaluate(async (id) => {
      const response = await fetch('/api/rpc/approval.history', { method: 'POST', headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' }, body: JSON.stringify({ pageId: id }) });
      return ((await response.json()) as { result: { reviewer: string; status: string }[] }).result;
    }, pageId);
    expect(history.at(-1)).toMatchObject({ reviewer: 'Bo', status: 'approved-with-exceptions' });
  });

  it("shows one account's claim and presence to another in the Invoices view, and warns him on opening it", async () => {
    const ann = people.Ann!.page;
    const bo = people.Bo!.page;
    await openPage(ann, name);
    const pageId = await ann.locator(`[data-testid="page-item"][data-document-name="${name}"]`).first().getAttribute('data-page-id');
    // Ann claims the invoice she has open, under her own account (the server takes the name from her token).
    const claimed = await ann.evaluate(async (id) => {
      const call = async (method: string, params: unknown) => {
        const response = await fetch(`/api/rpc/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' }, body: JSON.stringify(params) });
        const body = (await response.json()) as { ok: boolean; result: { documentId: string; claimedBy: string | null } };
        if (!body.ok) throw new Error(`${method}: ${JSON.stringify(body)}`);
        return body.result;
      };
      const state = await call('work.state', { pageId: id });
      return call('work.claim', { documentId: state.documentId });
    }, pageId);
    expect(claimed.claimedBy).toBe('Ann');
    await bo.getByTestId('nav-invoices').click();
    await bo.getByTestId('invoice-queue-view').waitFor();
    const row = bo.locator(`[data-testid="invoice-row"][data-document-name="${name}"]`);
    await expect.poll(async () => (await row.textContent()) ?? '', { timeout: 20_000 }).toContain('claimed by Ann');
    await expect.poll(async () => (await row.getByTestId('invoice-open-by').textContent()) ?? '', { timeout: 20_000 }).toContain('Ann');
    await bo.screenshot({ path: path.join(artifactsDir, 'team-claimed-in-queue.png') });
    await bo.getByTestId('nav-review').click();
    await openPage(bo, name);
    await expect.poll(async () => (await bo.getByTestId('work-claimed-by').textContent().catch(() => '')) ?? '', { timeout: 20_000 }).toContain('Ann is working on this invoice');
    await expect.poll(async () => (await ann.getByTestId('work-open-by').textContent().catch(() => '')) ?? '', { timeout: 20_000 }).toContain('Bo');
  });
});
