/** Bottom line: save state, engine of the page, page size, revisions, connection. */
import type { ReactNode } from 'react';
import type { Element, Extraction } from '../../../app/model/extraction.js';
import { describeCorrections } from '../logic/correctionCount.js';
import type { PageSummary } from '../../../app/model/page.js';
import { describeSaveState, type SaveState } from '../logic/autosave.js';
import type { ConnectionState } from '../transport/connectionState.js';

interface StatusBarProps {
  saveState: SaveState | null;
  extraction: Extraction | null;
  page: PageSummary | null;
  revisionCount: number | null;
  /** Invoice fields standing corrected on this page's document. */
  correctedFields?: number;
  connection: ConnectionState;
  /** The element under the cursor or clicked on the page. */
  selectedElement: Element | null;
  /** Items of the review tools (confidence count, reading speed, theme), before the element under the cursor. */
  extra?: ReactNode;
}

export function engineLabel(extraction: Extraction | null): string {
  if (!extraction) return 'Not read yet';
  const { name, version, provider } = extraction.engine;
  return [`${name} ${version}`, provider].filter(Boolean).join(' · ');
}

export function StatusBar({ saveState, extraction, page, revisionCount, correctedFields = 0, connection, selectedElement, extra }: StatusBarProps) {
  return (
    <footer className="statusbar">
      <span
        className={`status-item save-state ${saveState?.kind ?? 'none'}`}
        data-testid="save-state"
        data-state={saveState?.kind ?? 'none'}
        role="status"
      >
        {saveState ? describeSaveState(saveState) : '—'}
      </span>
      {page && (
        <span className="status-item" data-testid="engine-label" title="Engine that read this page">
          {engineLabel(extraction)}
          {extraction && extraction.stats.durationMs > 0 && (
            <span className="muted"> · {(extraction.stats.durationMs / 1000).toFixed(1)} s</span>
          )}
        </span>
      )}
      {page && (
        <span className="status-item" title="Page image size">
          {page.width} × {page.height} px · {Math.round(page.dpi)} dpi
        </span>
      )}
      {revisionCount !== null && (
        <span className="status-item" data-testid="revision-count">
          {describeCorrections(revisionCount, correctedFields)}
        </span>
      )}
      <span className="status-spacer" />
      {extra}
      {selectedElement && (
        <span className="status-item" data-testid="selected-element">
          {selectedElement.kind}
          {selectedElement.level !== undefined ? ` ${selectedElement.level}` : ''}
          {selectedElement.confidence !== null ? ` · ${Math.round(selectedElement.confidence * 100)} % confident` : ''}
        </span>
      )}
      {extraction && extraction.warnings.length > 0 && (
        <span className="status-item warning" title={extraction.warnings.join('\n')}>
          {extraction.warnings.length} {extraction.warnings.length === 1 ? 'warning' : 'warnings'}
        </span>
      )}
      {connection !== 'open' && (
        <span className="status-item warning" role="status">
          {connection === 'connecting' ? 'Connecting…' : 'Connection lost — reconnecting…'}
        </span>
      )}
    </footer>
  );
}
