/**
 * The review screen: documents on the left, the page image in the middle, its Markdown on the right, status below.
 * Owns the page selection and the link between boxes and text (box → cursor, cursor → box).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ImportResult } from '../../../app/contract/methods.js';
import type { Span } from '../../../app/model/extraction.js';
import type { ReviewStatus } from '../../../app/model/page.js';
import { keepOrFirstPage, neighbourPage } from '../logic/pageNavigation.js';
import { noQueueFilter, type QueueFilter } from '../logic/queueWalk.js';
import { elementAtOffset } from '../logic/spanMap.js';
import { useClient, useConnection, useConnectionState, useContractEvent, useOnReconnect } from '../state/contractContext.js';
import { PageDataCache } from '../state/pageDataCache.js';
import { useDocuments } from '../state/useDocuments.js';
import { useEditingSession } from '../state/useEditingSession.js';
import { useImport } from '../state/useImport.js';
import { usePageReview } from '../state/usePageReview.js';
import { DocumentRail } from './DocumentRail.js';
import { EditorPane, type EditorTab } from './EditorPane.js';
import { EngineMenu } from './EngineMenu.js';
import { ImportActivity, ImportBanner } from './ImportBanner.js';
import { MarkdownEditor } from './MarkdownEditor.js';
import { MarkdownPreview } from './MarkdownPreview.js';
import { PageViewer } from './PageViewer.js';
import { StatusBar } from './StatusBar.js';
import { useFileDrop } from '../state/useFileDrop.js';
import { useReviewKeys } from '../state/useReviewKeys.js';
import { useFieldsPane } from './fields/useFieldsPane.js';
import { CursorPanels } from './tools/CursorPanels.js';
import { useReviewTools } from './tools/useReviewTools.js';
import type { MarkdownEditorInstance } from '../editor/editorEdits.js';
import { ApprovalPrompt } from './approval/ApprovalPrompt.js';
import { ReviewerNamePrompt } from './approval/ReviewerNamePrompt.js';
import { approve } from './approval/approvalGate.js';

/** A re-read's live view stays at least this long, even when the engine was faster. */
const REREAD_MIN_SHOWN_MS = 800;

interface ReviewWorkspaceProps {
  nativeDialogs: boolean;
  /** Whether any reading job is running (from `job.progress`). */
  readingActive: boolean;
  /** False while another view (curation) is shown: the workspace stays mounted, keeps its editor, ignores keys. */
  active: boolean;
  /** A page another view asked to open; `serial` makes asking for the same page twice count. */
  openRequest: { pageId: string; serial: number } | null;
  /** Pending text was saved after the workspace was hidden (the curation queue may have changed). */
  onSavedWhileHidden(): void;
  /** Switches to another view (from the command palette). */
  onShowView?(view: 'curation' | 'evaluate'): void;
  /** The curation view with its export dialog (from the command palette). */
  onExport?(): void;
  /** The page on screen changed (the app's history records it). */
  onPageShown?(pageId: string | null): void;
  /** The curation view's filter, which Alt+N / Alt+P follow. */
  queueFilter?: QueueFilter;
}

export function ReviewWorkspace({ nativeDialogs, readingActive, active, openRequest, onSavedWhileHidden, onShowView, onExport, onPageShown, queueFilter = noQueueFilter }: ReviewWorkspaceProps) {
  const client = useClient();
  const { bridge } = useConnection();
  const connectionState = useConnectionState();
  const { documents, error: documentsError, reload: reloadDocuments } = useDocuments();
  const [pageId, setPageId] = useState<string | null>(null);
  const pageData = useMemo(() => new PageDataCache(client), [client]);
  useContractEvent('page.updated', ({ pageId: updated, documentId }) => pageData.pageUpdated(updated, documentId));
  useContractEvent('documents.changed', () => pageData.clear());
  useOnReconnect(() => pageData.clear());
  const { review, error: reviewError, reload: reloadReview } = usePageReview(pageId, pageData);
  const session = useEditingSession(review, reloadReview);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [hoveredId, setHoveredId] = useState<string | null>(null);
  const [followSelection, setFollowSelection] = useState(false);
  const [reveal, setReveal] = useState<{ span: Span; serial: number } | null>(null);
  const [tab, setTab] = useState<EditorTab>('markdown');
  const [editorInstance, setEditorInstance] = useState<MarkdownEditorInstance | null>(null);

  useEffect(() => {
    if (documents) setPageId((current) => keepOrFirstPage(documents, current));
  }, [documents]);

  const goTo = useCallback(
    (target: string | null) => {
      if (!target || target === pageId) return;
      session.flushThen(() => {
        setPageId(target);
        setSelectedId(null);
        setHoveredId(null);
        setReveal(null);
      });
    },
    [pageId, session],
  );
  const step = useCallback((delta: number) => goTo(neighbourPage(documents ?? [], pageId, delta)), [documents, goTo, pageId]);

  const onImported = useCallback(
    (result: ImportResult) => {
      void reloadDocuments();
      const firstPage = result.imported[0]?.pages[0]?.id;
      if (firstPage) goTo(firstPage);
    },
    [goTo, reloadDocuments],
  );
  const imports = useImport(onImported);
  const dragging = useFileDrop((files) => void imports.importFiles(files));
  useReviewKeys(
    { onPrevious: () => step(-1), onNext: () => step(1), onSave: () => void session.saveNow(), onBack: () => window.history.back(), onForward: () => window.history.forward() },
    active,
  );
  const onPageShownLatest = useRef(onPageShown);
  onPageShownLatest.current = onPageShown;
  useEffect(() => onPageShownLatest.current?.(pageId), [pageId]);

  // Opening a page from the curation view.
  const goToLatest = useRef(goTo);
  goToLatest.current = goTo;
  useEffect(() => {
    if (openRequest) goToLatest.current(openRequest.pageId);
  }, [openRequest]);

  // Leaving for another view saves what is pending, so that view sees the correction.
  const onSavedWhileHiddenLatest = useRef(onSavedWhileHidden);
  onSavedWhileHiddenLatest.current = onSavedWhileHidden;
  const saveNow = session.saveNow;
  useEffect(() => {
    if (!active) void saveNow().then(() => onSavedWhileHiddenLatest.current());
  }, [active, saveNow]);

  const extraction = review?.extraction ?? null;
  // Elements with their spans moved along with the analyst's edits.
  const elements = useMemo(
    () => (extraction?.elements ?? []).map((element, index) => ({ ...element, span: session.spans[index] ?? element.span })),
    [extraction, session.spans],
  );
  const spanOf = (id: string | null) => elements.find((element) => element.id === id)?.span ?? null;

  const onCursor = useCallback(
    (offset: number) => {
      setSelectedId(elementAtOffset(elements, offset)?.id ?? null);
      setFollowSelection(true);
    },
    [elements],
  );
  const onBoxSelect = useCallback(
    (id: string) => {
      setSelectedId(id);
      setFollowSelection(false);
      const span = elements.find((element) => element.id === id)?.span;
      if (span && span[1] > span[0]) {
        setTab('markdown');
        setReveal((previous) => ({ span, serial: (previous?.serial ?? 0) + 1 }));
      }
    },
    [elements],
  );

  const setReviewStatus = async (status: ReviewStatus) => {
    if (!pageId) return;
    if (status === 'approved') await approve(client, pageId, 'page');
    else await client.call('pages.setReviewStatus', { pageId, status }).catch(() => undefined);
    reloadReview();
    void reloadDocuments();
  };
  // A re-read shows the live reading view from the request until its job ends, with any engine: a fast one (a text
  // layer) may read the page between two refetches of its status, which alone would never show it being read.
  const [rereading, setRereading] = useState<{ pageId: string; jobId: string | null; since: number } | null>(null);
  const finishedJobs = useRef(new Set<string>());
  const endRereading = useCallback((jobId: string | null) => {
    setRereading((current) => {
      if (!current || (jobId !== null && current.jobId !== jobId)) return current;
      // Seen for a moment at least, so a re-read that took 0.3 s is not a flicker the analyst cannot read.
      const left = current.since + REREAD_MIN_SHOWN_MS - performance.now();
      if (left > 0) setTimeout(() => setRereading((now) => (now === current ? null : now)), left);
      return left > 0 ? current : null;
    });
  }, []);
  useContractEvent('job.progress', ({ jobId, state }) => {
    if (state === 'running') return;
    finishedJobs.current.add(jobId);
    endRereading(jobId);
  });
  const reread = async (engine?: string) => {
    if (!pageId) return;
    setRereading({ pageId, jobId: null, since: performance.now() });
    const reply = await client.call('pages.reread', { pageId, engine }).catch(() => null);
    if (!reply || finishedJobs.current.has(reply.jobId)) endRereading(null);
    else setRereading((current) => (current && current.pageId === pageId ? { ...current, jobId: reply.jobId } : current));
    reloadReview();
    void reloadDocuments();
  };

  const fieldsPane = useFieldsPane({
    pageId,
    review,
    liveText: session.liveText,
    active,
    goTo,
    onStatusChanged: () => {
      reloadReview();
      void reloadDocuments();
    },
    cache: pageData,
    queueFilter,
  });
  const tools = useReviewTools({
    editor: editorInstance,
    review,
    rereading: rereading !== null && rereading.pageId === pageId,
    active,
    hasText: session.content !== null,
    saveNow: session.saveNow,
    actions: {
      hasPage: review !== null,
      setReviewStatus: (status) => void setReviewStatus(status),
      approveDocument: () => void (pageId ? approve(client, pageId, 'document').then(() => (reloadReview(), void reloadDocuments())) : undefined),
      step,
      save: () => void session.saveNow(),
      reread: () => void reread(),
      showTab: setTab,
      showView: (view) => onShowView?.(view),
      exportCorpus: () => onExport?.(),
      history: (direction) => (direction === 'back' ? window.history.back() : window.history.forward()),
      fields: fieldsPane.commands,
      importFiles: () => (nativeDialogs && bridge ? void imports.importViaDialog() : window.document.querySelector<HTMLInputElement>('[data-testid="import-input"]')?.click()),
    },
  });

  const document = documents?.find((candidate) => candidate.pages.some((page) => page.id === pageId));
  const title = review
    ? `${review.documentName} — page ${review.page.pageNumber}${document ? ` of ${document.pages.length}` : ''}`
    : '';
  const hasText = session.content !== null;

  // Once a page is on screen, the pages the analyst is likely to open next are asked for (and decoded) ahead.
  const shownPageId = review?.page.id ?? null;
  const nextNeedingAttention = fieldsPane.nextNeedingAttention;
  useEffect(() => {
    if (!shownPageId || !documents) return;
    pageData.prefetch([
      neighbourPage(documents, shownPageId, 1),
      neighbourPage(documents, shownPageId, -1),
      nextNeedingAttention,
      neighbourPage(documents, shownPageId, 2),
    ]);
  }, [pageData, documents, shownPageId, nextNeedingAttention]);

  return (
    <div className="workspace" hidden={!active}>
      <ImportBanner report={imports.report} onDismiss={imports.dismissReport} />
      <ImportActivity current={imports.current} />
      <ApprovalPrompt />
      {active && <ReviewerNamePrompt />}
      {fieldsPane.reviewBar}
      <div className={fieldsPane.collapsed ? 'workspace-main with-fields fields-collapsed' : 'workspace-main with-fields'} style={fieldsPane.gridStyle}>
        <DocumentRail
          documents={documents}
          selectedPageId={pageId}
          marks={fieldsPane.pageMarks}
          onSelect={goTo}
          onImportFiles={(files) => void imports.importFiles(files)}
          onImportDialog={nativeDialogs && bridge ? () => void imports.importViaDialog() : undefined}
          importing={imports.busy}
          error={documentsError}
        />
        <PageViewer
          imageUrl={review?.imageUrl ?? null}
          pageWidth={review?.page.width ?? 1}
          pageHeight={review?.page.height ?? 1}
          boxSpace={extraction ? extraction.page : null}
          elements={elements}
          selectedId={selectedId}
          hoveredId={hoveredId}
          followSelection={followSelection}
          onHover={setHoveredId}
          onSelect={onBoxSelect}
          title={title}
          emptyText={pageId ? (reviewError ? '' : 'Loading…') : 'Import PDFs or images to start.'}
          onPrevious={() => step(-1)}
          onNext={() => step(1)}
          layers={
            <>
              {tools.pageLayers}
              {fieldsPane.overlay}
            </>
          }
        />
        <EditorPane
          pageId={pageId}
          review={review}
          hasText={hasText}
          loadError={reviewError}
          tab={tab}
          onTab={setTab}
          onReviewStatus={(status) => void setReviewStatus(status)}
          onReread={() => void reread()}
          readingActive={readingActive}
          engineMenu={<EngineMenu pageId={pageId} onReread={(engine) => void reread(engine)} />}
          editor={
            <div className="editor-split">
            <div className="editor-host">
            <MarkdownEditor
              onEditor={setEditorInstance}
              content={session.content}
              readOnly={!hasText}
              onChange={session.onChange}
              onCursor={onCursor}
              selectedSpan={spanOf(selectedId)}
              hoveredSpan={spanOf(hoveredId)}
              reveal={reveal}
              hidden={!hasText || tab !== 'markdown'}
            />
            </div>
            {hasText && tab === 'markdown' && (
              <CursorPanels
                editor={editorInstance}
                elements={elements}
                image={review && extraction ? { url: review.imageUrl, boxSpace: extraction.page } : null}
              />
            )}
            </div>
          }
          preview={<MarkdownPreview text={session.liveText} />}
          changes={tools.changesPanel}
          reading={tools.readingView}
        />
        {fieldsPane.panel}
      </div>
      <StatusBar
        saveState={session.saveState}
        extraction={extraction}
        page={review?.page ?? null}
        revisionCount={review?.page.revisionCount ?? null}
        correctedFields={fieldsPane.fields.corrected.size}
        connection={connectionState}
        selectedElement={elements.find((element) => element.id === selectedId) ?? null}
        extra={tools.statusItems}
      />
      {tools.overlay}
      {fieldsPane.dialogs}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-message">Drop PDFs or images to import them</div>
        </div>
      )}
    </div>
  );
}
