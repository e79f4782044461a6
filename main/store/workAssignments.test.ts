/** Assignment and claims (migration 015): given and taken with who and when, a claim by another refused unless taken over. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from './projectStore.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { ClaimedByAnotherError } from './workAssignments.js';

let dir: string;
let file: string;
let store: ProjectStore;
let documentId: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-work-'));
  file = path.join(dir, 'p.recto');
  store = ProjectStore.create(file);
  documentId = addReadDocument(store, 'a.pdf', invoiceReading({ invoice_number: 'A-1' })).documentId;
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('assignment', () => {
  it('is given and taken back, each recorded with who and when; giving it to the same person again records nothing', () => {
    expect(store.work.state(documentId)).toMatchObject({ assignee: null, claimedBy: null });
    expect(store.work.assign(documentId, 'Ada', 'Lead')).toMatchObject({ assignee: 'Ada', assignedBy: 'Lead' });
    store.work.assign(documentId, 'Ada', 'Lead');
    expect(store.work.assign(documentId, null, 'Lead')).toMatchObject({ assignee: null, assignedBy: null, assignedAt: null });
    expect(store.work.history(documentId).map((e) => [e.action, e.person, e.by])).toEqual([
      ['assigned', 'Ada', 'Lead'],
      ['unassigned', null, 'Lead'],
    ]);
    expect(store.work.history(documentId).every((e) => !Number.isNaN(Date.parse(e.at)))).toBe(true);
  });

  it('survives closing and reopening the project (its schema passes the project-file check); a document not in the project is refused by name', async () => {
    store.work.assign(documentId, 'Bo', 'Lead');
    store.work.claim(documentId, 'Bo');
    store.close();
    store = await ProjectStore.openChecked(file);
    expect(store.work.all().get(documentId)).toMatchObject({ assignee: 'Bo' });
    expect(() => store.work.assign('missing', 'Bo', 'Lead')).toThrow(/No document missing/);
  });
});

describe('claims', () => {
  it('a claim by another is refused with their name, taken over only when forced, and released only by its holder', () => {
    expect(store.work.claim(documentId, 'Ada')).toMatchObject({ claimedBy: 'Ada', previous: null });
    expect(() => store.work.claim(documentId, 'Bo')).toThrow(ClaimedByAnotherError);
    expect(() => store.work.claim(documentId, 'Bo')).toThrow(/claimed by Ada/);
    expect(store.work.release(documentId, 'Bo')).toMatchObject({ claimedBy: 'Ada' });
    expect(store.work.claim(documentId, 'Bo', true)).toMatchObject({ claimedBy: 'Bo', previous: 'Ada' });
    expect(store.work.release(documentId, 'Bo')).toMatchObject({ claimedBy: null });
    expect(store.work.history(documentId).map((e) => [e.action, e.person, e.by])).toEqual([
      ['claimed', 'Ada', 'Ada'],
      ['released', 'Ada', 'Bo'],
      ['claimed', 'Bo', 'Bo'],
      ['released', 'Bo', 'Bo'],
    ]);
  });

  it('removing the document removes its assignment row but keeps its history', () => {
    store.work.claim(documentId, 'Ada');
    const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
    db.prepare('DELETE FROM documents WHERE id = ?').run(documentId);
    expect(store.work.all().size).toBe(0);
    expect(store.work.history(documentId)).toHaveLength(1);
  });
});
