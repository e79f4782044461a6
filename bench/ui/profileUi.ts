/**
 * `npx tsx bench/ui/profileUi.ts [--measure page_switch] [--samples 30] [--save FILE.cpuprofile]`: where the renderer's main thread spends a
 * bench:ui measure — a V8 CPU profile (CDP `Profiler`) over the samples, printed as self time per function and per
 * source file. Build the renderer unminified for readable names: `npx vite build --minify false`.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../../e2e/support/chromium.js';
import { makeHome, startRecto } from '../../e2e/support/rectoServer.js';
import { createUiBenchProject } from './uiBenchProject.js';
import { uiMeasures } from './uiMeasures.js';

const { values } = parseArgs({ options: { measure: { type: 'string' }, samples: { type: 'string' }, top: { type: 'string' }, save: { type: 'string' } } });
const measure = uiMeasures.find((m) => m.name === (values.measure ?? 'page_switch'));
if (!measure) throw new Error(`no measure ${values.measure}; one of ${uiMeasures.map((m) => m.name).join(', ')}`);
const samples = Number(values.samples ?? 30);
const top = Number(values.top ?? 40);

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-profile-ui-'));
const home = makeHome();
const project = await createUiBenchProject(dir, 60, path.join(home, 'cache'));
const recto = await startRecto({ home, project });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(recto.url);
  await page.locator('[data-testid="page-item"]').first().click();
  await page.waitForFunction(() => ((window as unknown as { __rectoEditor?: { getValue(): string } }).__rectoEditor?.getValue() ?? '').includes('INV-'));
  await page.locator('.fields-panel [data-field="invoice_number"]').waitFor();
  await measure.run(page, 3);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const requests = new Map<string, number>();
  page.on('request', (request) => {
    const key = new URL(request.url()).pathname.replace(/^\/api\/rpc\//, 'rpc ').replace(/\/pages\/.*/, '/pages/…');
    requests.set(key, (requests.get(key) ?? 0) + 1);
  });
  const times = await measure.run(page, samples);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  // The whole profile, for Chromium's DevTools (Performance → Load profile) or a caller-by-caller look.
  if (values.save) fs.writeFileSync(values.save, JSON.stringify(profile));
  console.log(`${measure.name}: ${samples} samples, p50 ${[...times].sort((a, b) => a - b)[Math.floor(samples / 2)]!.toFixed(1)} ms`);
  console.log('requests per sample:', [...requests].map(([k, n]) => `${k} ${(n / samples).toFixed(2)}`).join(', '));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i]! / 1000));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    const file = node.callFrame.url.split('/').pop() || '(native)';
    const key = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title} (ms per sample)`);
    for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(ms / samples).toFixed(2).padStart(8)}  ${key}`);
  };
  print('self time by function', byFunction);
  print('self time by file', byFile);
  // Inclusive time of each function (counted once per stack), to see which component or library call owns the time.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = nodeById.get(at)!.callFrame;
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + profile.timeDeltas[i]! / 1000);
      seen.add(key);
    }
  });
  print('inclusive time by function', inclusive);
} finally {
  await browser.close();
  await recto.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
}
