/**
 * The set-ups the e2e tests share: Chromium and the browser shell on a fresh home (startApp); and for most review
 * tests, beyond that a page of the given size, a new project made through the welcome screen, the given files imported
 * through the Import button and read (openReadProject), its requests watched (rpcWatch.ts).
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { artifactsDir } from './paths.js';
import { createProjectThroughWelcome, waitForPagesRead } from './reviewPage.js';
import { startRecto, type RunningRecto } from './rectoServer.js';
import { watchRpc } from './rpcWatch.js';

export interface RunningApp {
  browser: Browser;
  recto: RunningRecto;
  /** Closes the browser and stops the shell. */
  close(): Promise<void>;
}

/** Chromium and `recto serve` on `home` (with a project file to open, or a model pack to offer); the artifacts folder. */
export async function startApp(options: { home: string; project?: string; pack?: string }): Promise<RunningApp> {
  const browser = await launchChromium();
  try {
    const recto = await startRecto(options);
    fs.mkdirSync(artifactsDir, { recursive: true });
    return {
      browser,
      recto,
      close: async () => {
        await browser.close();
        await recto.stop();
      },
    };
  } catch (error) {
    // A set-up that fails half-way leaves no browser behind.
    await browser.close();
    throw error;
  }
}

export interface ReadProject extends RunningApp {
  page: Page;
  /** Each listed page's status once read (`done` or `error`), in the rail's order. */
  statuses: string[];
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
  const app = await startApp({ home });
  try {
    const page = await app.browser.newPage({ viewport });
    watchRpc(page);
    await page.goto(app.recto.url);
    await createProjectThroughWelcome(page, projectFile);
    await page.getByTestId('import-input').setInputFiles(files);
    const statuses = await waitForPagesRead(page, pages, readTimeoutMs);
    return { ...app, page, statuses };
  } catch (error) {
    // A set-up that fails half-way leaves no browser or server behind.
    await app.close();
    throw error;
  }
}
