/**
 * The outcome of an import: every file that failed, with the reason, and every file refused as a duplicate, naming (and
 * linking) the document of the project that holds the same bytes; dismissible.
 */
import type { ImportReport } from '../state/useImport.js';

export function ImportBanner({ report, onDismiss, onOpenDocument }: { report: ImportReport | null; onDismiss(): void; onOpenDocument(documentId: string): void }) {
  if (!report) return null;
  const { errors, duplicates } = report.result;
  if (errors.length === 0 && duplicates.length === 0) return null;
  return (
    <div
      className={errors.length > 0 ? 'banner error' : 'banner info'}
      role={errors.length > 0 ? 'alert' : 'status'}
      data-testid={errors.length > 0 ? 'import-error' : 'import-notice'}
    >
      <div className="banner-body">
        {errors.length > 0 && (
          <>
            <strong>
              {errors.length === 1 ? 'One file could not be imported' : `${errors.length} files could not be imported`}
            </strong>
            <ul>
              {errors.map((error, index) => (
                <li key={`${error.file}-${index}`}>
                  <span className="banner-file">{error.file}</span>: {error.reason}
                </li>
              ))}
            </ul>
          </>
        )}
        {duplicates.length > 0 && (
          <ul className="banner-duplicates" data-testid="import-duplicates">
            {duplicates.map((file, index) => {
              const holder = report.result.duplicateOf?.find((entry) => entry.file === file);
              return (
                <li key={`${file}-${index}`} data-duplicate-file={file}>
                  <span className="banner-file">{file}</span> is already in the project
                  {holder && (
                    <>
                      {holder.documentName === file ? ' (' : ' as '}
                      <button
                        className="link-button banner-file"
                        data-testid="duplicate-holder"
                        data-document-id={holder.documentId}
                        title={`Open ${holder.documentName}, the document with the same bytes`}
                        onClick={() => onOpenDocument(holder.documentId)}
                      >
                        {holder.documentName === file ? 'open it' : holder.documentName}
                      </button>
                      {holder.documentName === file ? ')' : ' (the same bytes)'}
                    </>
                  )}
                  ; not imported again.
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <button className="banner-close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}

/** While files are being sent and split into pages, before reading (and its progress bar) starts. */
export function ImportActivity({ current }: { current: { name: string; index: number; total: number } | null }) {
  if (!current) return null;
  return (
    <div className="import-activity" role="status" data-testid="import-activity">
      <span className="spinner small" aria-hidden="true" />
      Importing {current.name}
      {current.total > 1 ? ` (${current.index} of ${current.total})` : ''}…
    </div>
  );
}
