/**
 * A Chromium trace (Playwright's `browser.startTracing`, DevTools timeline categories) read as the renderer main
 * thread's time by kind of work: the self time of each trace event name (style recalculation, layout, paint,
 * scripts, garbage collection, image decoding, …), so the part of a CPU profile that is "(program)" — native work
 * outside JavaScript — is named. Only complete events (`ph: 'X'`) and begin/end pairs on the main thread count;
 * an event's self time is its duration less the events nested in it.
 */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/** The renderer main threads' ids (`pid:tid`) in the trace, from its thread-name metadata. */
export function rendererMainThreads(events: TraceEvent[]): Set<string> {
  return new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
}

/** Self time in ms per event name on the given threads. */
export function selfTimeByName(events: TraceEvent[], threads: Set<string>): Map<string, number> {
  const spans: { name: string; start: number; end: number; thread: string }[] = [];
  const open = new Map<string, { name: string; start: number }[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (!threads.has(thread)) continue;
    if (event.ph === 'X' && event.dur !== undefined) spans.push({ name: event.name, start: event.ts, end: event.ts + event.dur, thread });
    else if (event.ph === 'B') (open.get(thread) ?? open.set(thread, []).get(thread)!).push({ name: event.name, start: event.ts });
    else if (event.ph === 'E') {
      const begun = open.get(thread)?.pop();
      if (begun) spans.push({ name: begun.name, start: begun.start, end: event.ts, thread });
    }
  }
  // Nested spans: sorted by start (longer first on a tie), each one's time is taken from the innermost span open.
  spans.sort((a, b) => a.thread.localeCompare(b.thread) || a.start - b.start || b.end - a.end);
  const self = new Map<string, number>();
  const stack: { name: string; end: number; thread: string }[] = [];
  const add = (name: string, us: number) => self.set(name, (self.get(name) ?? 0) + us / 1000);
  for (const span of spans) {
    while (stack.length > 0 && (stack.at(-1)!.thread !== span.thread || stack.at(-1)!.end <= span.start)) stack.pop();
    const parent = stack.at(-1);
    const duration = span.end - span.start;
    add(span.name, duration);
    if (parent) add(parent.name, -Math.min(duration, parent.end - span.start));
    stack.push(span);
  }
  return self;
}
