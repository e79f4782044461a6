import { describe, expect, it } from 'vitest';
import { processCpuMs } from './processCpu.js';

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
