/**
 * The curation view: the summary charts on top, the queue of pages below (worst first), filters and paging, and the
 * corpus export. A row opens its page in the review screen.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CurationItem } from '../../../../app/contract/curation.js';
import type { RequestOf } from '../../../../app/contract/methods.js';
import { formatScore } from '../../logic/charts/scale.js';
import { describeRange, pageRange, toSummaryFilter, withFilter, withSort, type CurationQuery } from '../../logic/curation/curationQuery.js';
import { isExportBusy, type ExportState } from '../../logic/curation/exportTracking.js';
import { useClient } from '../../state/contractContext.js';
import { useCuration } from '../../state/useCuration.js';
import { useDocuments } from '../../state/useDocuments.js';
import { CorrectionsOverTimeChart } from '../charts/CorrectionsOverTimeChart.js';
import { ErrorsByKindChart } from '../charts/ErrorsByKindChart.js';
import { ScoreHistogramChart } from '../charts/ScoreHistogramChart.js';
import { CurationFilters } from './CurationFilters.js';
import { CurationTable } from './CurationTable.js';
import { AttentionFilter } from './AttentionFilter.js';
import { ExportDialog } from './ExportDialog.js';
import { InvoicesExportButton } from '../approval/InvoicesExportButton.js';

interface CurationViewProps {
  projectPath: string | null;
  /** Changes when the review screen saved, so the queue is fetched again. */
  refreshKey: number;
  onOpenPage(pageId: string): void;
  exporter: { state: ExportState; start(request: RequestOf<'corpus.export'>): void; reset(): void; cancel(): void };
  /** The shell has native dialogs (desktop app): the export dialog offers a folder picker. */
  nativeDialogs: boolean;
  exportOpen: boolean;
  /** The invoices export dialog is asked for (the palette's "Export invoices…"); `onInvoicesExportOpened` once opened. */
  invoicesExportAsked?: boolean;
  onInvoicesExportOpened?(): void;
  onExportOpen(open: boolean): void;
  /** Held by the app, so filter and sort survive opening a page and coming back. */
  query: CurationQuery;
  onQuery(query: CurationQuery): void;
  /** The list's scroll position across visits (restored once the list has loaded). */
  scrollMemory: { current: number };
}

export function CurationView({ projectPath, refreshKey, onOpenPage, exporter, nativeDialogs, exportOpen, invoicesExportAsked, onInvoicesExportOpened, onExportOpen, query, onQuery: setQuery, scrollMemory }: CurationViewProps) {
  const client = useClient();
  const { list, summary, error, loading, reload } = useCuration(query, refreshKey);
  const { documents } = useDocuments();
  const [engineIds, setEngineIds] = useState<string[]>([]);

  useEffect(() => {
    let live = true;
    client
      .call('engines.list', {})
      .then((engines) => live && setEngineIds(engines.map((engine) => engine.id)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client]);
  // Engines of pages already read may no longer be installed; offer them too.
  const engines = useMemo(() => [...new Set([...engineIds, ...(list?.items.map((item) => item.engine) ?? [])])].sort(), [engineIds, list]);
  const documentChoices = useMemo(() => (documents ?? []).map((document) => ({ id: document.id, name: document.name })), [documents]);

  // Previous/Next: show the new slice from its first row, not wherever the old one was scrolled to.
  const listTop = useRef<HTMLDivElement>(null);
  const shownPageIndex = useRef(query.pageIndex);
  useEffect(() => {
    if (shownPageIndex.current === query.pageIndex) return;
    shownPageIndex.current = query.pageIndex;
    listTop.current?.scrollIntoView({ block: 'start' });
  }, [query.pageIndex]);

  // Coming back: the scroll position as it was, once the rows are there to scroll to.
  const scroller = useRef<HTMLDivElement>(null);
  const restored = useRef(false);
  useLayoutEffect(() => {
    if (restored.current || !list || !scroller.current) return;
    restored.current = true;
    scroller.current.scrollTop = scrollMemory.current;
  }, [list, scrollMemory]);

  const range = pageRange(list?.total ?? 0, query.pageIndex, query.pageSize);
  const exportBusy = isExportBusy(exporter.state);
  const exportPercent =
    exporter.state.progress && exporter.state.progress.pagesTotal > 0
      ? Math.round((100 * exporter.state.progress.pagesDone) / exporter.state.progress.pagesTotal)
      : 0;

  return (
    <div
      className="curation"
      data-testid="curation-view"
      aria-busy={loading}
      ref={scroller}
      onScroll={(event) => {
        if (restored.current) scrollMemory.current = event.currentTarget.scrollTop;
      }}
    >
      <div className="curation-header">
        <div className="curation-stats" data-testid="curation-stats">
          {summary ? (
            <>
              <span>
                <b>{summary.pages}</b> pages
              </span>
              <span>
                <b>{summary.correctedPages}</b> corrected
              </span>
              {summary.correctedPages > 0 && (
                <span>
                  mean score <b>{formatScore(summary.meanScore)}</b>
                </span>
              )}
              {summary.fieldCorrections && (
                <span data-testid="field-corrections">
                  <b>{summary.fieldCorrections.revisions}</b> field corrections on <b>{summary.fieldCorrections.pages}</b> pages
                </span>
              )}
            </>
          ) : (
            <span className="muted">Loading…</span>
          )}
        </div>
        <div className="row">
          <button className="button small subtle" onClick={() => void reload()} title="Fetch scores again">
            Refresh
          </button>
          <InvoicesExportButton openAsked={invoicesExportAsked} onOpened={onInvoicesExportOpened} />
          <button className="button small primary" data-testid="export-open" onClick={() => onExportOpen(true)}>
            {exportBusy ? `Exporting… ${exportPercent} %` : 'Export corpus…'}
          </button>
        </div>
      </div>
      {error && (
        <div className="inline-error curation-error" role="alert">
          Could not load the curation queue: {error}
        </div>
      )}
      {summary && summary.correctedPages === 0 && (
        <p className="muted curation-charts-later" data-testid="charts-later">
          The score charts appear once a page is corrected: scores compare the engine with a correction.
        </p>
      )}
      {summary && summary.correctedPages > 0 && (
        <div className="curation-charts">
          <ScoreHistogramChart summary={summary} />
          <ErrorsByKindChart summary={summary} />
          <CorrectionsOverTimeChart summary={summary} />
        </div>
      )}
      <AttentionFilter signal={query.signal} onSignal={(signal) => setQuery(withFilter(query, { signal }))} refreshKey={refreshKey} />
      <CurationFilters query={query} onQuery={setQuery} engines={engines} documents={documentChoices} />
      <div className="curation-list" ref={listTop}>
        {list && list.items.length > 0 && (
          <CurationTable items={list.items} query={query} onSort={(sort) => setQuery(withSort(query, sort))} onOpen={(item: CurationItem) => onOpenPage(item.pageId)} />
        )}
        {list && list.items.length === 0 && (
          <div className="curation-empty">
            {list.total > 0
              ? 'Nothing on this page of the list.'
              : Object.keys(toSummaryFilter(query)).length > 0 || query.signal
                ? 'No pages match these filters.'
                : 'No pages read yet. Import documents in Review; each page is scored once it has been read.'}
          </div>
        )}
      </div>
      <div className="curation-pager">
        <span className="muted" data-testid="curation-range">
          {describeRange(range)}
        </span>
        <button className="button small" disabled={!range.hasPrevious} onClick={() => setQuery({ ...query, pageIndex: query.pageIndex - 1 })}>
          Previous
        </button>
        <button className="button small" disabled={!range.hasNext} onClick={() => setQuery({ ...query, pageIndex: query.pageIndex + 1 })}>
          Next
        </button>
        <label className="filter">
          <span className="filter-label">Rows</span>
          <select value={query.pageSize} onChange={(event) => setQuery({ ...query, pageSize: Number(event.target.value), pageIndex: 0 })}>
            {[25, 50, 100, 200].map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      {exportOpen && (
        <ExportDialog
          projectPath={projectPath}
          state={exporter.state}
          nativeDialogs={nativeDialogs}
          onStart={(request) => exporter.start(request)}
          onCancel={exporter.cancel}
          onReset={exporter.reset}
          onClose={() => onExportOpen(false)}
        />
      )}
    </div>
  );
}
