/**
 * A CPU burner for `bench:ui --load N`: N busy threads beside the benchmark (a fractional part is one more thread
 * busy that share of the time), switched on and off between rounds so the figures with and without load come from
 * one run, alternated. Worker threads: they compete for the cores like another program would, without blocking the
 * benchmark's own event loop.
 */
import { Worker } from 'node:worker_threads';

/** One burner thread's cycle: busy for its share of this, idle for the rest. */
const CYCLE_MS = 20;

const workerSource = `
const { workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData.flag);
const idle = new Int32Array(new SharedArrayBuffer(4));
const { duty, cycleMs } = workerData;
let sink = 0;
for (;;) {
  const state = Atomics.load(flag, 0);
  if (state === 2) break;
  if (state === 0) { Atomics.wait(flag, 0, 0, 50); continue; }
  const until = Date.now() + duty * cycleMs;
  while (Date.now() < until) sink += Math.sqrt(sink + 1);
  if (duty < 1) Atomics.wait(idle, 0, 0, (1 - duty) * cycleMs);
}
`;

export interface CpuBurner {
  /** Busy (true) or idle (false) from now on. */
  set(active: boolean): void;
  stop(): Promise<void>;
}

export function startCpuBurner(load: number): CpuBurner {
  if (!Number.isFinite(load) || load <= 0) throw new Error(`--load must be a positive number of cores, not ${load}`);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const duties = [...Array<number>(Math.floor(load)).fill(1), ...(load % 1 > 0 ? [load % 1] : [])];
  const workers = duties.map((duty) => new Worker(workerSource, { eval: true, workerData: { flag: flag.buffer, duty, cycleMs: CYCLE_MS } }));
  return {
    set(active) {
      Atomics.store(flag, 0, active ? 1 : 0);
      Atomics.notify(flag, 0);
    },
    async stop() {
      Atomics.store(flag, 0, 2);
      Atomics.notify(flag, 0);
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
