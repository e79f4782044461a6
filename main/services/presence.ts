/**
 * Presence: who has which document open now, kept in the server's memory only (never in the project file). Each
 * window names itself with a random viewer id (`presence.set`); its entry goes when the window says it shows nothing,
 * when its socket closes (the browser shell calls `drop`), or when it has not renewed within PRESENCE_TTL_MS (a
 * window that vanished without closing its socket).
 */
import { PRESENCE_TTL_MS } from '../../app/contract/invoiceQueue.js';

interface Entry {
  person: string;
  documentId: string;
  renewedAt: number;
}

export class Presence {
  private readonly entries = new Map<string, Entry>();
  /** Called after a change others should see (the session emits `presence.changed`). */
  onChange: () => void = () => undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** `viewer` shows a page of `documentId` as `person` (null: shows nothing). */
  set(viewer: string, person: string, documentId: string | null): void {
    const before = this.entries.get(viewer);
    if (documentId === null) {
      if (this.entries.delete(viewer)) this.onChange();
      return;
    }
    this.entries.set(viewer, { person, documentId, renewedAt: this.now() });
    if (before?.documentId !== documentId || before.person !== person) this.onChange();
  }

  /** The window's socket closed: it shows nothing any more. */
  drop(viewer: string): void {
    if (this.entries.delete(viewer)) this.onChange();
  }

  /** Everyone gone (another project was opened). */
  clear(): void {
    if (this.entries.size === 0) return;
    this.entries.clear();
    this.onChange();
  }

  /** Who has each document open, each person once, names sorted; expired entries are dropped first. */
  byDocument(): Map<string, string[]> {
    const now = this.now();
    const open = new Map<string, Set<string>>();
    for (const [viewer, entry] of this.entries) {
      if (now - entry.renewedAt > PRESENCE_TTL_MS) {
        this.entries.delete(viewer);
        continue;
      }
      (open.get(entry.documentId) ?? open.set(entry.documentId, new Set()).get(entry.documentId)!).add(entry.person);
    }
    return new Map([...open].map(([documentId, people]) => [documentId, [...people].sort()]));
  }
}
