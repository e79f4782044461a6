/**
 * The rail's marker per page, from the needs-attention queue: failing rules and missing fields first (a count), then
 * page-vs-XML disagreements, then any other signal. Approved and rejected pages carry their status badge instead.
 */
import type { AttentionItem } from '../../../app/contract/attention.js';
import type { AttentionSignalKind } from '../../../app/review/attention.js';
import { signalNames } from '../components/curation/signalNames.js';

export interface PageMark {
  kind: 'fail' | 'xml' | 'attention';
  /** Printed on the marker: a count of failures, `≠`, or `•`. */
  text: string;
  /** The tooltip: every signal's detail. */
  title: string;
}

const failing: ReadonlySet<AttentionSignalKind> = new Set(['failed-rule', 'missing-field']);

export function pageMark(item: AttentionItem): PageMark | null {
  if (item.signals.length === 0 || item.reviewStatus === 'approved' || item.reviewStatus === 'rejected') return null;
  const title = item.signals.map((signal) => `${signalNames[signal.kind]}: ${signal.detail}`).join('\n');
  const failures = item.signals.filter((signal) => failing.has(signal.kind)).length;
  if (failures > 0) return { kind: 'fail', text: `✕${failures}`, title };
  if (item.signals.some((signal) => signal.kind === 'xml-disagreement')) return { kind: 'xml', text: '≠', title };
  return { kind: 'attention', text: '•', title };
}

/** pageId → its marker, for the pages that have one. */
export function pageMarks(items: readonly AttentionItem[]): ReadonlyMap<string, PageMark> {
  const marks = new Map<string, PageMark>();
  for (const item of items) {
    const mark = pageMark(item);
    if (mark) marks.set(item.pageId, mark);
  }
  return marks;
}
