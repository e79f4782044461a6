/**
 * The review tools of the workspace in one place, so the workspace only places what they render: confidence marks
 * (underlines, page tints, F8, the status count), the changes tab (diff and revision history, restore), the command
 * palette and the theme switch.
 */
import { useState, type ReactNode } from 'react';
import type { PageReview } from '../../../../app/contract/methods.js';
import { replaceText, type MarkdownEditorInstance } from '../../editor/editorEdits.js';
import { useTheme, setThemePreference, type ThemePreference } from '../../state/theme.js';
import { ConfidenceStatus } from '../confidence/ConfidenceStatus.js';
import { ConfidenceTints } from '../confidence/ConfidenceTints.js';
import { useConfidenceMarks } from '../../state/useConfidenceMarks.js';
import { ChangesPanel } from '../history/ChangesPanel.js';
import { LiveReadingView } from '../live/LiveReadingView.js';
import { describeSpeed, useLiveReading } from '../../state/useLiveReading.js';
import { CommandPalette } from '../palette/CommandPalette.js';
import { useCommandKeys } from '../../state/useCommandKeys.js';
import { workspaceCommands, type WorkspaceActions } from '../palette/workspaceCommands.js';
import { engineLabel } from '../StatusBar.js';

interface ReviewToolsInput {
  editor: MarkdownEditorInstance | null;
  review: PageReview | null;
  /** A re-read of this page was asked for and its job has not ended. */
  rereading: boolean;
  /** The workspace is on screen (not behind the curation view). */
  active: boolean;
  hasText: boolean;
  /** Saves pending text now (restore saves at once, so it is a revision of its own). */
  saveNow(): Promise<void>;
  actions: Omit<WorkspaceActions, 'nextMark'>;
}

export interface ReviewTools {
  pageLayers: ReactNode;
  changesPanel: ReactNode;
  readingView: ReactNode;
  statusItems: ReactNode;
  overlay: ReactNode;
}

export function useReviewTools({ editor, review, rereading, active, hasText, saveNow, actions }: ReviewToolsInput): ReviewTools {
  const extraction = review?.extraction ?? null;
  const confidence = useConfidenceMarks(editor, hasText ? extraction : null);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const live = useLiveReading(review?.page.id ?? null);
  // A page is shown as being read from its first streamed token on, not only once a refetch of its review says
  // 'reading': a short reading (a few hundred ms) could otherwise finish before the status round trip comes back.
  const status = review?.page.status;
  const reading = status === 'reading' || (status === 'pending' && live !== null) || rereading;
  const { preference } = useTheme();
  useCommandKeys('tools', { palette: () => setPaletteOpen(true), 'next-unsure': () => confidence.next(1), 'previous-unsure': () => confidence.next(-1) }, active && !paletteOpen);

  const restore = (text: string) => {
    const model = editor?.getModel();
    if (!editor || !model) return;
    replaceText(editor, 0, model.getValueLength(), text, 0);
    void saveNow();
  };

  return {
    pageLayers: extraction && <ConfidenceTints marks={confidence.marks} visited={confidence.visited} boxSpace={extraction.page} />,
    changesPanel: review && hasText && (
      <ChangesPanel
        pageId={review.page.id}
        engineText={extraction?.markdown ?? null}
        engineLabel={engineLabel(extraction)}
        editor={editor}
        revisionCount={review.page.revisionCount}
        decisionKey={`${review.page.reviewStatus} ${review.page.reviewedBy?.at ?? ''}`}
        onRestore={restore}
      />
    ),
    readingView: reading ? <LiveReadingView live={live} /> : null,
    statusItems: (
      <>
        {reading && live && (
          <span className="status-item" data-testid="live-status" title="Decoding speed of the page being read">
            {describeSpeed(live)}
          </span>
        )}
        {hasText && extraction && <ConfidenceStatus confidence={confidence} />}
        <label className="status-item theme-switch" title="Theme (also in the command palette, Ctrl+Shift+P)">
          <select value={preference} data-testid="theme-select" aria-label="Theme" onChange={(event) => setThemePreference(event.target.value as ThemePreference)}>
            <option value="system">System theme</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </>
    ),
    overlay: paletteOpen && (
      <CommandPalette commands={workspaceCommands({ ...actions, nextMark: confidence.next })} onClose={() => setPaletteOpen(false)} />
    ),
  };
}
