/**
 * The set-up most review tests share: Chromium, the browser shell on a fresh home, a page of the given size, a new
 * project made through the welcome screen, the given files imported through the Import button and read.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { artifactsDir } from './paths.js';
import { createProjectThroughWelcome, waitForPagesRead } from './reviewPage.js';
import { startRecto, type RunningRecto } from './rectoServer.js';

export interface ReadProject {
  browser: Browser;
  recto: RunningRecto;
  page: Page;
  /** Each listed page's status once read (`done` or `error`), in the rail's order. */
  statuses: string[];
  /** Closes the browser and stops the shell. */
  close(): Promise<void>;
}

export interface ReadProjectOptions {
  /** The app's home (makeHome()). */
  home: string;
  projectFile: string;
  /** Paths of the documents to import. */
  files: string[];
  /** How many pages the files have: the set-up waits until that many are read. */
  pages: number;
  viewport: { width: number; height: number };
  /** How long the reading may take (waitForPagesRead's default when absent). */
  readTimeoutMs?: number;
}

export async function openReadProject({ home, projectFile, files, pages, viewport, readTimeoutMs }: ReadProjectOptions): Promise<ReadProject> {
  const browser = await launchChromium();
  let recto: RunningRecto | undefined;
  const close = async () => {
    await browser.close();
    await recto?.stop();
  };
  try {
    recto = await startRecto({ home });
    fs.mkdirSync(artifactsDir, { recursive: true });
    const page = await browser.newPage({ viewport });
    await page.goto(recto.url);
    await createProjectThroughWelcome(page, projectFile);
    await page.getByTestId('import-input').setInputFiles(files);
    const statuses = await waitForPagesRead(page, pages, readTimeoutMs);
    return { browser, recto, page, statuses, close };
  } catch (error) {
    // A set-up that fails half-way leaves no browser or server behind.
    await close();
    throw error;
  }
}
