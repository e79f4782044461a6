/**
 * The curation view's needs-attention line: how many uncorrected pages still ask for a look, and a filter per signal
 * (with the number of pages showing it, as the filter lists them) that narrows the queue below to pages with that signal. The queue
 * itself is ordered by these signals by default (sort `attention`).
 */
import { useMemo } from 'react';
import { attentionSignalKinds, type AttentionSignalKind } from '../../../../app/review/attention.js';
import { needsAttention, useAttentionQueue } from '../../state/useAttentionQueue.js';
import { signalNames } from './signalNames.js';

interface AttentionFilterProps {
  /** The signal the queue is narrowed to; '' = any. */
  signal: AttentionSignalKind | '';
  onSignal(signal: AttentionSignalKind | ''): void;
  refreshKey: number;
}

export function AttentionFilter({ signal, onSignal, refreshKey }: AttentionFilterProps) {
  const queue = useAttentionQueue(refreshKey >= 0);
  // Both figures: a page whose fields were corrected counts as corrected, yet its remaining signals still list it.
  const { flagged, pending } = useMemo(() => {
    const withSignals = queue.items.filter(needsAttention);
    return { flagged: withSignals.length, pending: withSignals.filter((item) => !item.corrected).length };
  }, [queue.items]);
  const counts = useMemo(() => {
    const byKind = new Map<AttentionSignalKind, number>();
    for (const item of queue.items) for (const kind of new Set(item.signals.map((s) => s.kind))) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    return byKind;
  }, [queue.items]);
  return (
    <section className="attention-queue" aria-label="Needs attention" data-testid="attention-queue">
      <div className="attention-header">
        <h3 data-testid="attention-pending">
          Needs attention: {flagged} {flagged === 1 ? 'page' : 'pages'} · {pending} not corrected yet
        </h3>
        <div className="attention-filters" role="group" aria-label="Filter the queue by signal">
          <button className={signal === '' ? 'chip active' : 'chip'} aria-pressed={signal === ''} onClick={() => onSignal('')}>
            Any
          </button>
          {attentionSignalKinds.map((kind) => (
            <button
              key={kind}
              className={signal === kind ? 'chip active' : 'chip'}
              aria-pressed={signal === kind}
              data-signal={kind}
              onClick={() => onSignal(signal === kind ? '' : kind)}
              disabled={!counts.get(kind) && signal !== kind}
            >
              {signalNames[kind]} {counts.get(kind) ?? 0}
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}
