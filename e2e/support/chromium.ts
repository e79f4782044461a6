/**
 * Debian's Chromium driven by playwright-core: no browser download, the flags this closed network needs.
 * (Playwright gives each launch a fresh, empty profile of its own.)
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.RECTO_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = fs.existsSync(chromiumPath);

export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) {
    throw new Error(`Chromium is not installed at ${chromiumPath} (npm test installs it with apt-get when run as root)`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
