/**
 * The left rail: documents with their pages, reading status and a marker where a page fails its rules or disagrees
 * with its XML, and the Import button. A document's name opens its first page.
 */
import { memo, useCallback, useRef } from 'react';
import type { DocumentSummary, PageSummary } from '../../../app/model/page.js';
import type { PageMark } from '../logic/pageMarks.js';
import { ExceptionsBadge } from './approval/ReviewedByBadge.js';

interface DocumentRailProps {
  documents: readonly DocumentSummary[] | null;
  selectedPageId: string | null;
  /** pageId → its needs-attention marker (logic/pageMarks.ts). */
  marks?: ReadonlyMap<string, PageMark>;
  onSelect(pageId: string): void;
  /** Browser shell: files from the hidden input. */
  onImportFiles(files: File[]): void;
  /** Electron shell: the native dialog; when set the file input is not used. */
  onImportDialog?: () => void;
  importing: boolean;
  error: string | null;
}

const statusText: Record<PageSummary['status'], string> = {
  pending: 'Waiting to be read',
  reading: 'Being read…',
  done: 'Read',
  error: 'Reading failed',
};

/** Memoised: a field edit or a save renders the review screen, and the rail only when its documents or marks change. */
export const DocumentRail = memo(function DocumentRail(props: DocumentRailProps) {
  const { documents, selectedPageId, marks, onSelect, onImportFiles, onImportDialog, importing, error } = props;
  const input = useRef<HTMLInputElement>(null);
  // A stable callback, so a page switch re-renders only the documents whose selection changed (not all 200).
  const onSelectLatest = useRef(onSelect);
  onSelectLatest.current = onSelect;
  const select = useCallback((pageId: string) => onSelectLatest.current(pageId), []);

  return (
    <aside className="rail">
      <div className="rail-header">
        <span className="rail-title">Documents</span>
        <button
          className="button small"
          disabled={importing}
          onClick={() => (onImportDialog ? onImportDialog() : input.current?.click())}
          title="Import PDFs or images (or drop them onto the window)"
        >
          {importing ? 'Importing…' : 'Import'}
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="import-input"
          accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.webp,.xml,application/pdf,application/xml,text/xml,image/*"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            onImportFiles(files);
          }}
        />
      </div>
      <nav className="rail-list" data-testid="doc-list" aria-label="Documents and pages">
        {error && <div className="inline-error">{error}</div>}
        {documents?.length === 0 && (
          <div className="rail-empty">No documents yet. Import PDFs or images, or drop them anywhere in the window.</div>
        )}
        {documents?.map((document) => (
          <RailDocument
            key={document.id}
            document={document}
            selectedPageId={document.pages.some((page) => page.id === selectedPageId) ? selectedPageId : null}
            marks={marksOf(document, marks)}
            onSelect={select}
          />
        ))}
      </nav>
    </aside>
  );
});

/** A document's page markers as one string per page, so an unchanged document compares equal and is not re-rendered. */
function marksOf(document: DocumentSummary, marks: ReadonlyMap<string, PageMark> | undefined): string {
  return document.pages.map((page) => { const mark = marks?.get(page.id); return mark ? `${mark.kind}\u0001${mark.text}\u0001${mark.title}` : ''; }).join('\u0002');
}

interface RailDocumentProps {
  document: DocumentSummary;
  selectedPageId: string | null;
  /** marksOf(): the page markers, serialized. */
  marks: string;
  onSelect(pageId: string): void;
}

/** One document and its pages; re-rendered only when the document, its selected page or its markers change. */
const RailDocument = memo(function RailDocument({ document, selectedPageId, marks, onSelect }: RailDocumentProps) {
  const pageMarks = marks.split('\u0002');
  const firstPage = document.pages[0];
  return (
    <section className="rail-doc">
      <button
        className="rail-doc-name"
        title={`${document.name} — open its first page`}
        data-testid="doc-name"
        disabled={!firstPage}
        onClick={() => firstPage && onSelect(firstPage.id)}
      >
        {document.name}
      </button>
      <ul>
        {document.pages.map((page, index) => {
          const [kind, text, markTitle] = (pageMarks[index] ?? '').split('\u0001');
          return (
          <li key={page.id}>
            <button
              className={page.id === selectedPageId ? 'page-item selected' : 'page-item'}
              data-testid="page-item"
              data-page-id={page.id}
              data-document-name={document.name}
              data-status={page.status}
              aria-current={page.id === selectedPageId ? 'true' : undefined}
              title={page.status === 'error' ? `Reading failed: ${page.error ?? 'unknown reason'}` : statusText[page.status]}
              onClick={() => onSelect(page.id)}
            >
              <span className={`status-dot ${page.status}`} aria-hidden="true" />
              <span className="page-item-label">Page {page.pageNumber}</span>
              {page.revisionCount > 0 && <span className="page-item-badge" title={`${page.revisionCount} saved corrections`}>edited</span>}
              {kind && (
                <span className={`page-mark ${kind}`} data-testid="page-mark" data-mark={kind} title={markTitle}>
                  {text}
                </span>
              )}
              {page.reviewStatus === 'approved' && page.reviewedBy?.status !== 'approved-with-exceptions' && <span className="page-item-badge approved">approved</span>}
              {page.reviewStatus === 'approved' && <ExceptionsBadge by={page.reviewedBy} />}
            </button>
          </li>
          );
        })}
      </ul>
    </section>
  );
});
