import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Revision } from '../../../app/model/page.js';
import { ContractError } from '../../../app/contract/client.js';
import type { RevisionConflict } from '../../../app/contract/conflicts.js';
import { Autosave, describeSaveState, REVISION_PAUSE_MS, type SaveState } from './autosave.js';

function revision(id: string, text: string, parentId: string | null): Revision {
  return { id, pageId: 'p1', parentId, text, author: 'test', createdAt: '2026-01-01T00:00:00Z' };
}

function setup(save?: (text: string, parentId: string | null) => Promise<Revision>) {
  const states: SaveState['kind'][] = [];
  const calls: { text: string; parentId: string | null }[] = [];
  let next = 1;
  const autosave = new Autosave({
    savedText: 'original',
    parentId: 'r0',
    delayMs: 800,
    save:
      save ??
      (async (text, parentId) => {
        calls.push({ text, parentId });
        return revision(`r${next++}`, text, parentId);
      }),
    onState: (state) => states.push(state.kind),
  });
  return { autosave, states, calls };
}

describe('Autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('groups keystrokes: short pauses make no revision of their own, a long one ends the group, continuous typing saves every 10 s', async () => {
    const calls: string[] = [];
    const autosave = new Autosave({
      savedText: '',
      parentId: null,
      save: async (text) => (calls.push(text), revision(`r${calls.length}`, text, null)),
      onState: () => undefined,
    });
    // Five words, a second apart (an analyst's pace): one revision, not five.
    for (const word of ['one', 'one two', 'one two three', 'one two three four', 'one two three four five']) {
      autosave.edit(word);
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(['one two three four five']);
    // Typing without a pause for 15 s: saved once at 10 s, then once after the pause.
    let text = 'x';
    for (let t = 0; t < 15_000; t += 500) {
      text += 'x';
      autosave.edit(text);
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(REVISION_PAUSE_MS);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toBe(text);
  });

  it('saves once, 800 ms after the last keystroke, with the loaded revision as parent', async () => {
    const { autosave, calls } = setup();
    autosave.edit('o');
    await vi.advanceTimersByTimeAsync(500);
    autosave.edit('ok');
    await vi.advanceTimersByTimeAsync(799);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([{ text: 'ok', parentId: 'r0' }]);
    expect(autosave.currentState.kind).toBe('saved');
    expect(autosave.hasUnsavedChanges).toBe(false);
  });

  it('chains parents: each save names the previous save', async () => {
    const { autosave, calls } = setup();
    autosave.edit('a');
    await autosave.flush();
    autosave.edit('ab');
    await autosave.flush();
    expect(calls.map((c) => c.parentId)).toEqual(['r0', 'r1']);
    expect(autosave.currentParentId).toBe('r2');
  });

  it('does not save when the text returns to what is stored', async () => {
    const { autosave, calls, states } = setup();
    autosave.edit('changed');
    autosave.edit('original');
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toEqual([]);
    expect(states.at(-1)).toBe('saved');
  });

  it('saves keystrokes typed during a save afterwards', async () => {
    let release: (() => void) | null = null;
    const calls: string[] = [];
    const { autosave } = setup(async (text, parentId) => {
      calls.push(text);
      if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return revision(`r${calls.length}`, text, parentId);
    });
    autosave.edit('first');
    const flushing = autosave.flush();
    autosave.edit('second');
    expect(autosave.currentState.kind).toBe('saving');
    release!();
    await flushing;
    expect(autosave.currentState.kind).toBe('dirty');
    await vi.advanceTimersByTimeAsync(800);
    expect(calls).toEqual(['first', 'second']);
    expect(autosave.currentState.kind).toBe('saved');
  });

  it('reports a failed save with its reason and keeps the text for the next try', async () => {
    let fail = true;
    const { autosave } = setup(async (text, parentId) => {
      if (fail) throw new Error('disk full');
      return revision('r9', text, parentId);
    });
    autosave.edit('edited');
    await autosave.flush();
    expect(describeSaveState(autosave.currentState)).toBe('Save failed: disk full');
    expect(autosave.hasUnsavedChanges).toBe(true);
    fail = false;
    await autosave.flush();
    expect(describeSaveState(autosave.currentState)).toBe('Saved');
  });

  it('holds a conflict: the text is kept on the main side, nothing more is saved on the old parent until a choice', async () => {
    const conflict: RevisionConflict = {
      id: 'c1', pageId: 'p1', baseId: 'r0', baseText: 'original', theirs: revision('r9', 'theirs', 'r0'), text: 'mine', author: 'Ana',
      createdAt: '2026-01-01T00:00:01Z', resolution: null, resolvedRevisionId: null, resolvedBy: null, resolvedAt: null, supersededBy: null,
    };
    const calls: string[] = [];
    const { autosave, states } = setup(async (text) => {
      calls.push(text);
      throw new ContractError('conflict', 'The page changed since your edit began', { kind: 'revision', conflict });
    });
    autosave.edit('mine');
    await autosave.flush();
    expect(autosave.currentState).toEqual({ kind: 'conflict', conflict });
    expect(describeSaveState(autosave.currentState)).toMatch(/^Conflict: test saved this page meanwhile/);
    // Typing on, Ctrl+S, the debounce: no further save on the stale parent; the editor's text is what the view shows as mine.
    autosave.edit('mine, typed on');
    await autosave.flush();
    await vi.advanceTimersByTimeAsync(REVISION_PAUSE_MS * 2);
    expect(calls).toEqual(['mine']);
    expect(autosave.text).toBe('mine, typed on');
    expect(states.at(-1)).toBe('conflict');
  });

  it('shows any other refusal as an error, a conflict without its detail too', async () => {
    const { autosave } = setup(async () => {
      throw new ContractError('conflict', 'no detail');
    });
    autosave.edit('x');
    await autosave.flush();
    expect(autosave.currentState).toEqual({ kind: 'error', message: 'no detail' });
  });
});
