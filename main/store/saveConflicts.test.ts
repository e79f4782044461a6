import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Extraction } from '../../app/model/extraction.js';
import { ProjectStore } from './projectStore.js';
import { InvalidFieldError, StaleUndoError } from './fieldRevisions.js';
import { ConflictChoiceError } from './saveConflicts.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-conflicts-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const engineText = 'Invoice 42\n\nTotal 10.00';
const reading: Extraction = {
  markdown: engineText,
  elements: [],
  page: { width: 1000, height: 1400 },
  engine: { id: 'bundled', name: 'Bundled', version: '1', packSha256: null, licence: null, provider: 'text-layer', settings: {} },
  stats: { durationMs: 1 },
  warnings: [],
  fields: {
    invoice: {
      invoice_number: '42', issue_date: '2024-03-01', due_date: null, seller: 'Muster GmbH', buyer: null, currency: 'EUR',
      subtotal: null, tax: null, total: 10, lines: [{ description: 'Work', quantity: 2, unit_price: 5, amount: 10 }],
    },
  },
};

function project() {
  const store = ProjectStore.create(path.join(dir, 'p.recto'));
  const doc = store.documents.addDocument({
    sha256: 'c'.repeat(64),
    name: 'invoice.pdf',
    mediaType: 'application/pdf',
    bytes: Buffer.from('%PDF'),
    pages: [
      { pageNumber: 1, width: 1000, height: 1400, dpi: 150, textLayer: null },
      { pageNumber: 2, width: 1000, height: 1400, dpi: 150, textLayer: null },
    ],
  })!;
  const pageId = doc.pages[0]!.id;
  store.readings.saveExtraction(pageId, reading, new Date());
  return { store, pageId, secondPageId: doc.pages[1]!.id };
}

const saved = <T>(result: { saved: T } | { conflict: unknown }): T => {
  if (!('saved' in result)) throw new Error(`expected a save, got ${JSON.stringify(result)}`);
  return result.saved;
};

describe('text saves on a base', () => {
  it('saves on the latest revision, and on nothing for a page nobody edited', () => {
    const { store, pageId } = project();
    const first = saved(store.saveConflicts.saveText(pageId, 'Invoice 42\n\nTotal 11.90', 'Ana', null));
    const second = saved(store.saveConflicts.saveText(pageId, 'Invoice 42\n\nTotal 11.95', 'Ana', first.id));
    expect(second.parentId).toBe(first.id);
    expect(store.revisions.latestRevision(pageId)!.id).toBe(second.id);
    expect(store.saveConflicts.openTextConflicts(pageId)).toEqual([]);
  });

  it('keeps a save on an older revision as a conflict, linked to its base and to theirs, and leaves the page as theirs', () => {
    const { store, pageId } = project();
    const base = saved(store.saveConflicts.saveText(pageId, 'Invoice 42\n\nTotal 11.90', 'Ana', null));
    const theirs = saved(store.saveConflicts.saveText(pageId, 'Invoice 42\n\nTotal 11.90 EUR', 'Ben', base.id));
    const result = store.saveConflicts.saveText(pageId, 'Invoice 42 (paid)\n\nTotal 11.90', 'Ana', base.id);
    expect('conflict' in result).toBe(true);
    if (!('conflict' in result)) return;
    expect(result.conflict).toMatchObject({
      pageId, baseId: base.id, baseText: base.text, theirs: { id: theirs.id, text: theirs.text, author: 'Ben' },
      text: 'Invoice 42 (paid)\n\nTotal 11.90', author: 'Ana', resolution: null,
    });
    expect(store.revisions.latestRevision(pageId)!.id).toBe(theirs.id);
    expect(store.revisions.listRevisions(pageId)).toHaveLength(2);
    // Kept across a reopen.
    store.close();
    const reopened = ProjectStore.open(path.join(dir, 'p.recto'));
    expect(reopened.saveConflicts.openTextConflicts(pageId).map((c) => c.text)).toEqual(['Invoice 42 (paid)\n\nTotal 11.90']);
    reopened.close();
  });

  it('treats a null base on a page with revisions as the engine text: a conflict when both changed it', () => {
    const { store, pageId } = project();
    saved(store.saveConflicts.saveText(pageId, 'Invoice 42\n\nTotal 11.90', 'Ben', null));
    const result = store.saveConflicts.saveText(pageId, 'Invoice 43\n\nTotal 10.00', 'Ana', null);
    if (!('conflict' in result)) throw new Error('expected a conflict');
    expect(result.conflict).toMatchObject({ baseId: null, baseText: engineText });
  });

  it('is no conflict where mine equals theirs, or where theirs changed nothing since the base', () => {
    const { store, pageId } = project();
    const base = saved(store.saveConflicts.saveText(pageId, 'A', 'Ana', null));
    const theirs = saved(store.saveConflicts.saveText(pageId, 'B', 'Ben', base.id));
    // The same text as theirs: nothing new, theirs is the answer.
    expect(saved(store.saveConflicts.saveText(pageId, 'B', 'Ana', base.id)).id).toBe(theirs.id);
    // Ben went back to A: Ana's edit of A goes on top of his latest.
    const back = saved(store.saveConflicts.saveText(pageId, 'A', 'Ben', theirs.id));
    const mine = saved(store.saveConflicts.saveText(pageId, 'A, edited', 'Ana', base.id));
    expect(mine.parentId).toBe(back.id);
    expect(store.revisions.listRevisions(pageId).map((r) => r.text)).toEqual(['A', 'B', 'A', 'A, edited']);
    expect(store.saveConflicts.openTextConflicts(pageId)).toEqual([]);
  });

  it('refuses a base that is not a revision of the page', () => {
    const { store, pageId, secondPageId } = project();
    const other = saved(store.saveConflicts.saveText(secondPageId, 'page two', 'Ana', null));
    saved(store.saveConflicts.saveText(pageId, 'A', 'Ana', null));
    expect(() => store.saveConflicts.saveText(pageId, 'B', 'Ana', other.id)).toThrow(/not a revision of page/);
    expect(() => store.saveConflicts.saveText(pageId, 'B', 'Ana', 'no-such-revision')).toThrow(/not a revision of page/);
  });

  it('resolves by theirs (nothing saved), mine, or a merge saved on the latest, recording the choice', () => {
    const { store, pageId } = project();
    const base = saved(store.saveConflicts.saveText(pageId, 'A', 'Ana', null));
    const theirs = saved(store.saveConflicts.saveText(pageId, 'B', 'Ben', base.id));
    const conflictOf = (text: string) => {
      const result = store.saveConflicts.saveText(pageId, text, 'Ana', base.id);
      if (!('conflict' in result)) throw new Error('expected a conflict');
      return result.conflict;
    };
    const first = conflictOf('C');
    const keepTheirs = store.saveConflicts.resolveText(first.id, 'theirs', undefined, theirs.id, 'Ana');
    expect(keepTheirs).toMatchObject({ resolved: { resolution: 'theirs', resolvedBy: 'Ana', resolvedRevisionId: null }, saved: null });
    expect(store.revisions.latestRevision(pageId)!.id).toBe(theirs.id);

    const second = conflictOf('D');
    const keepMine = store.saveConflicts.resolveText(second.id, 'mine', undefined, theirs.id, 'Ana');
    if (!('resolved' in keepMine)) throw new Error('expected a resolution');
    expect(keepMine.saved).toMatchObject({ text: 'D', parentId: theirs.id, author: 'Ana' });
    expect(keepMine.resolved).toMatchObject({ resolution: 'mine', resolvedRevisionId: keepMine.saved!.id });

    const third = conflictOf('E');
    const merged = store.saveConflicts.resolveText(third.id, 'merged', 'D and E', keepMine.saved!.id, 'Ana');
    if (!('resolved' in merged)) throw new Error('expected a resolution');
    expect(merged.saved).toMatchObject({ text: 'D and E', parentId: keepMine.saved!.id });
    expect(store.saveConflicts.openTextConflicts(pageId)).toEqual([]);
    expect(() => store.saveConflicts.resolveText(third.id, 'mine', undefined, merged.saved!.id, 'Ana')).toThrow(ConflictChoiceError);
  });

  it('keeps a choice that meets a newer revision again as a new conflict, the first one pointing to it', () => {
    const { store, pageId } = project();
    const base = saved(store.saveConflicts.saveText(pageId, 'A', 'Ana', null));
    const theirs = saved(store.saveConflicts.saveText(pageId, 'B', 'Ben', base.id));
    const first = store.saveConflicts.saveText(pageId, 'C', 'Ana', base.id);
    if (!('conflict' in first)) throw new Error('expected a conflict');
    const later = saved(store.saveConflicts.saveText(pageId, 'B2', 'Ben', theirs.id));
    const again = store.saveConflicts.resolveText(first.conflict.id, 'merged', 'B and C', theirs.id, 'Ana');
    if (!('conflict' in again)) throw new Error('expected a conflict');
    expect(again.conflict).toMatchObject({ baseId: theirs.id, theirs: { id: later.id }, text: 'B and C' });
    expect(store.saveConflicts.textConflict(first.conflict.id)).toMatchObject({ resolution: 'merged', supersededBy: again.conflict.id, resolvedRevisionId: null });
    expect(store.saveConflicts.openTextConflicts(pageId).map((c) => c.id)).toEqual([again.conflict.id]);
    expect(store.revisions.latestRevision(pageId)!.text).toBe('B2');
  });
});

describe('field saves on a base', () => {
  it('saves on the field’s latest revision; null is the engine value', () => {
    const { store, pageId } = project();
    const first = saved(store.saveConflicts.saveField(pageId, 'total', 11.9, 'Ana', null));
    const second = saved(store.saveConflicts.saveField(pageId, 'total', 11.95, 'Ana', first.id));
    // Another field's revisions are no base of this one.
    saved(store.saveConflicts.saveField(pageId, 'invoice_number', '43', 'Ana', null));
    expect(second.parentId).toBe(first.id);
    expect(store.fieldRevisions.currentValues(pageId)).toMatchObject({ total: 11.95, invoice_number: '43' });
  });

  it('keeps a stale value as a conflict with base, theirs and mine, the field left as theirs', () => {
    const { store, pageId, secondPageId } = project();
    const theirs = saved(store.saveConflicts.saveField(pageId, 'total', 11.9, 'Ben', null));
    // Any page of the document can be given: the fields are the document's.
    const result = store.saveConflicts.saveField(secondPageId, 'total', 12.5, 'Ana', null);
    if (!('conflict' in result)) throw new Error('expected a conflict');
    expect(result.conflict).toMatchObject({
      pageId, field: 'total', baseId: null, baseValue: 10, theirs: { id: theirs.id, author: 'Ben' }, theirsValue: 11.9, value: 12.5, author: 'Ana',
    });
    expect(store.fieldRevisions.currentValues(pageId).total).toBe(11.9);
    expect(store.saveConflicts.openFieldConflicts(secondPageId).map((c) => c.id)).toEqual([result.conflict.id]);
  });

  it('is no conflict where mine equals theirs, or theirs is back at the base value', () => {
    const { store, pageId } = project();
    const ben = saved(store.saveConflicts.saveField(pageId, 'total', 11.9, 'Ben', null));
    expect(saved(store.saveConflicts.saveField(pageId, 'total', 11.9, 'Ana', null)).id).toBe(ben.id);
    saved(store.saveConflicts.saveField(pageId, 'total', 10, 'Ben', ben.id));
    const mine = saved(store.saveConflicts.saveField(pageId, 'total', 12, 'Ana', null));
    expect(mine).toMatchObject({ newValue: 12, oldValue: 10 });
  });

  it('refuses a base that is not a revision of that field, and a value of the wrong kind', () => {
    const { store, pageId } = project();
    const number = saved(store.saveConflicts.saveField(pageId, 'invoice_number', '43', 'Ana', null));
    saved(store.saveConflicts.saveField(pageId, 'total', 11, 'Ana', null));
    expect(() => store.saveConflicts.saveField(pageId, 'total', 12, 'Ana', number.id)).toThrow(InvalidFieldError);
    expect(() => store.saveConflicts.saveField(pageId, 'total', 'twelve', 'Ana', null)).toThrow(InvalidFieldError);
    expect(store.saveConflicts.openFieldConflicts(pageId)).toEqual([]);
  });

  it('resolves by theirs, mine or a merged value on the field’s latest, and again as a conflict where it moved on', () => {
    const { store, pageId } = project();
    const theirs = saved(store.saveConflicts.saveField(pageId, 'total', 11.9, 'Ben', null));
    const conflictOf = (value: number) => {
      const result = store.saveConflicts.saveField(pageId, 'total', value, 'Ana', null);
      if (!('conflict' in result)) throw new Error('expected a conflict');
      return result.conflict;
    };
    expect(store.saveConflicts.resolveField(conflictOf(12).id, 'theirs', undefined, theirs.id, 'Ana')).toMatchObject({ saved: null, resolved: { resolution: 'theirs' } });
    const mine = store.saveConflicts.resolveField(conflictOf(13).id, 'mine', undefined, theirs.id, 'Ana');
    if (!('resolved' in mine)) throw new Error('expected a resolution');
    expect(mine.saved).toMatchObject({ newValue: 13, parentId: theirs.id });
    const stale = conflictOf(14);
    const again = store.saveConflicts.resolveField(stale.id, 'merged', 13.5, theirs.id, 'Ana');
    if (!('conflict' in again)) throw new Error('expected a conflict');
    expect(again.conflict).toMatchObject({ baseId: theirs.id, theirs: { id: mine.saved!.id }, value: 13.5 });
    expect(store.saveConflicts.fieldConflict(stale.id)).toMatchObject({ supersededBy: again.conflict.id });
    expect(store.fieldRevisions.currentValues(pageId).total).toBe(13);
  });

  it('saves over whatever is there where no base is said (scripts)', () => {
    const { store, pageId } = project();
    saved(store.saveConflicts.saveField(pageId, 'total', 11.9, 'Ben', null));
    expect(saved(store.saveConflicts.saveField(pageId, 'total', 12, 'Script', undefined))).toMatchObject({ newValue: 12 });
  });
});

describe('field undo on what the analyst saw', () => {
  it('takes back the correction the analyst meant, and refuses when another is newest now', () => {
    const { store, pageId } = project();
    const mine = saved(store.saveConflicts.saveField(pageId, 'total', 11.9, 'Ana', null));
    const theirs = saved(store.saveConflicts.saveField(pageId, 'invoice_number', '43', 'Ben', null));
    // Ana's screen still shows her total as the newest: Ben's number is not taken back unseen.
    expect(() => store.fieldRevisions.undo(pageId, 'Ana', mine.id)).toThrow(StaleUndoError);
    expect(() => store.fieldRevisions.undo(pageId, 'Ana', null)).toThrow(/newest correction is now invoice_number by Ben/);
    expect(store.fieldRevisions.currentValues(pageId)).toMatchObject({ total: 11.9, invoice_number: '43' });
    expect(store.fieldRevisions.undo(pageId, 'Ana', theirs.id)).toMatchObject({ undoes: theirs.id });
    expect(store.fieldRevisions.undo(pageId, 'Ana', mine.id)).toMatchObject({ undoes: mine.id });
    expect(() => store.fieldRevisions.undo(pageId, 'Ana', mine.id)).toThrow(/taken back already/);
    expect(store.fieldRevisions.undo(pageId, 'Ana', null)).toBeNull();
  });
});

