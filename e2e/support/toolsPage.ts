/**
 * What the e2e tests do with the review tools (table grid, formula editor, changes, palette), and how they read what
 * was saved: through the same HTTP contract the renderer uses.
 */
import type { Page } from 'playwright-core';

export interface SavedRevision {
  id: string;
  text: string;
  author: string;
  createdAt: string;
  parentId: string | null;
}

/** Calls one contract method from inside the page (with the page's own token). */
export function rpc<T>(page: Page, method: string, request: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, request }) => {
      const response = await fetch(`/api/rpc/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' },
        body: JSON.stringify(request),
      });
      const reply = (await response.json()) as { result?: unknown; error?: { message: string } };
      if (reply.error) throw new Error(reply.error.message);
      return reply.result;
    },
    { method, request },
  ) as Promise<T>;
}

export function revisions(page: Page, pageId: string): Promise<SavedRevision[]> {
  return rpc<SavedRevision[]>(page, 'revisions.list', { pageId });
}

export async function selectedPageId(page: Page): Promise<string> {
  const id = await page.locator('[data-testid="page-item"].selected, [data-testid="page-item"][aria-current="true"]').first().getAttribute('data-page-id');
  if (!id) throw new Error('no page is selected');
  return id;
}

/** Puts the editor's cursor at a character offset (as a click in the text would). */
export async function setCursor(page: Page, offset: number): Promise<void> {
  await page.evaluate((at) => {
    const editor = (window as unknown as {
      __rectoEditor: {
        getModel(): { getPositionAt(offset: number): { lineNumber: number; column: number } };
        setPosition(position: { lineNumber: number; column: number }): void;
        focus(): void;
      };
    }).__rectoEditor;
    editor.setPosition(editor.getModel().getPositionAt(at));
    editor.focus();
  }, offset);
}

/** The editor's cursor as a character offset. */
export function cursorOffset(page: Page): Promise<number> {
  return page.evaluate(() => {
    const editor = (window as unknown as {
      __rectoEditor: { getModel(): { getOffsetAt(position: unknown): number }; getPosition(): unknown };
    }).__rectoEditor;
    return editor.getModel().getOffsetAt(editor.getPosition());
  });
}

/** Every outermost `<table>…</table>` of the text, in order. */
export function htmlTables(text: string): string[] {
  return [...text.matchAll(/<table\b[\s\S]*?<\/table>/g)].map((match) => match[0]);
}
