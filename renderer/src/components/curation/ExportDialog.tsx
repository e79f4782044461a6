/**
 * Export of the corpus from the UI: folder (typed, or picked with the desktop app's folder dialog), status filter,
 * since, images; then the job's progress bar with a Cancel button, and its result or error (a non-empty folder that
 * is not a Recto export is refused before anything is written; a cancelled export leaves the folder as it was).
 */
import { useEffect, useRef, useState } from 'react';
import type { RequestOf } from '../../../../app/contract/methods.js';
import { reviewStatusSchema, type ReviewStatus } from '../../../../app/model/page.js';
import { suggestedOutDir, toExportRequest, type ExportForm } from '../../logic/curation/exportForm.js';
import { isExportBusy, skippedPages, type ExportState } from '../../logic/curation/exportTracking.js';
import { useClient } from '../../state/contractContext.js';
import { JobProgressBar } from '../JobProgressBar.js';

interface ExportDialogProps {
  projectPath: string | null;
  state: ExportState;
  /** The shell has native dialogs (desktop app): offer a folder picker next to the typed path. */
  nativeDialogs: boolean;
  onStart(request: RequestOf<'corpus.export'>): void;
  onCancel(): void;
  onReset(): void;
  onClose(): void;
}

export function ExportDialog({ projectPath, state, nativeDialogs, onStart, onCancel, onReset, onClose }: ExportDialogProps) {
  const client = useClient();
  const [form, setForm] = useState<ExportForm>(() => ({
    outDir: state.outDir ?? suggestedOutDir(projectPath),
    status: '',
    since: '',
    images: 'png',
  }));
  const [problem, setProblem] = useState<string | null>(null);
  const folderField = useRef<HTMLInputElement>(null);
  const busy = isExportBusy(state);

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
  const chooseFolder = async () => {
    try {
      const chosen = await client.call('dialog.chooseExportFolder', form.outDir.trim() ? { defaultPath: form.outDir.trim() } : {});
      if (chosen) change({ outDir: chosen.path });
    } catch (caught) {
      setProblem(caught instanceof Error ? caught.message : String(caught));
    }
  };

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
          <div className="export-folder">
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
            {nativeDialogs && (
              <button type="button" className="button" data-testid="export-choose" disabled={busy} onClick={() => void chooseFolder()}>
                Choose…
              </button>
            )}
          </div>
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

          {state.progress && (state.phase === 'running' || state.phase === 'cancelling') && (
            <JobProgressBar jobs={[state.progress]} testId="export-progress" />
          )}
          {state.phase === 'cancelling' && <div className="hint">Stopping the export; the folder will be left as it was…</div>}
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
          {state.phase === 'cancelled' && (
            <div className="export-result cancelled" data-testid="export-result" data-state="cancelled" role="status">
              <strong>Export cancelled.</strong> The folder was left as it was.
            </div>
          )}
          {state.phase === 'failed' && (
            <div className="export-result error" data-testid="export-result" data-state="failed" role="alert">
              <strong>Export failed.</strong> {state.error}
            </div>
          )}

          <div className="modal-actions">
            {(state.phase === 'running' || state.phase === 'cancelling') && (
              <button type="button" className="button" data-testid="export-cancel" disabled={state.phase === 'cancelling'} onClick={onCancel}>
                {state.phase === 'cancelling' ? 'Stopping…' : 'Cancel export'}
              </button>
            )}
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
