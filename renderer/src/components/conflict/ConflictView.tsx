/**
 * The three-way view of a save conflict (app/contract/conflicts.ts): the page changed while the analyst was editing,
 * and the save was kept instead of written over the newer revision. Above, what the other side changed (base →
 * theirs); below, theirs beside mine, mine editable — the merge. The analyst keeps theirs, keeps mine, or saves the
 * merge; each is saved on theirs as base and recorded with the conflict. Over the whole window: the editor's column
 * is too narrow for two diffs side by side.
 */
import { useEffect, useRef, useState } from 'react';
import type { ConflictChoice, RevisionConflict } from '../../../../app/contract/conflicts.js';
import { monaco } from '../../editor/monacoSetup.js';
import { currentMonacoTheme } from '../../state/theme.js';

interface ConflictViewProps {
  conflict: RevisionConflict;
  /** The editor's text: the kept one, or what was typed after it. */
  mine: string;
  /** Resolves to an error message, or null once chosen. */
  onChoose(choice: ConflictChoice, mergedText?: string): Promise<string | null>;
}

const diffOptions: monaco.editor.IStandaloneDiffEditorConstructionOptions = {
  automaticLayout: true,
  renderSideBySide: true,
  wordWrap: 'on',
  diffWordWrap: 'on',
  minimap: { enabled: false },
  fontSize: 13,
  lineHeight: 20,
  scrollBeyondLastLine: false,
  renderOverviewRuler: false,
  // Unchanged stretches fold away (a click unfolds them): each change is in view without scrolling for it.
  hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 4, revealLineCount: 20 },
};

/** A Monaco diff editor of `original` → `modified` in `container`; `onModified` follows edits of the right side. */
function useDiff(container: React.RefObject<HTMLDivElement | null>, original: string, modified: string, editable: boolean, onModified?: (text: string) => void) {
  const onModifiedRef = useRef(onModified);
  onModifiedRef.current = onModified;
  useEffect(() => {
    const left = monaco.editor.createModel(original, 'markdown');
    const right = monaco.editor.createModel(modified, 'markdown');
    const editor = monaco.editor.createDiffEditor(container.current!, { ...diffOptions, readOnly: !editable, originalEditable: false, theme: currentMonacoTheme() });
    editor.setModel({ original: left, modified: right });
    const listener = right.onDidChangeContent(() => onModifiedRef.current?.(right.getValue()));
    return () => {
      listener.dispose();
      editor.dispose();
      left.dispose();
      right.dispose();
    };
  }, [container, original, modified, editable]);
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString();

export function ConflictView({ conflict, mine, onChoose }: ConflictViewProps) {
  const { theirs } = conflict;
  const theirsChange = useRef<HTMLDivElement>(null);
  const merge = useRef<HTMLDivElement>(null);
  const [merged, setMerged] = useState(mine);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setMerged(mine), [conflict.id, mine]);
  useDiff(theirsChange, conflict.baseText, theirs.text, false);
  useDiff(merge, theirs.text, mine, true, setMerged);

  const choose = (choice: ConflictChoice) => {
    setBusy(true);
    setError(null);
    void onChoose(choice, choice === 'merged' ? merged : undefined).then((message) => {
      setBusy(false);
      setError(message);
    });
  };

  return (
    <section className="conflict-view" role="dialog" aria-modal="true" aria-label="Save conflict" data-testid="conflict-view" data-conflict={conflict.id}>
      <header className="conflict-head">
        <div className="conflict-title">
          <strong>This page changed while you were editing</strong>
          <span className="muted">
            {theirs.author} saved it at {timeOf(theirs.createdAt)}, after the revision your edit started from. Your text is kept, not lost:
            choose what the page keeps.
          </span>
        </div>
        <div className="conflict-actions">
          <button className="button" disabled={busy} onClick={() => choose('theirs')} data-testid="conflict-keep-theirs" title={`Keep ${theirs.author}’s text; yours stays on record`}>
            Keep theirs
          </button>
          <button className="button" disabled={busy} onClick={() => choose('mine')} data-testid="conflict-keep-mine" title={`Save your text on top of ${theirs.author}’s`}>
            Keep mine
          </button>
          <button className="button primary" disabled={busy || merged === mine} onClick={() => choose('merged')} data-testid="conflict-save-merge" title="Save the right side below, as you edited it">
            Save the merge
          </button>
        </div>
      </header>
      {error && (
        <p className="conflict-error" role="alert">
          {error}
        </p>
      )}
      <div className="conflict-panes">
        <div className="conflict-pane conflict-their-change">
          <div className="conflict-pane-head">
            <span>What {theirs.author} changed</span>
            <span className="muted">base (where your edit started) → theirs</span>
          </div>
          <div className="conflict-diff" ref={theirsChange} data-testid="conflict-theirs-diff" />
        </div>
        <div className="conflict-pane conflict-merge">
          <div className="conflict-pane-head">
            <span>Theirs ↔ yours</span>
            <span className="muted">edit the right side to merge, then Save the merge</span>
          </div>
          <div className="conflict-diff" ref={merge} data-testid="conflict-merge-diff" />
        </div>
      </div>
    </section>
  );
}
