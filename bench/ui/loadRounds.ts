/**
 * `bench:ui --load N`: each measure's samples taken in rounds alternating without and with the CPU burner, so both
 * figures share the machine's other load, and where the renderer's time goes in each (Chromium's own counters over
 * the samples: script, style recalculation, layout, and the rest of the main thread's tasks; the wait for the main
 * side is what the wall time has beyond the renderer's tasks).
 */
import type { CDPSession, Page } from 'playwright-core';
import type { CpuBurner } from './cpuBurner.js';
import type { UiMeasure } from './uiMeasures.js';

/** Rounds per condition: alternated off, on, off, on, … */
export const LOAD_ROUNDS = 4;

export interface TimeSplit {
  /** Per sample, ms: JavaScript (React commits, Monaco, the rules), style, layout, all main-thread tasks. */
  script: number;
  style: number;
  layout: number;
  tasks: number;
}

export interface ConditionResult {
  times: number[];
  split: TimeSplit;
}

const metricNames = { script: 'ScriptDuration', style: 'RecalcStyleDuration', layout: 'LayoutDuration', tasks: 'TaskDuration' } as const;

async function readMetrics(cdp: CDPSession): Promise<TimeSplit> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const value = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
  return { script: value(metricNames.script), style: value(metricNames.style), layout: value(metricNames.layout), tasks: value(metricNames.tasks) };
}

const addSplit = (sum: TimeSplit, before: TimeSplit, after: TimeSplit): void => {
  for (const key of Object.keys(sum) as (keyof TimeSplit)[]) sum[key] += after[key] - before[key];
};

export async function openMetrics(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  return cdp;
}

/** `samples` per condition, split over LOAD_ROUNDS alternating rounds. */
export async function measureUnderLoad(page: Page, cdp: CDPSession, measure: UiMeasure, samples: number, burner: CpuBurner): Promise<{ off: ConditionResult; on: ConditionResult }> {
  const perRound = Math.max(1, Math.ceil(samples / LOAD_ROUNDS));
  const result = {
    off: { times: [] as number[], split: { script: 0, style: 0, layout: 0, tasks: 0 } },
    on: { times: [] as number[], split: { script: 0, style: 0, layout: 0, tasks: 0 } },
  };
  for (let round = 0; round < LOAD_ROUNDS; round++) {
    for (const condition of ['off', 'on'] as const) {
      burner.set(condition === 'on');
      const before = await readMetrics(cdp);
      result[condition].times.push(...(await measure.run(page, perRound)));
      addSplit(result[condition].split, before, await readMetrics(cdp));
    }
  }
  burner.set(false);
  for (const condition of [result.off, result.on]) {
    for (const key of Object.keys(condition.split) as (keyof TimeSplit)[]) condition.split[key] /= condition.times.length;
  }
  return result;
}
