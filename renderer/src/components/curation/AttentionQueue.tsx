/**
 * The curation view's first list: pages nobody has corrected yet, ordered by their needs-attention signals (most
 * first; failed rules and XML disagreements weigh most), with a filter per signal. The score table below keeps the
 * engine-vs-correction scores, which only say something once a page is corrected.
 */
import { useMemo, useState } from 'react';
import type { AttentionItem } from '../../../../app/contract/attention.js';
import { attentionSignalKinds, type AttentionSignalKind } from '../../../../app/review/attention.js';
import { useAttentionQueue } from '../../state/useAttentionQueue.js';

const signalNames: Record<AttentionSignalKind, string> = {
  'failed-rule': 'Failed rule',
  'xml-disagreement': 'Page ≠ XML',
  'low-confidence': 'Low confidence',
  'missing-field': 'Missing field',
  repetition: 'Repetition',
  'table-structure': 'Table structure',
};

/** How much a signal moves a page up: wrong numbers and contradictions first, doubts after. */
const signalWeight: Record<AttentionSignalKind, number> = {
  'failed-rule': 3,
  'xml-disagreement': 3,
  'missing-field': 2,
  'table-structure': 2,
  repetition: 2,
  'low-confidence': 1,
};

const weightOf = (item: AttentionItem) => item.signals.reduce((sum, signal) => sum + signalWeight[signal.kind], 0);

/** At most this many rows; the rest are counted (the review screen walks them all with Alt+N). */
const SHOWN_ROWS = 50;

export function AttentionQueue({ onOpen, refreshKey }: { onOpen(pageId: string): void; refreshKey: number }) {
  const queue = useAttentionQueue(refreshKey >= 0);
  const [only, setOnly] = useState<AttentionSignalKind | null>(null);
  const pending = useMemo(
    () =>
      queue.items
        .filter((item) => !item.corrected && item.signals.length > 0 && item.reviewStatus !== 'approved' && item.reviewStatus !== 'rejected')
        .filter((item) => only === null || item.signals.some((signal) => signal.kind === only))
        .sort((a, b) => weightOf(b) - weightOf(a)),
    [queue.items, only],
  );
  const counts = useMemo(() => {
    const byKind = new Map<AttentionSignalKind, number>();
    for (const item of queue.items) if (!item.corrected) for (const kind of new Set(item.signals.map((s) => s.kind))) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    return byKind;
  }, [queue.items]);
  return (
    <section className="attention-queue" aria-label="Pages needing attention" data-testid="attention-queue">
      <div className="attention-header">
        <h3>Needs attention (not corrected yet): {pending.length}</h3>
        <div className="attention-filters" role="group" aria-label="Filter by signal">
          <button className={only === null ? 'chip active' : 'chip'} onClick={() => setOnly(null)}>
            All
          </button>
          {attentionSignalKinds.map((kind) => (
            <button key={kind} className={only === kind ? 'chip active' : 'chip'} data-signal={kind} onClick={() => setOnly(only === kind ? null : kind)} disabled={!counts.get(kind)}>
              {signalNames[kind]} {counts.get(kind) ?? 0}
            </button>
          ))}
        </div>
      </div>
      {pending.length > 0 ? (
        <table className="attention-table">
          <tbody>
            {pending.slice(0, SHOWN_ROWS).map((item) => (
              <tr key={item.pageId} data-testid="attention-row" data-page-id={item.pageId}>
                <td>
                  <button className="link-button" onClick={() => onOpen(item.pageId)}>
                    {item.documentName} p. {item.pageNumber}
                  </button>
                </td>
                <td className="attention-signals">
                  {item.signals.map((signal, i) => (
                    <span key={i} className={`signal signal-${signal.kind}`} title={signal.detail}>
                      {signalNames[signal.kind]}
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No uncorrected page shows a signal{only ? ' of this kind' : ''}.</p>
      )}
      {pending.length > SHOWN_ROWS && <p className="muted">…and {pending.length - SHOWN_ROWS} more (Alt+N in Review walks them all).</p>}
    </section>
  );
}
