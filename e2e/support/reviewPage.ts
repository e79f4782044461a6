/**
 * What the e2e tests do with the review screen, in the words of the UI (its data-testids).
 */
import type { Page } from 'playwright-core';

export async function createProjectThroughWelcome(page: Page, projectFile: string): Promise<void> {
  await page.getByTestId('welcome').waitFor();
  await page.getByTestId('project-path').fill(projectFile);
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByTestId('doc-list').waitFor();
}

/** Waits until every listed page has been read (done or error) and returns their statuses. */
export async function waitForPagesRead(page: Page, expectedPages: number, timeoutMs = 180_000): Promise<string[]> {
  await page.waitForFunction(
    (count) => {
      const items = [...document.querySelectorAll('[data-testid="page-item"]')];
      return items.length >= count && items.every((item) => ['done', 'error'].includes(item.getAttribute('data-status') ?? ''));
    },
    expectedPages,
    { timeout: timeoutMs, polling: 250 },
  );
  return page.$$eval('[data-testid="page-item"]', (items) => items.map((item) => item.getAttribute('data-status') ?? ''));
}

/** Clicks the page of the named document and waits for its text in the editor. */
export async function openPage(page: Page, documentName: string, pageNumber = 1): Promise<string> {
  const item = page.locator(`[data-testid="page-item"][data-document-name="${documentName}"]`).nth(pageNumber - 1);
  await item.click();
  await page.getByTestId('page-image').waitFor();
  const pageId = await item.getAttribute('data-page-id');
  // The editor shows this page once its text equals what the main side holds for it (latest revision, else the
  // engine's Markdown) — asked through the same HTTP contract the renderer uses.
  await page.waitForFunction(
    async (id) => {
      const editor = (window as unknown as { __rectoEditor?: { getValue(): string } }).__rectoEditor;
      if (!editor) return false;
      const response = await fetch('/api/rpc/pages.getReview', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' },
        body: JSON.stringify({ pageId: id }),
      });
      const reply = (await response.json()) as {
        result?: { latestRevision: { text: string } | null; extraction: { markdown: string } | null };
      };
      const expected = reply.result?.latestRevision?.text ?? reply.result?.extraction?.markdown;
      return expected !== undefined && expected.length > 0 && editor.getValue() === expected;
    },
    pageId,
    { polling: 500, timeout: 30_000 },
  );
  return editorText(page);
}

export function editorText(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { __rectoEditor: { getValue(): string } }).__rectoEditor.getValue());
}

/** Types through Monaco's model (as an edit, so autosave sees it) and waits for the status bar to say Saved. */
export async function replaceEditorText(page: Page, text: string): Promise<void> {
  await page.evaluate((next) => {
    const editor = (window as unknown as {
      __rectoEditor: {
        getModel(): { getFullModelRange(): unknown };
        executeEdits(source: string, edits: { range: unknown; text: string }[]): void;
      };
    }).__rectoEditor;
    editor.executeEdits('e2e', [{ range: editor.getModel().getFullModelRange(), text: next }]);
  }, text);
  await page.waitForSelector('[data-testid="save-state"][data-state="saved"]', { timeout: 30_000 });
}
