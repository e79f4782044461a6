/**
 * The review screen: documents on the left, the page image in the middle, its Markdown on the right, status below.
 * Places what the page selection (usePageSelection) and the link between boxes and text (useBoxCursorLink) hold.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReviewStatus } from '../../../app/model/page.js';
import { noQueueFilter, type QueueFilter } from '../logic/queueWalk.js';
import { useClient, useConnection, useConnectionState } from '../state/contractContext.js';
import { useBoxCursorLink } from '../state/useBoxCursorLink.js';
import { useDocuments } from '../state/useDocuments.js';
import { useImportAndOpen } from '../state/useImportAndOpen.js';
import { usePageSelection, usePrefetchAhead } from '../state/usePageSelection.js';
import { useReread } from '../state/useReread.js';
import { DocumentRail } from './DocumentRail.js';
import { EditorPane, type EditorTab } from './EditorPane.js';
import { EngineMenu } from './EngineMenu.js';
import { ImportActivity, ImportBanner } from './ImportBanner.js';
import { LinkedMarkdownEditor } from './LinkedMarkdownEditor.js';
import type { GridAsk } from './tools/CursorPanels.js';
import { MarkdownPreview } from './MarkdownPreview.js';
import { PageViewer } from './PageViewer.js';
import { StatusBar } from './StatusBar.js';
import { useCommandKeys } from '../state/useCommandKeys.js';
import { useFieldsPane } from './fields/useFieldsPane.js';
import { useReviewTools } from './tools/useReviewTools.js';
import type { MarkdownEditorInstance } from '../editor/editorEdits.js';
import { ApprovalPrompt } from './approval/ApprovalPrompt.js';
import { ReviewerNamePrompt } from './approval/ReviewerNamePrompt.js';
import { approve } from './approval/approvalGate.js';
import { ApprovalRefusal } from './approval/ApprovalRefusal.js';
import { ConflictView } from './conflict/ConflictView.js';

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
  onShowView?(view: 'curation' | 'evaluate' | 'suppliers'): void;
  /** The curation view with its export dialog (from the command palette). */
  onExport?(): void;
  /** The curation view with the invoices export dialog (from the command palette). */
  onExportInvoices?(): void;
  /** The page on screen changed (the app's history records it). */
  onPageShown?(pageId: string | null): void;
  /** The curation view's filter, which Alt+N / Alt+P follow. */
  queueFilter?: QueueFilter;
  /** Whether an import is sending files (the progress bar keeps their reading as one batch meanwhile). */
  onImporting?(busy: boolean): void;
}

/**
 * Memoised: the app re-renders when the page shown changes (its history records it, in the same switch), and the
 * workspace, which rendered that page already, has nothing new to render then.
 */
export const ReviewWorkspace = memo(function ReviewWorkspace({ nativeDialogs, readingActive, active, openRequest, onSavedWhileHidden, onShowView, onExport, onExportInvoices, onPageShown, queueFilter = noQueueFilter, onImporting }: ReviewWorkspaceProps) {
  const client = useClient();
  const { bridge } = useConnection();
  const connectionState = useConnectionState();
  const { documents, error: documentsError, reload: reloadDocuments } = useDocuments();
  const { pageId, navigation, goTo, step, pageData, review, reviewError, reloadReview, session } = usePageSelection({
    documents,
    active,
    openRequest,
    onSavedWhileHidden,
    onPageShown,
  });
  const [tab, setTab] = useState<EditorTab>('markdown');
  const [editorInstance, setEditorInstance] = useState<MarkdownEditorInstance | null>(null);
  const [gridAsk, setGridAsk] = useState<GridAsk | null>(null);
  const askForGrid = (orFirstTable: boolean) => setGridAsk((previous) => ({ serial: (previous?.serial ?? 0) + 1, orFirstTable }));

  const { imports, dragging } = useImportAndOpen(goTo, reloadDocuments);
  useEffect(() => onImporting?.(imports.busy), [imports.busy, onImporting]);
  // Stable, so that the rail (memoised) is not rendered again by a field edit or a save.
  const importsLatest = useRef(imports);
  importsLatest.current = imports;
  const importFiles = useCallback((files: File[]) => void importsLatest.current.importFiles(files), []);
  const importDialog = useMemo(() => (nativeDialogs && bridge ? () => void importsLatest.current.importViaDialog() : undefined), [nativeDialogs, bridge]);
  useCommandKeys(
    'review',
    { 'previous-page': () => step(-1), 'next-page': () => step(1), save: () => void session.saveNow(), 'history-back': () => window.history.back(), 'history-forward': () => window.history.forward() },
    active,
  );

  const extraction = review?.extraction ?? null;
  const link = useBoxCursorLink({ extraction, spans: session.spans, navigation, onShowText: () => setTab('markdown') });
  const { elements } = link;

  const setReviewStatus = async (status: ReviewStatus) => {
    if (!pageId) return;
    // The invoice is the unit of approval: from any page, the whole invoice (a page of any other document alone).
    if (status === 'approved') await approve(client, pageId, 'unit');
    else await client.call('pages.setReviewStatus', { pageId, status }).catch(() => undefined);
    reloadReview();
    void reloadDocuments();
  };
  const { rereading, reread } = useReread(pageId, () => {
    reloadReview();
    void reloadDocuments();
  });

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
    rereading,
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
      exportInvoices: () => onExportInvoices?.(),
      history: (direction) => (direction === 'back' ? window.history.back() : window.history.forward()),
      fields: fieldsPane.commands,
      openGrid: () => {
        setTab('markdown');
        askForGrid(true);
      },
      importFiles: () => (nativeDialogs && bridge ? void imports.importViaDialog() : window.document.querySelector<HTMLInputElement>('[data-testid="import-input"]')?.click()),
    },
  });

  const document = documents?.find((candidate) => candidate.pages.some((page) => page.id === pageId));
  const title = review
    ? `${review.documentName} — page ${review.page.pageNumber}${document ? ` of ${document.pages.length}` : ''}`
    : '';
  const hasText = session.content !== null;

  usePrefetchAhead(pageData, documents, review?.page.id ?? null, fieldsPane.nextNeedingAttention);

  return (
    <div className="workspace" hidden={!active}>
      <ImportBanner
        report={imports.report}
        onDismiss={imports.dismissReport}
        onOpenDocument={(documentId) => {
          const first = documents?.find((candidate) => candidate.id === documentId)?.pages[0];
          if (first) goTo(first.id);
        }}
      />
      <ImportActivity current={imports.current} />
      <ApprovalPrompt />
      <ApprovalRefusal />
      {active && <ReviewerNamePrompt />}
      {fieldsPane.reviewBar}
      <div className={fieldsPane.collapsed ? 'workspace-main with-fields fields-collapsed' : 'workspace-main with-fields'} style={fieldsPane.gridStyle}>
        <DocumentRail
          documents={documents}
          selectedPageId={pageId}
          marks={fieldsPane.pageMarks}
          onSelect={goTo}
          onImportFiles={importFiles}
          onImportDialog={importDialog}
          importing={imports.busy}
          error={documentsError}
        />
        <PageViewer
          imageUrl={review?.imageUrl ?? null}
          pageWidth={review?.page.width ?? 1}
          pageHeight={review?.page.height ?? 1}
          boxSpace={extraction ? extraction.page : null}
          elements={elements}
          selectedId={link.selectedId}
          hoveredId={link.hoveredId}
          followSelection={link.followSelection}
          onHover={link.setHoveredId}
          onSelect={(id) => {
            link.onBoxSelect(id);
            // A table's box opens its grid, even one closed before: the way back to the grid from the page.
            if (elements.find((element) => element.id === id)?.kind === 'table') askForGrid(false);
          }}
          title={title}
          emptyText={pageId ? (reviewError ? '' : 'Loading…') : 'Import PDFs or images to start.'}
          onPrevious={() => step(-1)}
          onNext={() => step(1)}
          onScreenImageWidth={pageData.setScreenImageWidth}
          focusBox={fieldsPane.focusBox}
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
            <LinkedMarkdownEditor
              link={link}
              content={session.content}
              onChange={session.onChange}
              shown={hasText && tab === 'markdown'}
              hasText={hasText}
              editor={editorInstance}
              onEditor={setEditorInstance}
              image={review && extraction ? { url: review.imageUrl, boxSpace: extraction.page } : null}
              openGrid={gridAsk}
            />
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
        selectedElement={link.selectedElement}
        extra={tools.statusItems}
      />
      {tools.overlay}
      {active && session.saveState?.kind === 'conflict' && (
        <ConflictView key={session.saveState.conflict.id} conflict={session.saveState.conflict} mine={session.conflictMine ?? session.liveText} onChoose={session.resolveConflict} />
      )}
      {fieldsPane.dialogs}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-message">Drop PDFs or images to import them</div>
        </div>
      )}
    </div>
  );
});
