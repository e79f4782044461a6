/**
 * Export of the corpus from the UI: folder, status filter, since, images; then the job's progress bar and its result
 * or error (a non-empty folder that is not a Recto export is refused before anything is written).
 */
import { useEffect, useRef, useState } from 'react';
import type { RequestOf } from '../../../../app/contract/methods.js';
import { reviewStatusSchema, type ReviewStatus } from '../../../../app/model/page.js';
import { suggestedOutDir, toExportRequest, type ExportForm } from '../../logic/curation/exportForm.js';
import { skippedPages, type ExportState } from '../../logic/curation/exportTracking.js';
import { JobProgressBar } from '../JobProgressBar.js';

interface ExportDialogProps {
  projectPath: string | null;
  state: ExportState;
  onStart(request: RequestOf<'corpus.export'>): void;
  onReset(): void;
  onClose(): void;
}

export function ExportDialog({ projectPath, state, onStart, onReset, onClose }: ExportDialogProps) {
  const [form, setForm] = useState<ExportForm>(() => ({
    outDir: state.outDir ?? suggestedOutDir(projectPath),
    status: '',
    since: '',
    images: 'png',
  }));
  const [problem, setProblem] = useState<string | null>(null);
  const folderField = useRef<HTMLInputElement>(null);
  const busy = state.phase === 'starting' || state.phase === 'running';

  useEffect(() => folderField.current?.focus(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const change = (patch: Partial<ExportForm>) => {
    setForm((previous) => ({ ...previous, ...patch }));
    setProblem(null);
    if (!busy) onReset();
  };
  const run = () => {
    const result = toExportRequest(form);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    onStart(result.request);
  };
  const skipped = skippedPages(state);

  return (
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div className="modal export-dialog" role="dialog" aria-modal="true" aria-labelledby="export-title" data-testid="export-dialog">
        <h2 id="export-title">Export corpus</h2>
        <p className="hint">
          Writes <code>records.jsonl</code>, <code>tests.jsonl</code>, <code>manifest.json</code>, <code>README.md</code> and{' '}
          <code>images/</code> into the folder. A folder with a previous Recto export is updated; any other non-empty folder is
          refused.
        </p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy) run();
          }}
        >
          <label className="field-label" htmlFor="export-out">
            Folder
          </label>
          <input
            id="export-out"
            ref={folderField}
            className="text-input wide"
            data-testid="export-out"
            value={form.outDir}
            placeholder="/path/to/corpus"
            spellCheck={false}
            disabled={busy}
            onChange={(event) => change({ outDir: event.target.value })}
          />
          <div className="export-options">
            <label className="filter">
              <span className="filter-label">Pages</span>
              <select data-testid="export-status" value={form.status} disabled={busy} onChange={(event) => change({ status: event.target.value as ReviewStatus | '' })}>
                <option value="">Every status</option>
                {reviewStatusSchema.options.map((status) => (
                  <option key={status} value={status}>
                    {status} only
                  </option>
                ))}
              </select>
            </label>
            <label className="filter">
              <span className="filter-label">Corrected since</span>
              <input type="date" data-testid="export-since" value={form.since} disabled={busy} onChange={(event) => change({ since: event.target.value })} />
            </label>
            <fieldset className="filter radio-group" disabled={busy}>
              <legend className="filter-label">Images</legend>
              {(['png', 'none'] as const).map((images) => (
                <label key={images}>
                  <input type="radio" name="export-images" value={images} data-testid={`export-images-${images}`} checked={form.images === images} onChange={() => change({ images })} />
                  {images === 'png' ? 'PNG' : 'none'}
                </label>
              ))}
            </fieldset>
          </div>
          {problem && <div className="inline-error">{problem}</div>}

          {state.progress && state.phase === 'running' && <JobProgressBar jobs={[state.progress]} testId="export-progress" />}
          {state.phase === 'starting' && <div className="hint">Starting the export…</div>}
          {state.phase === 'done' && state.progress && (
            <div className="export-result ok" data-testid="export-result" data-state="done" role="status">
              <strong>{state.progress.label}</strong>
              {skipped.length > 0 && (
                <>
                  <p>
                    {skipped.length} {skipped.length === 1 ? 'page was' : 'pages were'} left out:
                  </p>
                  <ul>
                    {skipped.slice(0, 20).map((reason) => (
                      <li key={reason}>{reason}</li>
                    ))}
                    {skipped.length > 20 && <li>…and {skipped.length - 20} more</li>}
                  </ul>
                </>
              )}
            </div>
          )}
          {state.phase === 'failed' && (
            <div className="export-result error" data-testid="export-result" data-state="failed" role="alert">
              <strong>Export failed.</strong> {state.error}
            </div>
          )}

          <div className="modal-actions">
            <button type="button" className="button" onClick={onClose}>
              {busy ? 'Hide' : 'Close'}
            </button>
            <button type="submit" className="button primary" data-testid="export-run" disabled={busy}>
              {busy ? 'Exporting…' : state.phase === 'done' ? 'Export again' : 'Export'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
