/**
 * `bench:ui --load N`: each measure's samples taken in rounds alternating without and with the CPU burner, so both
 * figures share the machine's other load, and where the renderer's time goes in each (Chromium's own counters over
 * the samples: script, style recalculation, layout, and the rest of the main thread's tasks; the wait for the main
 * side is what the wall time has beyond the renderer's tasks) and the server process's CPU per sample.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { CpuBurner } from './cpuBurner.js';
import type { UiMeasure } from './uiMeasures.js';
import { processCpuMs } from './processCpu.js';

/** Rounds per condition: alternated off, on, off, on, … */
export const LOAD_ROUNDS = 4;

export interface TimeSplit {
  /** Per sample, ms of the renderer main thread's CPU: JavaScript (React commits, Monaco, the rules), style, layout, all its tasks. */
  script: number;
  style: number;
  layout: number;
  tasks: number;
  /** Per sample, ms of wall time inside those tasks: beyond `tasks`, the thread was ready but had no core. */
  tasksWall: number;
  /** Per sample, ms of the server process's CPU (the requests the input caused; processCpu.ts). */
  server: number;
}

export interface ConditionResult {
  times: number[];
  split: TimeSplit;
}

const metricNames = { script: 'ScriptDuration', style: 'RecalcStyleDuration', layout: 'LayoutDuration', tasks: 'TaskDuration' } as const;

export interface MetricSessions {
  /** Counters in thread time (CPU the main thread got) and in wall time. */
  cpu: CDPSession;
  wall: CDPSession;
  /** The browser shell's server process. */
  serverPid: number;
}

export async function readMetrics(sessions: MetricSessions): Promise<TimeSplit> {
  const read = async (cdp: CDPSession) => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    return (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
  };
  const cpu = await read(sessions.cpu);
  const wall = await read(sessions.wall);
  return {
    script: cpu(metricNames.script),
    style: cpu(metricNames.style),
    layout: cpu(metricNames.layout),
    tasks: cpu(metricNames.tasks),
    tasksWall: wall(metricNames.tasks),
    server: processCpuMs(sessions.serverPid),
  };
}

export function emptySplit(): TimeSplit {
  return { script: 0, style: 0, layout: 0, tasks: 0, tasksWall: 0, server: 0 };
}

/** A split per sample as the tables print it: script/style/layout/tasks cpu/tasks wall/server cpu, whole ms. */
export function splitText(split: TimeSplit, samples = 1): string {
  return [split.script, split.style, split.layout, split.tasks, split.tasksWall, split.server].map((ms) => (ms / samples).toFixed(0)).join('/');
}

export const splitHeader = 'script/style/layout/tasks cpu/tasks wall/server cpu ms';

const addSplit = (sum: TimeSplit, before: TimeSplit, after: TimeSplit): void => {
  for (const key of Object.keys(sum) as (keyof TimeSplit)[]) sum[key] += after[key] - before[key];
};

export async function openMetrics(page: Page, serverPid: number): Promise<MetricSessions> {
  const cpu = await page.context().newCDPSession(page);
  await cpu.send('Performance.enable', { timeDomain: 'threadTicks' });
  const wall = await page.context().newCDPSession(page);
  await wall.send('Performance.enable', { timeDomain: 'timeTicks' });
  return { cpu, wall, serverPid };
}

/** `samples` per condition, split over LOAD_ROUNDS alternating rounds. */
export async function measureUnderLoad(page: Page, cdp: MetricSessions, measure: UiMeasure, samples: number, burner: CpuBurner): Promise<{ off: ConditionResult; on: ConditionResult }> {
  const perRound = Math.max(1, Math.ceil(samples / LOAD_ROUNDS));
  const result = {
    off: { times: [] as number[], split: emptySplit() },
    on: { times: [] as number[], split: emptySplit() },
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
