/**
 * What the e2e tests do with the curation view and the export dialog, in the words of the UI (its data-testids).
 */
import type { Page } from 'playwright-core';

export interface CurationRow {
  pageId: string;
  score: number;
  /** The page has a text correction. */
  corrected: boolean;
  /** Its needs-attention weight (app/review/attention.ts attentionWeight). */
  attention: number;
  text: string;
}

export async function openCuration(page: Page): Promise<void> {
  await page.getByTestId('nav-curation').click();
  await page.getByTestId('curation-view').waitFor();
}

export function curationRows(page: Page): Promise<CurationRow[]> {
  return page.$$eval('[data-testid="curation-row"]', (rows) =>
    rows.map((row) => ({
      pageId: row.getAttribute('data-page-id') ?? '',
      score: Number(row.getAttribute('data-score')),
      corrected: row.getAttribute('data-corrected') === 'true',
      attention: Number(row.getAttribute('data-attention')),
      text: row.textContent ?? '',
    })),
  );
}

/** Waits until the queue lists `pageId` with a combined score below 1 (its correction has been scored). */
export async function waitForCorrectedRow(page: Page, pageId: string, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    (id) => {
      const row = document.querySelector(`[data-testid="curation-row"][data-page-id="${id}"]`);
      return row !== null && Number(row.getAttribute('data-score')) < 1;
    },
    pageId,
    { timeout: timeoutMs, polling: 250 },
  );
}

/** Opens the export dialog, exports into `outDir` and returns the result's state ("done" or "failed") and text. */
export async function exportFromUi(page: Page, outDir: string, options: { images?: 'png' | 'none' } = {}): Promise<{ state: string; text: string }> {
  if (!(await page.getByTestId('export-dialog').isVisible())) await page.getByTestId('export-open').click();
  await page.getByTestId('export-out').fill(outDir);
  if (options.images) await page.getByTestId(`export-images-${options.images}`).check();
  await page.getByTestId('export-run').click();
  const result = page.getByTestId('export-result');
  await result.waitFor({ timeout: 120_000 });
  return { state: (await result.getAttribute('data-state')) ?? '', text: (await result.textContent()) ?? '' };
}
