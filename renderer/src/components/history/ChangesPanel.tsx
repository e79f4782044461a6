/**
 * What changed on this page: Monaco's diff editor of the current text against the engine's output or any earlier
 * revision, beside the page's history — its text revisions, invoice field corrections and review decisions (approved,
 * approved with exceptions, rejected: who, when, why) in the order they happened (logic/changesTimeline.ts). Restoring a revision puts its text in the editor and
 * saves it at once, so a restore is itself a new revision and nothing is ever overwritten.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FieldRevision } from '../../../../app/contract/fields.js';
import type { Revision } from '../../../../app/model/page.js';
import { changesTimeline, conflictOutcome, decisionLabel, fieldChangeText, type ReviewDecision } from '../../logic/changesTimeline.js';
import type { RevisionConflict } from '../../../../app/contract/conflicts.js';
import { monaco } from '../../editor/monacoSetup.js';
import { currentMonacoTheme } from '../../state/theme.js';
import { useClient } from '../../state/contractContext.js';
import type { MarkdownEditorInstance } from '../../editor/editorEdits.js';
import { useEditorState } from '../../state/useEditorState.js';

interface ChangesPanelProps {
  pageId: string;
  /** The engine's Markdown for the page (null before it was read). */
  engineText: string | null;
  engineLabel: string;
  /** The Markdown editor: the diff follows its text as it is typed (saved or not). */
  editor: MarkdownEditorInstance | null;
  /** Changes whenever a revision was saved, so the history is fetched again. */
  revisionCount: number;
  /** Changes whenever the page's review status changes, so the decisions are fetched again. */
  decisionKey?: string;
  /** Puts a text back (an earlier revision's, or the engine's) as a new revision. */
  onRestore(text: string): void;
}

const engineBase = 'engine';
/** Below this width (CSS px) the diff shows inline rather than side by side (in the editor column only). */
const SIDE_BY_SIDE_MIN_WIDTH = 720;

export function formatRevisionTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function ChangesPanel({ pageId, engineText, engineLabel, editor, revisionCount, decisionKey = '', onRestore }: ChangesPanelProps) {
  const client = useClient();
  const currentText = useEditorState(editor).text;
  const [history, setHistory] = useState<Revision[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [base, setBase] = useState<string>(engineBase);
  useEffect(() => {
    let current = true;
    client
      .call('revisions.list', { pageId })
      .then((list) => current && (setHistory(list), setError(null)))
      .catch((reason: unknown) => current && setError(reason instanceof Error ? reason.message : String(reason)));
    return () => {
      current = false;
    };
  }, [client, pageId, revisionCount]);
  // Field corrections and decisions join the list; a page without them (or a failed fetch) shows the text alone.
  const [fieldHistory, setFieldHistory] = useState<FieldRevision[]>([]);
  const [decisions, setDecisions] = useState<ReviewDecision[]>([]);
  const [conflicts, setConflicts] = useState<RevisionConflict[]>([]);
  useEffect(() => {
    let current = true;
    client.call('revisions.conflicts', { pageId, all: true }).then((list) => current && setConflicts(list), () => current && setConflicts([]));
    client.call('fields.revisions', { pageId }).then((list) => current && setFieldHistory(list), () => current && setFieldHistory([]));
    client.call('approval.history', { pageId }).then((list) => current && setDecisions(list), () => current && setDecisions([]));
    return () => {
      current = false;
    };
  }, [client, pageId, revisionCount, decisionKey]);
  const timeline = useMemo(() => changesTimeline(history, fieldHistory, decisions, conflicts), [history, fieldHistory, decisions, conflicts]);
  useEffect(() => setBase(engineBase), [pageId]);

  // Newest first; numbered in the order they were saved.
  const numbered = useMemo(() => history.map((revision, index) => ({ revision, number: index + 1 })).reverse(), [history]);
  const baseText =
    base === engineBase ? (engineText ?? '') : (history.find((revision) => revision.id === base)?.text ?? conflicts.find((conflict) => conflict.id === base)?.text ?? '');

  const container = useRef<HTMLDivElement>(null);
  const diff = useRef<{ editor: monaco.editor.IStandaloneDiffEditor; original: monaco.editor.ITextModel; modified: monaco.editor.ITextModel } | null>(null);
  useEffect(() => {
    const original = monaco.editor.createModel('', 'markdown');
    const modified = monaco.editor.createModel('', 'markdown');
    const editor = monaco.editor.createDiffEditor(container.current!, {
      readOnly: true,
      originalEditable: false,
      automaticLayout: true,
      renderSideBySide: true,
      useInlineViewWhenSpaceIsLimited: true,
      renderSideBySideInlineBreakpoint: SIDE_BY_SIDE_MIN_WIDTH,
      wordWrap: 'on',
      diffWordWrap: 'on',
      minimap: { enabled: false },
      // The editor column is narrow (about 400 px at 1280×720): no folding, glyph or overview margins, two-digit line
      // numbers — the text gets the width, and wraps at words, not at every word.
      folding: false,
      glyphMargin: false,
      lineDecorationsWidth: 6,
      lineNumbersMinChars: 2,
      renderOverviewRuler: false,
      fontSize: 13,
      lineHeight: 20,
      scrollBeyondLastLine: false,
      // Unchanged stretches fold away (a click unfolds them), so every change is in view without scrolling for it.
      hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 4, revealLineCount: 20 },
      theme: currentMonacoTheme(),
    });
    editor.setModel({ original, modified });
    diff.current = { editor, original, modified };
    return () => {
      diff.current = null;
      editor.dispose();
      original.dispose();
      modified.dispose();
    };
  }, []);
  useEffect(() => {
    const models = diff.current;
    if (!models) return;
    if (models.original.getValue() !== baseText) models.original.setValue(baseText);
    if (models.modified.getValue() !== currentText) models.modified.setValue(currentText);
  }, [baseText, currentText]);

  // Full width: the diff over the whole window, wide enough to stand side by side (the editor column alone leaves
  // each side ~120 px at 1440 px). Escape returns.
  const [fullWidth, setFullWidth] = useState(false);
  useEffect(() => {
    if (!fullWidth) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setFullWidth(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [fullWidth]);

  const latestId = history.at(-1)?.id ?? null;
  return (
    <section className={fullWidth ? 'changes-panel full-width' : 'changes-panel'} aria-label="Changes" data-testid="changes-panel" data-full-width={fullWidth}>
      <div className="tool-toolbar">
        <label className="changes-base">
          <span className="muted">Compare the current text with</span>
          <select value={base} onChange={(event) => setBase(event.target.value)} data-testid="diff-base">
            <option value={engineBase}>the engine’s output ({engineLabel})</option>
            {numbered.map(({ revision, number }) => (
              <option key={revision.id} value={revision.id}>
                revision {number} · {revision.author} · {formatRevisionTime(revision.createdAt)}
              </option>
            ))}
            {conflicts.map((conflict) => (
              <option key={conflict.id} value={conflict.id}>
                kept save · {conflict.author} · {formatRevisionTime(conflict.createdAt)}
              </option>
            ))}
          </select>
        </label>
        <span className="toolbar-spacer" />
        {/* Monaco's own change navigation, as buttons: a long page's later changes are a click away, not a scroll. */}
        <button className="text-button" title="Previous change" data-testid="diff-previous" onClick={() => diff.current?.editor.goToDiff('previous')}>
          ↑ Previous change
        </button>
        <button className="text-button" title="Next change" data-testid="diff-next" onClick={() => diff.current?.editor.goToDiff('next')}>
          ↓ Next change
        </button>
        <button className="text-button" title={fullWidth ? 'Back to the editor column (Escape)' : 'Show the diff across the whole window'} data-testid="diff-full-width" aria-pressed={fullWidth} onClick={() => setFullWidth((value) => !value)}>
          {fullWidth ? '⤡ Exit full width' : '⤢ Full width'}
        </button>
        <span className="muted" data-testid="diff-summary">
          {baseText === currentText ? 'No differences' : <span className="diff-sides">Removed on the left, added on the right</span>}
        </span>
      </div>
      <div className="changes-body">
        <div className="diff-host" ref={container} data-testid="diff-editor" />
        <aside className="revision-list" aria-label="Revision history">
          <div className="revision-list-title">History</div>
          {error && <div className="tool-message">{error}</div>}
          <ol data-testid="revision-list">
            {timeline.map((entry) => {
              if (entry.kind === 'decision') return <DecisionItem key={`d-${entry.at}-${entry.decision.status}`} decision={entry.decision} />;
              if (entry.kind === 'field') return <FieldChangeItem key={`f-${entry.revision.id}`} revision={entry.revision} />;
              if (entry.kind === 'conflict') {
                const { conflict } = entry;
                return (
                  <li key={conflict.id} className={conflict.id === base ? 'revision conflict selected' : 'revision conflict'} data-testid="conflict-item" data-resolution={conflict.resolution ?? 'open'}>
                    <div className="revision-head">
                      <strong>Kept save (conflict)</strong>
                    </div>
                    <div className="muted">
                      {conflict.author} · {formatRevisionTime(conflict.createdAt)} · met {conflict.theirs.author}’s newer revision
                    </div>
                    <div className="muted">{conflictOutcome(conflict)}</div>
                    <div className="revision-actions">
                      <button className="text-button" onClick={() => setBase(conflict.id)}>
                        Compare
                      </button>
                      <button className="text-button" disabled={conflict.text === currentText} title="Put this kept text back, as a new revision" onClick={() => onRestore(conflict.text)}>
                        Restore
                      </button>
                    </div>
                  </li>
                );
              }
              const { revision, number } = entry;
              return (
                <li key={revision.id} className={revision.id === base ? 'revision selected' : 'revision'} data-testid="revision-item" data-revision-id={revision.id}>
                  <div className="revision-head">
                    <strong>Revision {number}</strong>
                    {revision.id === latestId && <span className="revision-badge">current</span>}
                  </div>
                  <div className="muted">
                    {revision.author} · {formatRevisionTime(revision.createdAt)}
                  </div>
                  <div className="revision-actions">
                    <button className="text-button" onClick={() => setBase(revision.id)}>
                      Compare
                    </button>
                    <button
                      className="text-button"
                      data-testid="restore-revision"
                      disabled={revision.text === currentText}
                      title="Put this revision's text back, as a new revision"
                      onClick={() => onRestore(revision.text)}
                    >
                      Restore
                    </button>
                  </div>
                </li>
              );
            })}
            <li className={base === engineBase ? 'revision selected' : 'revision'}>
              <div className="revision-head">
                <strong>Engine output</strong>
              </div>
              <div className="muted">{engineLabel}</div>
              <div className="revision-actions">
                <button className="text-button" onClick={() => setBase(engineBase)}>
                  Compare
                </button>
                <button
                  className="text-button"
                  disabled={engineText === null || engineText === currentText}
                  title="Put the engine's text back, as a new revision"
                  onClick={() => engineText !== null && onRestore(engineText)}
                >
                  Restore
                </button>
              </div>
            </li>
          </ol>
        </aside>
      </div>
    </section>
  );
}

/** A review decision in the history: what was decided, by whom, when, and over which exceptions why. */
function DecisionItem({ decision }: { decision: ReviewDecision }) {
  const withExceptions = decision.exceptions.length > 0;
  return (
    <li className={`revision decision decision-${decision.status}`} data-testid="decision-item" data-status={decision.status}>
      <div className="revision-head">
        <strong>{decisionLabel(decision.status)}</strong>
      </div>
      <div className="muted">
        {decision.reviewer} · {formatRevisionTime(decision.at)}
      </div>
      {decision.reason && <div className="decision-reason">“{decision.reason}”</div>}
      {withExceptions && (
        <details className="decision-exceptions">
          <summary>over {decision.exceptions.length} exception{decision.exceptions.length === 1 ? '' : 's'}</summary>
          <ul>
            {decision.exceptions.map((exception, i) => (
              <li key={i}>{exception}</li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

/** An invoice field correction in the history (the field, what it was, what it became). */
function FieldChangeItem({ revision }: { revision: FieldRevision }) {
  return (
    <li className="revision field-change" data-testid="field-change-item">
      <div className="field-change-text">{fieldChangeText(revision)}</div>
      <div className="muted">
        {revision.author} · {formatRevisionTime(revision.createdAt)}
      </div>
    </li>
  );
}
