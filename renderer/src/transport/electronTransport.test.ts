import { describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../../../app/contract/events.js';
import type { RectoBridge } from '../rectoBridge.js';
import { createElectronTransport } from './electronTransport.js';

function fakeBridge(reply: unknown): RectoBridge & { emit(envelope: EventEnvelope): void } {
  const listeners = new Set<(envelope: EventEnvelope) => void>();
  return {
    invoke: vi.fn(async () => reply as never),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pathForFile: () => '/tmp/x.pdf',
    emit: (envelope) => listeners.forEach((listener) => listener(envelope)),
  };
}

describe('Electron transport', () => {
  it('sends method and params through the preload and unwraps the reply', async () => {
    const bridge = fakeBridge({ ok: true, result: { cancelled: true } });
    const transport = createElectronTransport(bridge);
    await expect(transport.invoke('jobs.cancel', { jobId: 'j1' })).resolves.toEqual({ cancelled: true });
    expect(bridge.invoke).toHaveBeenCalledWith('jobs.cancel', { jobId: 'j1' });
  });

  it('throws the main side error', async () => {
    const transport = createElectronTransport(fakeBridge({ ok: false, error: { code: 'no-project', message: 'No project is open' } }));
    await expect(transport.invoke('documents.list', {})).rejects.toMatchObject({ code: 'no-project' });
  });

  it('passes events through and unsubscribes', () => {
    const bridge = fakeBridge(null);
    const transport = createElectronTransport(bridge);
    const seen: string[] = [];
    const stop = transport.subscribe((envelope) => seen.push(envelope.event));
    bridge.emit({ event: 'documents.changed', payload: {} });
    stop();
    bridge.emit({ event: 'documents.changed', payload: {} });
    expect(seen).toEqual(['documents.changed']);
  });
});
