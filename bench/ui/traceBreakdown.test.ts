import { describe, expect, it } from 'vitest';
import { rendererMainThreads, selfTimeByName, type TraceEvent } from './traceBreakdown.js';

describe('trace breakdown', () => {
  it('counts self time per event name on the renderer main thread only', () => {
    const events: TraceEvent[] = [
      { name: 'thread_name', ph: 'M', pid: 1, tid: 2, ts: 0, args: { name: 'CrRendererMain' } },
      { name: 'thread_name', ph: 'M', pid: 1, tid: 3, ts: 0, args: { name: 'Compositor' } },
      { name: 'RunTask', ph: 'X', pid: 1, tid: 2, ts: 0, dur: 10_000 },
      { name: 'FunctionCall', ph: 'X', pid: 1, tid: 2, ts: 1_000, dur: 4_000 },
      { name: 'Layout', ph: 'B', pid: 1, tid: 2, ts: 2_000 },
      { name: 'Layout', ph: 'E', pid: 1, tid: 2, ts: 3_000 },
      { name: 'Paint', ph: 'X', pid: 1, tid: 2, ts: 6_000, dur: 2_000 },
      { name: 'Paint', ph: 'X', pid: 1, tid: 3, ts: 6_000, dur: 9_000 },
    ];
    const self = selfTimeByName(events, rendererMainThreads(events));
    expect(Object.fromEntries(self)).toEqual({ RunTask: 4, FunctionCall: 3, Layout: 1, Paint: 2 });
  });
});
