import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../../app/contract/events.js';
import { contractEvents } from '../../app/contract/events.js';
import { EventBus } from '../events/eventBus.js';
import { LiveReading, liveFlushMs } from './liveReading.js';

afterEach(() => vi.useRealTimers());

describe('LiveReading', () => {
  it('batches tokens into page.reading events that carry the text in order and the decoding figures', () => {
    vi.useFakeTimers();
    const bus = new EventBus();
    const events: EventEnvelope[] = [];
    bus.subscribe((envelope) => events.push(envelope));
    const live = new LiveReading(bus, 'p1');
    live.onEvent({ type: 'token', text: '# Inv' });
    live.onEvent({ type: 'token', text: 'oice' });
    expect(events).toHaveLength(0);
    vi.advanceTimersByTime(liveFlushMs);
    live.onEvent({ type: 'stats', stats: { durationMs: 50, tokens: 12, tokensPerSecond: 240, meanAcceptedLength: 2.5 } });
    live.onEvent({ type: 'token', text: '\n\nTotal' });
    live.flush();
    expect(events.map((e) => e.event)).toEqual(['page.reading', 'page.reading']);
    const payloads = events.map((e) => contractEvents['page.reading'].parse(e.payload));
    expect(payloads.map((p) => p.text).join('')).toBe('# Invoice\n\nTotal');
    expect(payloads.map((p) => p.start)).toEqual([true, false]);
    expect(payloads[1]).toMatchObject({ tokens: 12, tokensPerSecond: 240, meanAcceptedLength: 2.5 });
    live.dispose();
  });
});
