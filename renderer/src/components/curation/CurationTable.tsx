/**
 * The curation queue: one row per page with its needs-attention signals, its combined score, each check as a small
 * bar, what the correction changed by element kind, and the review status. Headers sort (by default: needs
 * attention for uncorrected pages, then corrected pages by score); a row opens the page in Review.
 */
import type { CurationItem, CurationSort } from '../../../../app/contract/curation.js';
import { attentionWeight, type AttentionSignalKind } from '../../../../app/review/attention.js';
import { signalNames } from './signalNames.js';
import { checkColumns, shownScore } from '../../logic/curation/checkColumns.js';
import type { CurationQuery } from '../../logic/curation/curationQuery.js';
import { ScoreBar } from './ScoreBar.js';
import { ReviewStatusCell } from '../approval/ReviewedByBadge.js';

interface CurationTableProps {
  items: readonly CurationItem[];
  query: CurationQuery;
  onSort(sort: CurationSort): void;
  onOpen(item: CurationItem): void;
}

function formatWhen(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** One chip per kind of signal (five failed rules are one "Failed rule ×5"), the details in its tooltip. */
function signalsByKind(signals: CurationItem['signals']): [AttentionSignalKind, string[]][] {
  const byKind = new Map<AttentionSignalKind, string[]>();
  for (const signal of signals) byKind.set(signal.kind, [...(byKind.get(signal.kind) ?? []), signal.detail]);
  return [...byKind];
}

function SortHeader({ sort, label, title, query, onSort, className }: { sort: CurationSort; label: string; title: string; query: CurationQuery; onSort(sort: CurationSort): void; className?: string }) {
  const active = query.sort === sort;
  return (
    <th className={className} aria-sort={active ? (query.direction === 'asc' ? 'ascending' : 'descending') : 'none'} scope="col">
      <button className={active ? 'th-sort active' : 'th-sort'} title={`${title} — sort by this`} onClick={() => onSort(sort)}>
        {label}
        {active && <span aria-hidden="true">{query.direction === 'asc' ? ' ▲' : ' ▼'}</span>}
      </button>
    </th>
  );
}

export function CurationTable({ items, query, onSort, onOpen }: CurationTableProps) {
  return (
    <table className="curation-table">
      <thead>
        <tr>
          <th scope="col" className="col-page">Page</th>
          <SortHeader sort="attention" label="Needs attention" title="Uncorrected pages by their needs-attention signals, then corrected pages by score" query={query} onSort={onSort} className="col-attention" />
          <SortHeader sort="score" label="Score" title="Combined curation score" query={query} onSort={onSort} className="col-score" />
          {checkColumns.map((column) => (
            <SortHeader key={column.key} sort={column.key} label={column.short} title={column.title} query={query} onSort={onSort} className="col-check" />
          ))}
          <SortHeader sort="changedChars" label="Changed" title="Characters the correction changed, by element kind" query={query} onSort={onSort} className="col-changed" />
          <th scope="col" className="col-status">Status</th>
          <SortHeader sort="revisionAt" label="Corrected" title="Latest correction" query={query} onSort={onSort} className="col-when" />
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr
            key={item.pageId}
            className="curation-row"
            data-testid="curation-row"
            data-page-id={item.pageId}
            data-score={item.scores.score}
            data-corrected={item.corrected ? 'true' : 'false'}
            data-attention={attentionWeight(item.signals, item.reviewStatus)}
            data-status={item.reviewStatus}
            tabIndex={0}
            onClick={() => onOpen(item)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                onOpen(item);
              }
            }}
            title={`Open ${item.documentName} page ${item.pageNumber} in Review`}
          >
            <td className="col-page">
              <span className="curation-doc">{item.documentName}</span>
              <span className="curation-page-number">p. {item.pageNumber}</span>
              <span className="curation-engine">{item.engine}</span>
            </td>
            <td className="col-attention">
              {item.signals.length === 0 ? (
                <span className="muted">—</span>
              ) : (
                <span className="attention-signals">
                  {signalsByKind(item.signals).map(([kind, details]) => (
                    <span key={kind} className={`signal signal-${kind}`} title={details.join('\n')} data-signal={kind}>
                      {signalNames[kind]}
                      {details.length > 1 && ` ×${details.length}`}
                    </span>
                  ))}
                </span>
              )}
            </td>
            <td className="col-score">
              {item.hasRevision ? (
                <ScoreBar score={item.scores.score} label="Combined score" wide />
              ) : (
                <span className="muted" data-testid="no-score" title="Not corrected yet: the score compares the engine with a correction (the signals say what to look at)">
                  not scored
                </span>
              )}
            </td>
            {checkColumns.map((column) => (
              <td key={column.key} className="col-check">
                <ScoreBar score={shownScore(item, column.key)} label={column.title} />
              </td>
            ))}
            <td className="col-changed">
              {!item.hasRevision ? (
                <span className="muted">{item.corrected ? 'fields corrected' : 'not corrected'}</span>
              ) : item.changedKinds.length === 0 ? (
                <span className="muted">{item.changedChars === 0 ? 'no change' : `${item.changedChars} chars`}</span>
              ) : (
                <span className="kind-chips">
                  {item.changedKinds.map((kind) => (
                    <span
                      key={kind.kind}
                      className={`kind-chip kind-${kind.kind}`}
                      title={`${kind.kind}: ${kind.changedChars} of ${kind.chars} characters changed in ${kind.elements} element(s)`}
                    >
                      {kind.kind} <b>{kind.changedChars}</b>
                    </span>
                  ))}
                </span>
              )}
            </td>
            <td className="col-status">
              <ReviewStatusCell status={item.reviewStatus} by={item.reviewedBy} />
            </td>
            <td className="col-when">
              {item.revisionAt ? (
                <>
                  <span>{formatWhen(item.revisionAt)}</span>
                  {item.revisionAuthor && <span className="muted"> · {item.revisionAuthor}</span>}
                </>
              ) : (
                <span className="muted">—</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
