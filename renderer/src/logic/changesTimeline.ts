/**
 * The page's history as the Changes view lists it: text revisions, invoice field corrections, review decisions
 * (approved, approved with exceptions, rejected: who, when, why) and the saves kept as conflicts (whose, against
 * whose revision, what was chosen) in one list, newest first, so an auditor reads what was changed and what was decided
 * in the order it happened.
 */
import type { ConflictChoice, RevisionConflict } from '../../../app/contract/conflicts.js';
import type { FieldRevision } from '../../../app/contract/fields.js';
import type { Revision } from '../../../app/model/page.js';

/** A review status change as `approval.history` gives it. */
export interface ReviewDecision {
  status: string;
  exceptions: string[];
  reason: string | null;
  reviewer: string;
  at: string;
}

export type TimelineEntry =
  | { kind: 'revision'; at: string; revision: Revision; number: number }
  | { kind: 'field'; at: string; revision: FieldRevision }
  | { kind: 'decision'; at: string; decision: ReviewDecision }
  | { kind: 'conflict'; at: string; conflict: RevisionConflict };

/** Where two entries share a time, the one done first in a save: the text, then its fields, then the decision on them. */
const KIND_ORDER: Record<TimelineEntry['kind'], number> = { revision: 0, conflict: 1, field: 2, decision: 3 };

/** Text revisions (in save order, numbered from 1), kept conflicts, field revisions and decisions merged by time, newest first. */
export function changesTimeline(
  revisions: readonly Revision[],
  fieldRevisions: readonly FieldRevision[],
  decisions: readonly ReviewDecision[],
  conflicts: readonly RevisionConflict[] = [],
): TimelineEntry[] {
  const entries: (TimelineEntry & { order: number })[] = [
    ...conflicts.map((conflict, i) => ({ kind: 'conflict' as const, at: conflict.createdAt, conflict, order: i })),
    ...revisions.map((revision, i) => ({ kind: 'revision' as const, at: revision.createdAt, revision, number: i + 1, order: i })),
    ...fieldRevisions.map((revision, i) => ({ kind: 'field' as const, at: revision.createdAt, revision, order: i })),
    ...decisions.map((decision, i) => ({ kind: 'decision' as const, at: decision.at, decision, order: i })),
  ];
  entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.order - b.order));
  return entries.reverse().map(({ order: _, ...entry }) => entry as TimelineEntry);
}

const DECISION_LABELS: Record<string, string> = {
  approved: 'Approved',
  'approved-with-exceptions': 'Approved with exceptions',
  rejected: 'Rejected',
  'in-review': 'Marked in review',
  unreviewed: 'Marked unreviewed',
};

export function decisionLabel(status: string): string {
  return DECISION_LABELS[status] ?? status;
}

const shown = (value: string | number | null): string => (value === null || value === '' ? '(empty)' : String(value));

/** `total: 119 → 1589.8`; a correction taken back to the engine's value says so. */
export function fieldChangeText(revision: FieldRevision): string {
  if (revision.toEngine) return `${revision.field}: back to the engine's value`;
  return `${revision.field}: ${shown(revision.oldValue)} → ${shown(revision.newValue)}`;
}

const CHOICE_LABELS: Record<ConflictChoice, string> = { theirs: 'kept the newer revision', mine: 'kept this text', merged: 'saved a merge of both' };

/** What became of a kept save: waiting for a choice, or which choice, by whom. */
export function conflictOutcome(conflict: RevisionConflict): string {
  if (conflict.resolution === null) return 'waiting for a choice';
  const choice = CHOICE_LABELS[conflict.resolution];
  const again = conflict.supersededBy ? ', which met a newer revision again' : '';
  return `${conflict.resolvedBy ?? 'someone'} ${choice}${again}`;
}

