/**
 * What every bench/ui run stands on: a generated project of `pages` invoices (uiBenchProject.ts, its page images and
 * their screen copies in the server's cache), the browser shell serving it, Debian's Chromium — and their removal,
 * folders included, however the run ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../e2e/support/chromium.js';
import { makeHome, startRecto, type RunningRecto } from '../../e2e/support/rectoServer.js';
import { createUiBenchProject } from './uiBenchProject.js';

export interface BenchApp {
  recto: RunningRecto;
  browser: Browser;
  /** Stops the browser and the server and removes the project and the server's home. */
  close(): Promise<void>;
}

export async function startBenchApp(pages: number): Promise<BenchApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-ui-'));
  const home = makeHome();
  const remove = () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  };
  try {
    const project = await createUiBenchProject(dir, pages, path.join(home, 'cache'));
    const recto = await startRecto({ home, project });
    const browser = await launchChromium().catch(async (error: unknown) => {
      await recto.stop();
      throw error;
    });
    return {
      recto,
      browser,
      async close() {
        try {
          await browser.close();
          await recto.stop();
        } finally {
          remove();
        }
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Waits until the review screen shows a bench page: its text in the editor and its invoice number in the fields. */
export async function waitForBenchPage(page: Page): Promise<void> {
  await page.waitForFunction(() => ((window as unknown as { __rectoEditor?: { getValue(): string } }).__rectoEditor?.getValue() ?? '').includes('INV-'));
  await page.locator('.fields-panel [data-field="invoice_number"]').waitFor();
}

/** A tab at bench:ui's size on the review screen, the `index`-th page open. */
export async function openBenchPage(app: BenchApp, index = 0): Promise<Page> {
  const page = await app.browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(app.recto.url);
  await page.getByTestId('doc-list').waitFor();
  await page.locator('[data-testid="page-item"]').nth(index).click();
  await waitForBenchPage(page);
  return page;
}
