import { describe, expect, it } from 'vitest';
import type { FieldRevision } from '../../../app/contract/fields.js';
import type { Revision } from '../../../app/model/page.js';
import { changesTimeline, conflictOutcome, decisionLabel, fieldChangeText } from './changesTimeline.js';
import type { RevisionConflict } from '../../../app/contract/conflicts.js';

const revision = (id: string, createdAt: string): Revision => ({ id, pageId: 'p', parentId: null, text: id, author: 'Ada', createdAt }) as Revision;
const field = (id: string, createdAt: string, oldValue: number | null, newValue: number | null, toEngine = false): FieldRevision => ({
  id,
  pageId: 'p',
  parentId: null,
  field: 'total',
  oldValue,
  newValue,
  toEngine,
  undoes: null,
  author: 'Ada',
  createdAt,
});
const decision = (status: string, at: string, reason: string | null = null) => ({ status, exceptions: reason ? ['failed-rule: BR-CO-15'] : [], reason, reviewer: 'Bo', at });

describe('changesTimeline', () => {
  it('interleaves text revisions, field corrections and decisions by time, newest first, numbering revisions in save order', () => {
    const entries = changesTimeline(
      [revision('r1', '2024-01-01T10:00:00.000Z'), revision('r2', '2024-01-01T12:00:00.000Z')],
      [field('f1', '2024-01-01T11:00:00.000Z', 119, 1589.8)],
      [decision('rejected', '2024-01-01T10:30:00.000Z'), decision('approved-with-exceptions', '2024-01-01T13:00:00.000Z', 'Confirmed by phone')],
    );
    expect(entries.map((e) => (e.kind === 'decision' ? e.decision.status : e.kind === 'revision' ? `${e.revision.id}#${e.number}` : e.kind === 'field' ? e.revision.id : e.conflict.id))).toEqual([
      'approved-with-exceptions',
      'r2#2',
      'f1',
      'rejected',
      'r1#1',
    ]);
  });

  it('at the same instant the text comes before the fields, and the decision last (newest first: the decision on top)', () => {
    const at = '2024-01-01T10:00:00.000Z';
    const kinds = changesTimeline([revision('r1', at)], [field('f1', at, 1, 2)], [decision('approved', at)]).map((e) => e.kind);
    expect(kinds).toEqual(['decision', 'field', 'revision']);
  });

  it('names decisions and field changes in words', () => {
    expect(decisionLabel('approved-with-exceptions')).toBe('Approved with exceptions');
    expect(decisionLabel('rejected')).toBe('Rejected');
    expect(fieldChangeText(field('f', 'x', 119, 1589.8))).toBe('total: 119 → 1589.8');
    expect(fieldChangeText(field('f', 'x', null, 5))).toBe('total: (empty) → 5');
    expect(fieldChangeText(field('f', 'x', 5, null, true))).toBe("total: back to the engine's value");
  });

  it('places a kept save after the revision it met, and says what became of it', () => {
    const kept: RevisionConflict = {
      id: 'c1', pageId: 'p', baseId: 'r1', baseText: 'r1', theirs: revision('r2', '2024-01-01T12:00:00.000Z'), text: 'mine', author: 'Bo',
      createdAt: '2024-01-01T12:00:00.000Z', resolution: null, resolvedRevisionId: null, resolvedBy: null, resolvedAt: null, supersededBy: null,
    };
    const entries = changesTimeline([revision('r1', '2024-01-01T10:00:00.000Z'), revision('r2', '2024-01-01T12:00:00.000Z')], [], [], [kept]);
    expect(entries.map((e) => e.kind)).toEqual(['conflict', 'revision', 'revision']);
    expect(conflictOutcome(kept)).toBe('waiting for a choice');
    expect(conflictOutcome({ ...kept, resolution: 'merged', resolvedBy: 'Bo', resolvedRevisionId: 'r3' })).toBe('Bo saved a merge of both');
    expect(conflictOutcome({ ...kept, resolution: 'mine', resolvedBy: 'Bo', supersededBy: 'c2' })).toBe('Bo kept this text, which met a newer revision again');
  });
});
