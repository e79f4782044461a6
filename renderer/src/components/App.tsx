/**
 * The shell of the UI: top bar, reading progress, and either the welcome view (no project) or the project's views:
 * review (always mounted, hidden behind curation so its editor and unsaved text survive) and curation.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { defaultCurationQuery, type CurationQuery } from '../logic/curation/curationQuery.js';
import { useNavigationHistory } from '../state/useNavigationHistory.js';
import { useClient } from '../state/contractContext.js';
import { useAppInfo } from '../state/useAppInfo.js';
import { useCorpusExport } from '../state/useCorpusExport.js';
import { useJobs } from '../state/useJobs.js';
import { CurationView } from './curation/CurationView.js';
import { EvaluateView } from './evaluate/EvaluateView.js';
import { SuppliersView } from './suppliers/SuppliersView.js';
import { InvoiceQueueView } from './invoices/InvoiceQueueView.js';
import { WorkBanner } from './invoices/WorkBanner.js';
import { usePresence } from '../state/usePresence.js';
import { defaultInvoiceQueueSort, noInvoiceQueueFilter, type InvoiceQueueFilter, type InvoiceQueueRow, type InvoiceQueueSort } from '../../../app/invoices/invoiceQueue.js';
import { FatalScreen } from './FatalScreen.js';
import { JobProgressBar } from './JobProgressBar.js';
import { ReviewWorkspace } from './ReviewWorkspace.js';
import { TopBar, type View } from './TopBar.js';
import { WelcomeView } from './WelcomeView.js';

/** How long the history waits for a page asked for before it records what is shown anyway. */
const AWAIT_PAGE_MS = 5000;

export function App() {
  const { info, error, reload } = useAppInfo();
  const client = useClient();
  // While an import is still sending files, the reading of those already queued is one batch with the rest.
  const [importing, setImporting] = useState(false);
  const { jobs: allJobs, batch: jobBatch } = useJobs(importing);
  const exporter = useCorpusExport();
  const [exportOpen, setExportOpen] = useState(false);
  // The export shows its own bar in its dialog; while that is open the top bar keeps to reading.
  const { isExportJob } = exporter;
  const jobs = exportOpen ? allJobs.filter((job) => !isExportJob(job.jobId)) : allJobs;
  const readingJobs = allJobs.filter((job) => !isExportJob(job.jobId));
  // Pages already read stay read; the rest go back to waiting and can be read later with "Read again".
  // An export is cancelled from its dialog (the curation view), not with the reading jobs here.
  const cancelJobs = (jobIds: string[]) => {
    for (const jobId of jobIds) if (!isExportJob(jobId)) void client.call('jobs.cancel', { jobId }).catch(() => undefined);
  };
  const [view, setView] = useState<View>('review');
  const [choosingProject, setChoosingProject] = useState(false);
  const [openRequest, setOpenRequest] = useState<{ pageId: string; serial: number } | null>(null);
  const [curationRefresh, setCurationRefresh] = useState(0);
  // A page asked for from another view (or from Back/Forward) is on its way until the workspace shows it: the steps
  // between (the review view still showing the old page) are not places in the history.
  const [awaitedPage, setAwaitedPage] = useState<string | null>(null);
  const shownPageRef = useRef<string | null>(null);
  const openInReview = useCallback((pageId: string) => {
    setOpenRequest((previous) => ({ pageId, serial: (previous?.serial ?? 0) + 1 }));
    if (pageId !== shownPageRef.current) setAwaitedPage(pageId);
    setView('review');
  }, []);
  // A page that never comes (its switch refused: unsaved text failed to save) stops holding the history back.
  useEffect(() => {
    if (awaitedPage === null) return;
    const timer = setTimeout(() => setAwaitedPage(null), AWAIT_PAGE_MS);
    return () => clearTimeout(timer);
  }, [awaitedPage]);
  const onSavedWhileHidden = useCallback(() => setCurationRefresh((count) => count + 1), []);
  // The queue is a place: its filter, sort and scroll outlive a visit to a page (the view itself unmounts).
  const [curationQuery, setCurationQuery] = useState<CurationQuery>(defaultCurationQuery);
  const curationScroll = useRef(0);
  // The invoice queue is a place too; Alt+N / Alt+P follow its visible order after an invoice was opened from it.
  const [invoiceFilter, setInvoiceFilter] = useState<InvoiceQueueFilter>(noInvoiceQueueFilter);
  const [invoiceSort, setInvoiceSort] = useState<InvoiceQueueSort>(defaultInvoiceQueueSort);
  const [invoiceOrder, setInvoiceOrder] = useState<readonly string[]>([]);
  const [walkInvoices, setWalkInvoices] = useState(false);
  // The same order again (a refetch that changed nothing shown) keeps the array: the review screen does not render again.
  const keepInvoiceOrder = useCallback((order: readonly string[]) => setInvoiceOrder((previous) => (previous.length === order.length && previous.every((id, i) => id === order[i]) ? previous : order)), []);
  const queueFilter = useMemo(
    () =>
      walkInvoices
        ? { signal: '' as const, documentId: '', statuses: [], documentOrder: invoiceOrder }
        : { signal: curationQuery.signal, documentId: curationQuery.documentId, statuses: curationQuery.statuses },
    [walkInvoices, invoiceOrder, curationQuery.signal, curationQuery.documentId, curationQuery.statuses],
  );
  const openFromCuration = useCallback(
    (pageId: string) => {
      setWalkInvoices(false);
      openInReview(pageId);
    },
    [openInReview],
  );
  const openInvoice = useCallback(
    (row: InvoiceQueueRow) => {
      setWalkInvoices(true);
      openInReview(row.firstPageId);
    },
    [openInReview],
  );
  // Stable, so that the review workspace (memoised) does not render again when only the app's own state changed.
  const openExport = useCallback(() => {
    setView('curation');
    setExportOpen(true);
  }, []);
  // The invoices export dialog asked for (the palette): true until the curation view has opened it, so showing the
  // curation view again later does not open it again.
  const [invoicesExportAsked, setInvoicesExportAsked] = useState(false);
  const openInvoicesExport = useCallback(() => {
    setView('curation');
    setInvoicesExportAsked(true);
  }, []);
  const invoicesExportOpened = useCallback(() => setInvoicesExportAsked(false), []);
  const [shownPageId, setShownPageId] = useState<string | null>(null);
  usePresence(view === 'review' ? shownPageId : null);
  const onPageShown = useCallback((pageId: string | null) => {
    shownPageRef.current = pageId;
    setShownPageId(pageId);
    setAwaitedPage((awaited) => (awaited === pageId ? null : awaited));
  }, []);
  useNavigationHistory({ view, pageId: shownPageId }, awaitedPage === null, (entry) => {
    if (entry.pageId && entry.pageId !== shownPageId) {
      setOpenRequest((previous) => ({ pageId: entry.pageId!, serial: (previous?.serial ?? 0) + 1 }));
      setAwaitedPage(entry.pageId);
    }
    setView(entry.view as View);
  });

  if (!info) {
    if (error) return <FatalScreen title="Recto is not responding" message={error} onRetry={() => void reload()} />;
    return <div className="app-loading">Starting Recto…</div>;
  }

  const project = info.project;
  const showWelcome = !project || choosingProject;
  return (
    <div className="app">
      <TopBar
        projectName={project?.name ?? null}
        projectPath={project?.path ?? null}
        view={view}
        onView={setView}
        onChooseProject={() => setChoosingProject(true)}
        showViews={!showWelcome}
        progress={<JobProgressBar jobs={jobs} batch={jobBatch} onCancel={readingJobs.some((job) => job.state === 'running') ? cancelJobs : undefined} />}
      />
      {project?.trailWarning && !showWelcome ? (
        <div className="trail-warning" role="alert" data-testid="trail-warning">
          The project file was changed outside Recto: {project.trailWarning} Run <code>recto audit</code> on it for details.
        </div>
      ) : null}
      {showWelcome ? (
        <WelcomeView
          info={info}
          onOpened={() => {
            setChoosingProject(false);
            setOpenRequest(null);
            void reload();
          }}
          onCancel={project ? () => setChoosingProject(false) : undefined}
        />
      ) : (
        <>
          {view === 'review' && shownPageId && <WorkBanner key={`work:${shownPageId}`} pageId={shownPageId} />}
          <ReviewWorkspace
            key={project.path}
            nativeDialogs={info.nativeDialogs}
            readingActive={readingJobs.some((job) => job.state === 'running')}
            active={view === 'review'}
            openRequest={openRequest}
            onSavedWhileHidden={onSavedWhileHidden}
            onShowView={setView}
            onExport={openExport}
            onExportInvoices={openInvoicesExport}
            onPageShown={onPageShown}
            queueFilter={queueFilter}
            onImporting={setImporting}
          />
          {view === 'curation' && (
            <CurationView
              key={`curation:${project.path}`}
              projectPath={project.path}
              refreshKey={curationRefresh}
              onOpenPage={openFromCuration}
              exporter={exporter}
              nativeDialogs={info.nativeDialogs}
              exportOpen={exportOpen}
              invoicesExportAsked={invoicesExportAsked}
              onInvoicesExportOpened={invoicesExportOpened}
              onExportOpen={setExportOpen}
              query={curationQuery}
              onQuery={setCurationQuery}
              scrollMemory={curationScroll}
            />
          )}
          {view === 'invoices' && (
            <InvoiceQueueView key={`invoices:${project.path}`} filter={invoiceFilter} onFilter={setInvoiceFilter} sort={invoiceSort} onSort={setInvoiceSort} onVisibleOrder={keepInvoiceOrder} onOpen={openInvoice} />
          )}
          {view === 'evaluate' && <EvaluateView key={`evaluate:${project.path}`} onOpenPage={openInReview} />}
          {view === 'suppliers' && <SuppliersView key={`suppliers:${project.path}`} onOpenPage={openInReview} />}
        </>
      )}
    </div>
  );
}
