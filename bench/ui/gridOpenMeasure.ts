/**
 * bench:ui's `grid_open` measure: the cursor entering a 50-row × 6-column HTML table until the table grid shows its 50
 * body rows (and the header row). The table is appended once to the page on screen (an ordinary edit, saved like any).
 * `npm run bench:grid` measures the same against a 5-row baseline, to the next frame.
 */
import type { Page } from 'playwright-core';
import { pauseBeforeInput, userPaceMs } from './userPace.js';

/** A header row and 50 body rows; the marker finds it again on later calls. */
export function fiftyRowTable(marker: string): string {
  const rows = ['<table>', '<thead>', `<tr><th>${marker}</th><th>Description</th><th>Qty</th><th>Unit</th><th>Unit price</th><th>Amount</th></tr>`, '</thead>', '<tbody>'];
  for (let i = 1; i <= 50; i++) rows.push(`<tr><td>${1000 + i}</td><td>Part ${i}, steel bracket</td><td>${(i % 7) + 1}</td><td>pcs</td><td>&#36;${i}.50</td><td>&#36;${i * 2}.00</td></tr>`);
  rows.push('</tbody>', '</table>');
  return rows.join('\n');
}

const marker = 'Item (bench grid)';
/** Polls every millisecond until `done()` (in the page); the time since `start` or -1 after 10 s. */
const waitInPage = `async (start, done) => { for (;;) { if (done()) return performance.now() - start; if (performance.now() - start > 10000) return -1; await new Promise((r) => setTimeout(r, 1)); } }`;

/** Shaped as uiMeasures.ts's UiMeasure (not imported: uiMeasures lists this one). */
export const gridOpen: { name: string; label: string; targetMs: number | null; run(page: Page, samples: number): Promise<number[]> } = {
  name: 'grid_open',
  label: 'cursor into a 50-row table → grid shown',
  targetMs: 100,
  async run(page, samples) {
    // The grid follows the cursor in the Markdown tab (an earlier measure may have left the preview open).
    await page.getByRole('tab', { name: 'Markdown' }).click();
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      await pauseBeforeInput(page, userPaceMs.cursorMove);
      const ms = await page.evaluate(
        async ({ wait, marker, table }) => {
          const until = eval(wait) as (start: number, done: () => boolean) => Promise<number>;
          type Position = { lineNumber: number; column: number };
          const editor = (window as unknown as {
            __rectoEditor: {
              getValue(): string;
              getModel(): { getPositionAt(offset: number): Position; getFullModelRange(): { endLineNumber: number; endColumn: number } };
              setPosition(position: Position): void;
              executeEdits(source: string, edits: unknown[]): void;
            };
          }).__rectoEditor;
          if (!editor.getValue().includes(marker)) {
            const end = editor.getModel().getFullModelRange();
            editor.executeEdits('bench', [{ range: { startLineNumber: end.endLineNumber, startColumn: end.endColumn, endLineNumber: end.endLineNumber, endColumn: end.endColumn }, text: `\n\n${table}\n` }]);
          }
          // No named helpers in here: tsx would wrap them in a __name() the page does not have.
          const rowsSelector = '[data-testid="grid-table"] tbody tr';
          editor.setPosition(editor.getModel().getPositionAt(0));
          await until(performance.now(), () => document.querySelectorAll(rowsSelector).length === 0);
          const inside = editor.getValue().indexOf(marker);
          const start = performance.now();
          editor.setPosition(editor.getModel().getPositionAt(inside));
          return until(start, () => document.querySelectorAll(rowsSelector).length === 51);
        },
        { wait: waitInPage, marker, table: fiftyRowTable(marker) },
      );
      times.push(ms);
    }
    return times;
  },
};
