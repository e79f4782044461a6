/** Presence lives in memory: set by a window, gone when it shows nothing, when its socket closes, or when not renewed. */
import { describe, expect, it } from 'vitest';
import { PRESENCE_TTL_MS } from '../../app/contract/invoiceQueue.js';
import { Presence } from './presence.js';

describe('presence', () => {
  it('lists each person once per document, forgets a window that closed or stopped renewing, and says when it changed', () => {
    let now = 0;
    const presence = new Presence(() => now);
    let changes = 0;
    presence.onChange = () => (changes += 1);
    presence.set('window-a-1234', 'Ada', 'doc-1');
    presence.set('window-a-5678', 'Ada', 'doc-1');
    presence.set('window-b-1234', 'Bo', 'doc-1');
    presence.set('window-b-1234', 'Bo', 'doc-1'); // a renewal is not a change
    expect(changes).toBe(3);
    expect(presence.byDocument().get('doc-1')).toEqual(['Ada', 'Bo']);
    presence.drop('window-b-1234');
    expect(presence.byDocument().get('doc-1')).toEqual(['Ada']);
    presence.set('window-a-1234', 'Ada', null);
    now = PRESENCE_TTL_MS + 1;
    expect(presence.byDocument().has('doc-1')).toBe(false);
    presence.set('window-c-1234', 'Cy', 'doc-2');
    presence.clear();
    expect(presence.byDocument().size).toBe(0);
    expect(changes).toBe(7);
  });
});
