import { describe, expect, it } from 'vitest';
import { processCpuMs, processKind, threadCpuMs } from './processCpu.js';

describe('processCpuMs', () => {
  it.skipIf(process.platform !== 'linux')('reads this process\'s CPU time, which grows as it works', () => {
    const before = processCpuMs(process.pid);
    const until = Date.now() + 80;
    while (Date.now() < until);
    expect(processCpuMs(process.pid)).toBeGreaterThan(before);
  });

  it('is NaN for a process that is not there', () => {
    expect(processCpuMs(2 ** 30)).toBeNaN();
  });
});

describe('processKind', () => {
  it("names a Chromium process by its --type, a utility by its sub-type's last part, the browser by none", () => {
    expect(processKind(['/usr/lib/chromium/chromium', '--type=renderer', '--enable-features=x'])).toBe('renderer');
    expect(processKind(['/usr/lib/chromium/chromium', '--type=utility', '--utility-sub-type=network.mojom.NetworkService'])).toBe('utility:NetworkService');
    expect(processKind(['/usr/lib/chromium/chromium', '--headless', '--no-sandbox'])).toBe('browser');
  });
});

describe('threadCpuMs', () => {
  it.skipIf(process.platform !== 'linux')("sums this process's threads by name, the main thread among them", () => {
    const until = Date.now() + 50;
    while (Date.now() < until);
    const threads = threadCpuMs(process.pid);
    expect(threads.size).toBeGreaterThan(0);
    expect([...threads.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('is empty for a process that is not there', () => {
    expect(threadCpuMs(2 ** 30).size).toBe(0);
  });
});
