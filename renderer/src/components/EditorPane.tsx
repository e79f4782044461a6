/**
 * The right pane: Markdown (Monaco) or its Preview, the page's review status, and what to show while a page has no
 * text yet (being read, or reading failed).
 */
import type { PageReview } from '../../../app/contract/methods.js';
import type { ReviewStatus } from '../../../app/model/page.js';
import type { ReactNode } from 'react';

export type EditorTab = 'markdown' | 'preview' | 'changes';

const reviewStatuses: { value: ReviewStatus; label: string }[] = [
  { value: 'unreviewed', label: 'Unreviewed' },
  { value: 'in-review', label: 'In review' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

interface EditorPaneProps {
  /** The selected page; null when the project has no pages yet. */
  pageId: string | null;
  review: PageReview | null;
  hasText: boolean;
  loadError: string | null;
  tab: EditorTab;
  onTab(tab: EditorTab): void;
  onReviewStatus(status: ReviewStatus): void;
  onReread(): void;
  /** Whether any reading job runs; a page left waiting without one (a cancelled job) offers to be read. */
  readingActive: boolean;
  /** The engine chooser (and "read again with it"). */
  engineMenu?: ReactNode;
  /** The Monaco editor; kept mounted so switching pages and tabs is instant. */
  editor: ReactNode;
  preview: ReactNode;
  /** The diff against the engine / earlier revisions and the revision history. */
  changes?: ReactNode;
  /** The page's Markdown streaming in while it is read. */
  reading?: ReactNode;
}

export function EditorPane(props: EditorPaneProps) {
  const { review, hasText, tab } = props;
  const placeholder = placeholderFor(props);
  return (
    <section className="editor-pane" aria-label="Markdown">
      <div className="pane-toolbar">
        <div className="tabs" role="tablist">
          <button role="tab" aria-selected={tab === 'markdown'} className={tab === 'markdown' ? 'tab active' : 'tab'} onClick={() => props.onTab('markdown')}>
            Markdown
          </button>
          <button role="tab" aria-selected={tab === 'preview'} className={tab === 'preview' ? 'tab active' : 'tab'} data-testid="preview-tab" onClick={() => props.onTab('preview')}>
            Preview
          </button>
          {props.changes && (
            <button role="tab" aria-selected={tab === 'changes'} className={tab === 'changes' ? 'tab active' : 'tab'} data-testid="changes-tab" onClick={() => props.onTab('changes')}>
              Changes
            </button>
          )}
        </div>
        <span className="toolbar-spacer" />
        {props.engineMenu}
        {review && (
          <label className="review-status">
            <span className="muted">Review</span>
            <select
              value={review.page.reviewStatus}
              data-testid="review-status"
              onChange={(event) => props.onReviewStatus(event.target.value as ReviewStatus)}
            >
              {reviewStatuses.map((status) => (
                <option key={status.value} value={status.value}>
                  {status.label}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <div className="editor-body">
        {props.editor}
        {hasText && tab === 'preview' && props.preview}
        {hasText && tab === 'changes' && props.changes}
        {placeholder}
      </div>
    </section>
  );
}

function placeholderFor({ pageId, review, hasText, loadError, onReread, readingActive, reading }: EditorPaneProps): ReactNode {
  if (!pageId) return <div className="pane-message">The Markdown of the selected page appears here.</div>;
  if (loadError) return <div className="pane-message error">This page could not be loaded: {loadError}</div>;
  if (!review) return <div className="pane-message">Loading…</div>;
  // Being read (a first reading, or a re-read of a page that has text): the live view, with any engine — one that
  // streams shows its text, one that does not shows its progress — over the editor, which stays mounted beneath.
  if (reading) return reading;
  if (hasText) return null;
  const { status, error } = review.page;
  if (status === 'error') {
    return (
      <div className="pane-message error">
        <p>Reading this page failed: {error ?? 'unknown reason'}</p>
        <button className="button" onClick={onReread}>
          Read again
        </button>
      </div>
    );
  }
  // (`reading` is given only while the page is being read: its status says so, or its first tokens have arrived.)
  if (status === 'pending' && !readingActive) {
    return (
      <div className="pane-message">
        <p>This page has not been read yet.</p>
        <button className="button" onClick={onReread}>
          Read this page
        </button>
      </div>
    );
  }
  return (
    <div className="pane-message">
      <span className="spinner" aria-hidden="true" />
      {status === 'reading' ? 'This page is being read…' : 'This page is waiting to be read…'}
    </div>
  );
}
