/**
 * First screen when no project is open (and the project switcher later): open the samples, open or create a
 * project by native dialog (Electron) or by path (browser shell, and Electron for "New").
 */
import { useState, type FormEvent } from 'react';
import type { AppInfo } from '../state/useAppInfo.js';
import { useClient } from '../state/contractContext.js';

interface WelcomeViewProps {
  info: AppInfo;
  onOpened(): void;
  /** Present when a project is already open: go back to it. */
  onCancel?: () => void;
}

export function WelcomeView({ info, onOpened, onCancel }: WelcomeViewProps) {
  const client = useClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [path, setPath] = useState('');

  async function run(label: string, action: () => Promise<unknown>) {
    setBusy(label);
    setError(null);
    try {
      const opened = await action();
      if (opened !== null) onOpened();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(null);
    }
  }

  function submitPath(event: FormEvent, mode: 'open' | 'create') {
    event.preventDefault();
    const trimmed = path.trim();
    if (!trimmed) {
      setError('Type the path of a project file first, e.g. /home/me/invoices.recto');
      return;
    }
    void run(mode, () => client.call(mode === 'open' ? 'project.open' : 'project.create', { path: trimmed }));
  }

  return (
    <main className="welcome" data-testid="welcome">
      <section className="welcome-card">
        <h1>Welcome to Recto</h1>
        <p className="welcome-lead">
          Review machine-read documents side by side with the page, correct the Markdown, and keep every correction.
        </p>

        {info.samplesAvailable && (
          <div className="welcome-block">
            <button
              className="button primary large"
              data-testid="open-samples"
              disabled={busy !== null}
              onClick={() => void run('samples', () => client.call('project.openSamples', {}))}
            >
              {busy === 'samples' ? 'Opening the samples…' : 'Open the sample invoices'}
            </button>
            <p className="hint">A project with a few synthetic invoices, to see how Recto works.</p>
          </div>
        )}

        {info.nativeDialogs && (
          <div className="welcome-block row">
            <button
              className="button"
              disabled={busy !== null}
              onClick={() => void run('dialog', () => client.call('dialog.openProject', {}))}
            >
              Open project…
            </button>
          </div>
        )}

        <form className="welcome-block" onSubmit={(event) => submitPath(event, 'open')}>
          <label className="field-label" htmlFor="project-path">
            {info.nativeDialogs ? 'Or type the path of a project file' : 'Project file on this computer'}
          </label>
          <div className="row">
            <input
              id="project-path"
              className="text-input"
              data-testid="project-path"
              placeholder="/path/to/invoices.recto"
              value={path}
              spellCheck={false}
              onChange={(event) => setPath(event.target.value)}
            />
            <button className="button" type="submit" disabled={busy !== null}>
              Open
            </button>
            <button
              className="button"
              type="button"
              disabled={busy !== null}
              onClick={(event) => submitPath(event, 'create')}
            >
              New project
            </button>
          </div>
          <p className="hint">A project is one file that holds the documents, the readings and every correction.</p>
        </form>

        {error && (
          <div className="inline-error" role="alert">
            {error}
          </div>
        )}
        {onCancel && (
          <button className="button subtle" onClick={onCancel}>
            Back to the open project
          </button>
        )}
      </section>
    </main>
  );
}
