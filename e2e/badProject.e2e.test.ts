/**
 * A file that is not a Recto project is refused with a clear message in the UI, and is not modified.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { makeHome, startRecto, type RunningRecto } from './support/rectoServer.js';

describe('opening something that is not a project', () => {
  let browser: Browser;
  let recto: RunningRecto;
  const home = makeHome();

  beforeAll(async () => {
    browser = await launchChromium();
    recto = await startRecto({ home });
  });
  afterAll(async () => {
    await browser?.close();
    await recto?.stop();
  });

  it('says which file and why, and leaves the file as it was', async () => {
    const notProject = path.join(home, 'minutes.recto');
    const content = 'Minutes of the meeting. '.repeat(20);
    fs.writeFileSync(notProject, content);
    const page = await browser.newPage();
    await page.goto(recto.url);
    await page.getByTestId('project-path').fill(notProject);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/minutes\.recto: not a Recto project/);
    expect(fs.readFileSync(notProject, 'utf8')).toBe(content);
    await page.getByTestId('welcome').waitFor(); // still running, still offering to open a project
  });
});
