/**
 * The live reading of pages, from `page.reading` events: the Markdown decoded so far and the decoder's figures, per
 * page, kept from the first event of a reading until the next reading of that page starts.
 */
import { useState } from 'react';
import type { PageReading } from '../../../app/contract/events.js';
import { useContractEvent } from './contractContext.js';

export interface LiveText {
  text: string;
  fraction: number | null;
  tokens: number | null;
  tokensPerSecond: number | null;
  meanAcceptedLength: number | null;
}

/** Pages whose live text is kept; older readings are dropped first (only the page on screen is ever shown). */
const keptPages = 8;

export function appendReading(previous: ReadonlyMap<string, LiveText>, event: PageReading): Map<string, LiveText> {
  const next = new Map(previous);
  const before = event.start ? undefined : next.get(event.pageId);
  next.delete(event.pageId);
  next.set(event.pageId, {
    text: (before?.text ?? '') + event.text,
    fraction: event.fraction,
    tokens: event.tokens,
    tokensPerSecond: event.tokensPerSecond,
    meanAcceptedLength: event.meanAcceptedLength,
  });
  while (next.size > keptPages) next.delete(next.keys().next().value!);
  return next;
}

export function useLiveReading(pageId: string | null): LiveText | null {
  const [pages, setPages] = useState<ReadonlyMap<string, LiveText>>(new Map());
  useContractEvent('page.reading', (event) => setPages((previous) => appendReading(previous, event)));
  return pageId ? (pages.get(pageId) ?? null) : null;
}

/** "42 tok/s · 1.6 drafts accepted/step" — the second part only for speculative decoding (τ includes the bonus token). */
export function describeSpeed(live: LiveText): string {
  const parts: string[] = [];
  if (live.tokens !== null) parts.push(`${live.tokens} tokens`);
  if (live.tokensPerSecond !== null) parts.push(`${live.tokensPerSecond.toFixed(1)} tok/s`);
  if (live.meanAcceptedLength !== null) parts.push(`${Math.max(0, live.meanAcceptedLength - 1).toFixed(2)} drafts accepted/step`);
  if (parts.length === 0 && live.fraction !== null) parts.push(`${Math.round(live.fraction * 100)} %`);
  return parts.join(' · ');
}
