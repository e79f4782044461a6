/**
 * What the e2e tests do with the invoice fields panel, in the words of the UI (its data attributes).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { artifactsDir } from './paths.js';
import { rpcReplied } from './rpcWatch.js';

export function fieldValue(page: Page, field: string) {
  return page.locator(`.fields-panel [data-field="${field}"]`);
}

export async function fieldText(page: Page, field: string): Promise<string> {
  return ((await fieldValue(page, field).textContent()) ?? '').replace('✎', '').trim();
}

/** Edits a field inline (Enter opens the editor, Enter saves) and waits for the stored revision. */
export async function editField(page: Page, field: string, entry: string): Promise<void> {
  await fieldValue(page, field).focus();
  await page.keyboard.press('Enter');
  const input = page.locator(`[data-field-input="${field}"]`);
  await input.fill(entry);
  const saved = rpcReplied(page, 'fields.save');
  await input.press('Enter');
  await saved;
}

export function rule(page: Page, name: string) {
  return page.locator(`.rules [data-rule="${name}"]`).first();
}

export async function ruleStatus(page: Page, name: string): Promise<string | null> {
  return rule(page, name).getAttribute('data-status');
}

/** The page the review screen shows: the selected page item's id. */
export async function shownPageId(page: Page): Promise<string | null> {
  return page.locator('[data-testid="page-item"][aria-current="true"], [data-testid="page-item"].selected').first().getAttribute('data-page-id');
}

/** Screenshots of the current state at the sizes the review screen must work at. */
export async function shootSizes(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(artifactsDir, `fields-${name}-${width}x${height}.png`) });
  }
  if (original) await page.setViewportSize(original);
}
