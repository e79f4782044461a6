/**
 * Which field revision an undo takes back: the newest one not taken back yet (the page's undo is a stack; an undo is
 * itself a revision naming what it took back in `undoes`). Shared by the store, which writes the undo, and the review
 * screen, which says which revision it means to take back — so an undo never takes back a correction that arrived
 * from another window or analyst after the screen showed its own.
 */
export interface UndoableRevision {
  id: string;
  undoes: string | null;
}

export function undoTarget<R extends UndoableRevision>(revisions: readonly R[]): R | null {
  const open: R[] = [];
  for (const revision of revisions) {
    if (revision.undoes) {
      const at = open.findIndex((r) => r.id === revision.undoes);
      if (at >= 0) open.splice(at, 1);
    } else open.push(revision);
  }
  return open.at(-1) ?? null;
}
