import { describe, expect, it } from 'vitest';
import { appendReading, describeSpeed } from './useLiveReading.js';

const event = (pageId: string, text: string, start = false) => ({ pageId, start, text, fraction: null, tokens: 3, tokensPerSecond: 12.5, meanAcceptedLength: 2.4 });

describe('live reading', () => {
  it('appends pieces in order and starts over when a new reading of the page starts', () => {
    let pages = appendReading(new Map(), event('p', '# Ti', true));
    pages = appendReading(pages, event('p', 'tle'));
    pages = appendReading(pages, event('q', 'x', true));
    expect(pages.get('p')!.text).toBe('# Title');
    pages = appendReading(pages, event('p', 'New', true));
    expect(pages.get('p')!.text).toBe('New');
    expect(pages.get('q')!.text).toBe('x');
  });

  it('states tokens/s and accepted drafts per step (τ minus the bonus token)', () => {
    expect(describeSpeed(event('p', ''))).toBe('3 tokens · 12.5 tok/s · 1.40 drafts accepted/step');
  });
});
