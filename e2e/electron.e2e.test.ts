/**
 * The Electron shell, where Electron's binary exists (not on machines that cannot download it: then this says so
 * and skips). Checks that the window starts, shows the welcome screen, and that the renderer has no Node.
 */
import fs from 'node:fs';
import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeHome } from './support/rectoServer.js';
import { repoRoot } from './support/paths.js';

function electronBinary(): string | null {
  const pathFile = path.join(repoRoot, 'node_modules', 'electron', 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(repoRoot, 'node_modules', 'electron', 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

const binary = electronBinary();
const display = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
if (!binary) console.warn("SKIPPED: Electron e2e: Electron's binary is not installed here (its download host is unreachable).");
else if (!display) console.warn('SKIPPED: Electron e2e: no display (run under xvfb-run to include it).');

describe.skipIf(!binary || !display)('the Electron shell', () => {
  it('opens a sandboxed window with the welcome screen and no Node in the renderer', async () => {
    const app = await electron.launch({
      executablePath: binary!,
      args: [repoRoot],
      env: { ...process.env, RECTO_HOME: makeHome() } as Record<string, string>,
    });
    try {
      const window = await app.firstWindow();
      await window.getByTestId('welcome').waitFor();
      const exposure = await window.evaluate(() => ({
        require: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
        bridge: Object.keys((globalThis as { rectoBridge?: object }).rectoBridge ?? {}).sort(),
      }));
      expect(exposure).toEqual({ require: 'undefined', process: 'undefined', bridge: ['invoke', 'onEvent', 'pathForFile'] });
      const info = await window.evaluate(() =>
        (globalThis as unknown as { rectoBridge: { invoke(m: string, p: unknown): Promise<unknown> } }).rectoBridge.invoke('app.info', {}),
      );
      expect(info).toMatchObject({ ok: true, result: { shell: 'electron' } });
    } finally {
      await app.close();
    }
  });
});
