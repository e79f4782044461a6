/**
 * Typed events from the services to whichever shell is listening (WebSocket clients, Electron windows, the CLI).
 */
import { EventEmitter } from 'node:events';
import type { EventEnvelope, EventName, EventPayload } from '../../app/contract/events.js';

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every open window or socket is one listener; more than ten is normal, not a leak.
    this.emitter.setMaxListeners(0);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.emitter.emit('event', { event, payload } satisfies EventEnvelope<E>);
  }

  subscribe(listener: (envelope: EventEnvelope) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
