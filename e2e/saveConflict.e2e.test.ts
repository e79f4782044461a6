/**
 * Nothing lost when two analysts edit one page (docs/architecture.md, "Nothing lost"): two browser contexts on one
 * `recto serve`, both on the sample invoice's page. The first saves; the second's save, based on the revision before,
 * is refused as a conflict and opens the three-way view (what the first changed from the base; theirs beside mine).
 * Keeping mine saves it on the first analyst's revision; a second round saved as an edited merge keeps both edits.
 * A field edited in both (the second's edit box opened before the first saved) is shown with both values and kept as
 * chosen. The page's history lists the kept saves with the choices; a choice that meets a newer revision again opens
 * the view again on that one. Which of the two saves second is the machine's to decide (each autosaves after a pause): the test follows
 * whichever meets the conflict. Screenshots at 1280×720 and 1440×900 left as
 * artifacts. Runs on the bundled sample (no shared test data needed).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentSummary, Revision } from '../app/model/page.js';
import { okDispatch, sessionIn } from '../testing/realInvoiceProject.js';
import { startApp, type RunningApp } from './support/appSession.js';
import { artifactsDir, repoRoot } from './support/paths.js';
import { makeHome } from './support/rectoServer.js';
import { editorText, openPage } from './support/reviewPage.js';
import { editField, fieldText, fieldValue } from './support/fieldsPage.js';
import { watchRpc } from './support/rpcWatch.js';

const sample = path.join(repoRoot, 'resources', 'samples', 'brightline-invoice.pdf');

async function projectWithSample(dir: string): Promise<string> {
  const session = sessionIn(dir);
  const ok = okDispatch(session);
  try {
    const project = path.join(dir, 'conflict.recto');
    await ok('project.create', { path: project });
    await ok('documents.importPaths', { paths: [sample] });
    await session.queue.idle();
    return project;
  } finally {
    await session.dispose();
  }
}

async function rpc<T>(page: Page, method: string, params: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, params }) => {
      const response = await fetch(`/api/rpc/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' },
        body: JSON.stringify(params),
      });
      return ((await response.json()) as { result: unknown }).result;
    },
    { method, params },
  ) as Promise<T>;
}

async function screenshots(page: Page, name: string): Promise<void> {
  for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300); // Monaco lays its diff out again on resize
    await page.screenshot({ path: path.join(artifactsDir, `${name}-${width}x${height}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}


/** Both analysts change the text; the one whose save comes second (`later`) meets the conflict. */
async function bothEdit(pages: Page[], texts: string[]): Promise<{ later: Page; earlier: Page; laterText: string; earlierText: string }> {
  // Both editors dirty before either save is stored: each save is based on the revision both started from.
  await Promise.all(
    pages.map((page, i) =>
      page.evaluate((next) => {
        const editor = (window as unknown as {
          __rectoEditor: { getModel(): { getFullModelRange(): unknown }; executeEdits(source: string, edits: { range: unknown; text: string }[]): void };
        }).__rectoEditor;
        editor.executeEdits('e2e', [{ range: editor.getModel().getFullModelRange(), text: next }]);
      }, texts[i]!),
    ),
  );
  for (const page of pages) await page.keyboard.press('Control+s');
  const which = await Promise.race(pages.map((page, i) => page.getByTestId('conflict-view').waitFor({ timeout: 30_000 }).then(() => i)));
  return { later: pages[which]!, earlier: pages[1 - which]!, laterText: texts[which]!, earlierText: texts[1 - which]! };
}

describe('Two analysts saving one page', () => {
  let app: RunningApp;
  let contexts: BrowserContext[] = [];
  let pages: Page[] = [];
  let documentName: string;
  let pageId: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-e2e-conflict-'));

  beforeAll(async () => {
    const project = await projectWithSample(work);
    app = await startApp({ home: makeHome(), project });
    contexts = [await app.browser.newContext({ viewport: { width: 1280, height: 720 } }), await app.browser.newContext({ viewport: { width: 1280, height: 720 } })];
    pages = await Promise.all(contexts.map((context) => context.newPage()));
    for (const page of pages) {
      watchRpc(page);
      await page.goto(app.recto.url);
    }
    const documents = await rpc<DocumentSummary[]>(pages[0]!, 'documents.list', {});
    documentName = documents[0]!.name;
    pageId = documents[0]!.pages[0]!.id;
    for (const page of pages) await openPage(page, documentName);
  }, 300_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await app?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('shows the later save a three-way view, and keeping mine saves it on theirs', async () => {
    const engineText = await editorText(pages[0]!);
    const { later, laterText, earlierText } = await bothEdit(pages, [`${engineText}\n\nChecked by Ana: total agrees with the order.`, `Reviewed by Ben.\n\n${engineText}`]);
    const view = later.getByTestId('conflict-view');
    expect(await later.getByTestId('save-state').getAttribute('data-state')).toBe('conflict');
    expect(await view.textContent()).toContain('This page changed while you were editing');
    // The page is the earlier save's: nothing was written over it.
    const revisions = await rpc<Revision[]>(later, 'revisions.list', { pageId });
    expect(revisions.map((r) => r.text)).toEqual([earlierText]);
    await later.getByTestId('conflict-merge-diff').locator('.editor.modified .view-lines').waitFor();
    await screenshots(later, 'save-conflict-three-way');

    await later.getByTestId('conflict-keep-mine').click();
    await view.waitFor({ state: 'detached', timeout: 30_000 });
    const after = await rpc<Revision[]>(later, 'revisions.list', { pageId });
    expect(after.map((r) => r.text)).toEqual([earlierText, laterText]);
    expect(after[1]!.parentId).toBe(after[0]!.id);
    expect(await editorText(later)).toBe(laterText);
    expect(await later.getByTestId('save-state').getAttribute('data-state')).toBe('saved');
    expect(await rpc<unknown[]>(later, 'revisions.conflicts', { pageId })).toEqual([]);
  });

  it('saves an edited merge of both on the latest', async () => {
    // The other editor was clean: it follows the saved page, so both start the next round from the same revision.
    const latest = (await rpc<Revision[]>(pages[0]!, 'revisions.list', { pageId })).at(-1)!.text;
    for (const page of pages) {
      await page.waitForFunction((text) => (window as unknown as { __rectoEditor: { getValue(): string } }).__rectoEditor.getValue() === text, latest, { timeout: 30_000 });
    }
    const { later, earlierText } = await bothEdit(pages, [`${latest}\nAna: paid on 3 March.`, `${latest}\nBen: booked to cost centre 4100.`]);
    const earlierLine = earlierText.split('\n').at(-1)!;
    // The merge: the earlier analyst's line added on the right side (mine), below the later one's own.
    await later.locator('[data-testid="conflict-merge-diff"] .editor.modified .view-lines').click();
    await later.keyboard.press('Control+End');
    await later.keyboard.type(`\n${earlierLine}`);
    await screenshots(later, 'save-conflict-merge');
    await later.getByTestId('conflict-save-merge').click();
    await later.getByTestId('conflict-view').waitFor({ state: 'detached', timeout: 30_000 });
    const saved = (await rpc<Revision[]>(later, 'revisions.list', { pageId })).at(-1)!;
    expect(saved.text).toContain('Ana: paid on 3 March.');
    expect(saved.text).toContain('Ben: booked to cost centre 4100.');
    expect(await editorText(later)).toBe(saved.text);
  });

  it('shows a field edited in both with both values, and keeps the one chosen', async () => {
    const [ana, ben] = pages as [Page, Page];
    await fieldValue(ben, 'invoice_number').waitFor({ timeout: 30_000 });
    // Ben opens the edit box on the value both see; Ana saves hers meanwhile; Ben's Enter meets it.
    await fieldValue(ben, 'invoice_number').focus();
    await ben.keyboard.press('Enter');
    await editField(ana, 'invoice_number', 'INV-ANA-1');
    const input = ben.locator('[data-field-input="invoice_number"]');
    await input.fill('INV-BEN-2');
    await input.press('Enter');
    const conflict = ben.locator('[data-field-conflict="invoice_number"]');
    await conflict.waitFor({ timeout: 30_000 });
    expect(await conflict.getByTestId('conflict-theirs-value').textContent()).toBe('INV-ANA-1');
    expect(await conflict.getByTestId('conflict-mine-value').textContent()).toBe('INV-BEN-2');
    expect(await fieldText(ben, 'invoice_number')).toBe('INV-ANA-1');
    await screenshots(ben, 'save-conflict-field');
    await conflict.getByTestId('field-conflict-mine').click();
    await conflict.waitFor({ state: 'detached', timeout: 30_000 });
    await ben.waitForFunction(() => document.querySelector('.fields-panel [data-field="invoice_number"]')?.textContent?.includes('INV-BEN-2'), undefined, { timeout: 30_000 });
    const fields = await rpc<{ revisions: { field: string; newValue: unknown }[] }>(ben, 'fields.document', { pageId });
    expect(fields.revisions.filter((r) => r.field === 'invoice_number').map((r) => r.newValue)).toEqual(['INV-ANA-1', 'INV-BEN-2']);
    // Undo takes back the correction on screen (Ben's), not something newer from elsewhere.
    await ben.locator('.fields-panel button[title^="Undo the last field correction"]').click();
    await ben.waitForFunction(() => document.querySelector('.fields-panel [data-field="invoice_number"]')?.textContent?.includes('INV-ANA-1'), undefined, { timeout: 30_000 });
    expect(await ben.locator('.fields-error').count()).toBe(0);
  });

  it('lists the kept saves in the page’s history with what was chosen', async () => {
    const page = pages[0]!;
    await page.getByTestId('changes-tab').click();
    const kept = page.getByTestId('conflict-item');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conflict-item"]').length >= 2, undefined, { timeout: 30_000 });
    const resolutions = await kept.evaluateAll((items) => items.map((item) => item.getAttribute('data-resolution')));
    expect(resolutions.sort()).toEqual(['merged', 'mine']);
    expect(await kept.first().textContent()).toMatch(/Kept save \(conflict\).*met .*newer revision/);
    await page.getByTestId('revision-list').screenshot({ path: path.join(artifactsDir, 'save-conflict-history.png') });
    await page.getByRole('tab', { name: 'Markdown' }).click();
  });

  it('shows a choice that met a newer revision again as a new conflict, mine being the text chosen', async () => {
    const latest = (await rpc<Revision[]>(pages[0]!, 'revisions.list', { pageId })).at(-1)!.text;
    for (const page of pages) {
      await page.waitForFunction((text) => (window as unknown as { __rectoEditor: { getValue(): string } }).__rectoEditor.getValue() === text, latest, { timeout: 30_000 });
    }
    const { later, earlier, laterText } = await bothEdit(pages, [`${latest}\nAna: third round.`, `${latest}\nBen: third round.`]);
    const view = later.getByTestId('conflict-view');
    const first = await view.getAttribute('data-conflict');
    // The earlier analyst saves once more while the later one looks at the view.
    await earlier.waitForSelector('[data-testid="save-state"][data-state="saved"]', { timeout: 30_000 });
    const again = `${await editorText(earlier)}\nOne more line.`;
    await earlier.evaluate((next) => {
      const editor = (window as unknown as {
        __rectoEditor: { getModel(): { getFullModelRange(): unknown }; executeEdits(source: string, edits: { range: unknown; text: string }[]): void };
      }).__rectoEditor;
      editor.executeEdits('e2e', [{ range: editor.getModel().getFullModelRange(), text: next }]);
    }, again);
    await earlier.keyboard.press('Control+s');
    await expect.poll(async () => (await rpc<Revision[]>(earlier, 'revisions.list', { pageId })).at(-1)!.text).toBe(again);
    await later.getByTestId('conflict-keep-mine').click();
    await later.waitForFunction((id) => document.querySelector('[data-testid="conflict-view"]')?.getAttribute('data-conflict') !== id, first, { timeout: 30_000 });
    const open = await rpc<{ id: string; text: string; theirs: { text: string } }[]>(later, 'revisions.conflicts', { pageId });
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ text: laterText, theirs: { text: again } });
    await later.getByTestId('conflict-keep-mine').click();
    await view.waitFor({ state: 'detached', timeout: 30_000 });
    expect((await rpc<Revision[]>(later, 'revisions.list', { pageId })).at(-1)!.text).toBe(laterText);
  });
});
