/**
 * Forwards an engine's live events for one page (decoded text, progress, decoding figures) to the event bus as
 * `page.reading` events, batched: a token arrives every few milliseconds, a renderer needs a few updates a second.
 */
import type { PageReading } from '../../app/contract/events.js';
import type { EngineEvent } from '../../app/model/engine.js';
import type { EventBus } from '../events/eventBus.js';

/** Longest wait between a decoded token and the event carrying it. */
export const liveFlushMs = 100;

export class LiveReading {
  private pending = '';
  private started = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private figures: Omit<PageReading, 'pageId' | 'start' | 'text'> = { fraction: null, tokens: null, tokensPerSecond: null, meanAcceptedLength: null };

  constructor(
    private readonly bus: EventBus,
    private readonly pageId: string,
  ) {}

  /** For `engine.read(…, { onEvent })`. */
  readonly onEvent = (event: EngineEvent): void => {
    if (event.type === 'token') this.pending += event.text;
    else if (event.type === 'progress') this.figures.fraction = Math.min(1, Math.max(0, event.fraction));
    else {
      const { tokens, tokensPerSecond, meanAcceptedLength } = event.stats;
      this.figures = { ...this.figures, tokens: tokens ?? null, tokensPerSecond: tokensPerSecond ?? null, meanAcceptedLength: meanAcceptedLength ?? null };
    }
    this.timer ??= setTimeout(() => this.flush(), liveFlushMs);
  };

  /** Sends what is pending now (also called when the reading ends). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.started && this.pending === '' && this.figures.fraction === null && this.figures.tokens === null) return;
    this.bus.emit('page.reading', { pageId: this.pageId, start: !this.started, text: this.pending, ...this.figures });
    this.started = true;
    this.pending = '';
  }

  /** Stops the timer without sending (the reading was cancelled or the queue is going away). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
