/**
 * Saves the analyst's text as revisions, grouped as editors group undo steps: one revision per pause in the typing
 * (`delayMs` without a keystroke), at most `maxWaitMs` apart while the typing goes on, or at once on Ctrl/Cmd+S and
 * page switches. A short pause between two words is no revision of its own (an 800 ms debounce made 14 revisions of
 * a few edits). One save is
 * in flight at a time; each saves the newest text with the previous save's revision as parent, so the revision chain
 * follows the edit history. A failed save keeps the text, says why, and is retried by the next edit or Ctrl+S.
 *
 * A save the main side answers with `conflict` (the page moved on since this text's parent: another analyst, another
 * window, a merge) is kept there; the autosave then stops saving — more saves on the old parent would only be more
 * conflicts — and holds the conflict for the three-way view until the analyst has chosen (useEditingSession.ts).
 */
import { ContractError } from '../../../app/contract/client.js';
import { conflictDetailSchema, type RevisionConflict } from '../../../app/contract/conflicts.js';
import type { Revision } from '../../../app/model/page.js';

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'dirty' }
  | { kind: 'saving' }
  | { kind: 'error'; message: string }
  /** The last save met a newer revision; its text is kept as `conflict` until the analyst chooses. */
  | { kind: 'conflict'; conflict: RevisionConflict };

export interface AutosaveOptions {
  /** Text and parent revision as loaded; edits are compared against this text. */
  savedText: string;
  parentId: string | null;
  save(text: string, parentId: string | null): Promise<Revision>;
  onState(state: SaveState): void;
  /** Called after each successful save with the new revision. */
  onSaved?(revision: Revision): void;
  delayMs?: number;
  /** Typing without a pause still saves this often (nothing typed is more than this far from the store). */
  maxWaitMs?: number;
}

/** A pause in the typing this long ends a revision. */
export const REVISION_PAUSE_MS = 2000;
/** Continuous typing is saved at least this often. */
export const REVISION_MAX_WAIT_MS = 10_000;

export class Autosave {
  private savedText: string;
  private parentId: string | null;
  private latestText: string;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> | null = null;
  private state: SaveState = { kind: 'saved' };
  private readonly delayMs: number;
  private readonly maxWaitMs: number;
  /** When the first unsaved keystroke of the current group came (Date.now()), or null when nothing waits. */
  private groupStartedAt: number | null = null;

  constructor(private readonly options: AutosaveOptions) {
    this.savedText = options.savedText;
    this.latestText = options.savedText;
    this.parentId = options.parentId;
    this.delayMs = options.delayMs ?? REVISION_PAUSE_MS;
    this.maxWaitMs = options.maxWaitMs ?? REVISION_MAX_WAIT_MS;
  }

  get currentState(): SaveState {
    return this.state;
  }

  /** True while some text has not reached the store. */
  get hasUnsavedChanges(): boolean {
    return this.latestText !== this.savedText;
  }

  /** The revision the next save will name as parent. */
  get currentParentId(): string | null {
    return this.parentId;
  }

  /** The newest text the editor holds (what the three-way view shows as mine). */
  get text(): string {
    return this.latestText;
  }

  /** Holds `conflict` (a choice that met a newer revision again): nothing is saved until the analyst chooses. */
  conflicted(conflict: RevisionConflict): void {
    this.clearTimer();
    this.setState({ kind: 'conflict', conflict });
  }

  /** Records an edit and (re)starts the debounce timer. */
  edit(text: string): void {
    this.latestText = text;
    this.clearTimer();
    if (this.inFlight) return; // the running save re-checks the text when it ends
    if (this.state.kind === 'conflict') return; // the choice saves what is kept
    if (text === this.savedText) {
      this.groupStartedAt = null;
      this.setState({ kind: 'saved' });
      return;
    }
    this.setState({ kind: 'dirty' });
    const now = Date.now();
    this.groupStartedAt ??= now;
    const untilMaxWait = this.groupStartedAt + this.maxWaitMs - now;
    this.timer = setTimeout(() => void this.flush(), Math.max(0, Math.min(this.delayMs, untilMaxWait)));
  }

  /** Saves now (Ctrl/Cmd+S, page switch). Resolves when the newest text is stored or the save failed. */
  async flush(): Promise<void> {
    this.clearTimer();
    while (this.inFlight) await this.inFlight;
    if (this.state.kind === 'conflict') return;
    if (this.latestText === this.savedText) {
      if (this.state.kind !== 'error') this.setState({ kind: 'saved' });
      return;
    }
    this.inFlight = this.saveLatest();
    try {
      await this.inFlight;
    } finally {
      this.inFlight = null;
    }
    // Keystrokes that came in while saving get their own debounce.
    const after = this.currentState.kind; // set by the save just ended
    if (after !== 'error' && after !== 'conflict' && this.latestText !== this.savedText) this.edit(this.latestText);
  }

  /** Stops the timer without saving (the page is gone or the project closed). */
  dispose(): void {
    this.clearTimer();
  }

  private async saveLatest(): Promise<void> {
    const text = this.latestText;
    this.groupStartedAt = null;
    this.setState({ kind: 'saving' });
    try {
      const revision = await this.options.save(text, this.parentId);
      this.savedText = text;
      this.parentId = revision.id;
      this.options.onSaved?.(revision);
      this.setState(this.latestText === text ? { kind: 'saved' } : { kind: 'dirty' });
    } catch (error) {
      const conflict = error instanceof ContractError && error.code === 'conflict' ? conflictDetailSchema.safeParse(error.detail) : null;
      if (conflict?.success && conflict.data.kind === 'revision') this.setState({ kind: 'conflict', conflict: conflict.data.conflict });
      else this.setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }

  private setState(state: SaveState): void {
    this.state = state;
    this.options.onState(state);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

export function describeSaveState(state: SaveState): string {
  switch (state.kind) {
    case 'saved':
      return 'Saved';
    case 'dirty':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving…';
    case 'error':
      return `Save failed: ${state.message}`;
    case 'conflict':
      return `Conflict: ${state.conflict.theirs.author} saved this page meanwhile; your text is kept — choose`;
  }
}
