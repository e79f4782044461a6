/**
 * Field corrections of real invoices (../shared/testdata), made through the contract as the fields panel makes them,
 * carried by export → import-corpus → export and by a project merge.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractOf, makeRealInvoiceProject, realInvoices, realInvoicesAvailable, sessionIn } from '../../testing/realInvoiceProject.js';
import { ProjectStore } from '../store/projectStore.js';
import { parseCorpusRecordLine } from './corpusRecord.js';
import { exportCorpus } from './exportCorpus.js';
import { importCorpus } from './importCorpus.js';

if (!realInvoicesAvailable) console.log(`SKIPPED: field revisions of real invoices: ${realInvoices.join(' or ')} absent`);

describe.skipIf(!realInvoicesAvailable)('field revisions of real invoices through import-corpus and merge', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-real-fields-'));
  let project = '';
  let firstPages: string[] = [];

  /** Saves field values through the contract, in a session with the project open, as `author`. */
  async function correct(file: string, author: string, edits: (pageId: string, values: Record<string, unknown>) => [string, unknown][]) {
    const session = sessionIn(path.join(dir, `session-${author}`));
    const dispatch = contractOf(session);
    try {
      await dispatch('settings.set', { authorName: author });
      const opened = await dispatch('project.open', { path: file });
      if (!opened.ok) throw new Error(`project.open: ${JSON.stringify(opened)}`);
      for (const pageId of firstPages) {
        const view = await dispatch('fields.document', { pageId });
        if (!view.ok) throw new Error(`fields.document: ${JSON.stringify(view)}`);
        const values = (view.result as { engine: { values: Record<string, unknown> } | null }).engine?.values ?? {};
        for (const [field, value] of edits(pageId, values)) {
          const saved = await dispatch('fields.save', { pageId, field, value });
          if (!saved.ok) throw new Error(`fields.save ${field}: ${JSON.stringify(saved)}`);
        }
      }
    } finally {
      await session.dispose();
    }
  }

  beforeAll(async () => {
    const made = await makeRealInvoiceProject(dir, () => null);
    project = made.project;
    const store = ProjectStore.open(project);
    firstPages = store.documents.listDocuments().map((d) => d.pages[0]!.id);
    store.close();
    // Each invoice: its total raised by a cent, then set again; its first line's amount; its number cleared and undone.
    await correct(project, 'Ana', (_, values) => {
      const total = typeof values.total === 'number' ? values.total : 100;
      const lines = Array.isArray(values.lines) ? values.lines : [];
      return [
        ['total', total + 0.01],
        ['total', total + 0.02],
        ['lines.0.amount', typeof lines[0]?.amount === 'number' ? lines[0].amount + 1 : 1],
        ['invoice_number', null],
      ];
    });
    const store2 = ProjectStore.open(project);
    for (const pageId of firstPages) store2.fieldRevisions.undo(pageId, 'Ana');
    store2.close();
  }, 300_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs `work` with a contract whose session has `file` open (created when `create`). */
  async function inSession<T>(file: string, create: boolean, work: (call: (method: string, params: object) => Promise<unknown>) => Promise<T>): Promise<T> {
    const session = sessionIn(path.join(dir, 'session-contract'));
    const dispatch = contractOf(session);
    const call = async (method: string, params: object) => {
      const reply = await dispatch(method, params);
      if (!reply.ok) throw new Error(`${method}: ${JSON.stringify(reply)}`);
      return reply.result;
    };
    try {
      await call(create ? 'project.create' : 'project.open', { path: file });
      return await work(call);
    } finally {
      await session.dispose();
    }
  }

  const read = (out: string, file: string) => fs.readFileSync(path.join(dir, out, file), 'utf8');
  const fieldsOf = (out: string) =>
    read(out, 'records.jsonl')
      .trim()
      .split('\n')
      .map((line) => parseCorpusRecordLine(line))
      .map((r) => ({ id: r.id, fields: r.fields, fields_engine: r.fields_engine, field_revisions: r.field_revisions }));

  it('export → import-corpus into a fresh project → export: the same fields, fields.jsonl and field revisions', async () => {
    const original = ProjectStore.open(project);
    let copy = ProjectStore.create(path.join(dir, 'copy.recto'));
    try {
      await exportCorpus(original, { outDir: path.join(dir, 'one'), images: 'none' });
      const exported = fieldsOf('one');
      expect(exported.every((r) => r.field_revisions!.length === 5)).toBe(true);
      expect(read('one', 'fields.jsonl').trim().split('\n')).toHaveLength(firstPages.length);

      // Through the contract, as the app imports: the reply names the field revisions, the curation summary counts them.
      copy.close();
      const summary = await inSession(path.join(dir, 'copy.recto'), false, async (call) => {
        const imported = (await call('corpus.import', { dir: path.join(dir, 'one') })) as ReturnType<typeof importCorpus>;
        const curation = (await call('curation.summary', {})) as { fieldCorrections: unknown };
        expect(curation.fieldCorrections).toEqual({ pages: firstPages.length, revisions: 5 * firstPages.length });
        return imported;
      });
      copy = ProjectStore.open(path.join(dir, 'copy.recto'));
      expect(summary.problems).toEqual([]);
      expect(summary.fieldRevisionsAdded).toBe(5 * firstPages.length);
      expect(copy.fieldRevisions.stats()).toEqual(original.fieldRevisions.stats());
      for (const pageId of firstPages) {
        expect(copy.fieldRevisions.list(pageId)).toEqual(original.fieldRevisions.list(pageId));
        // The analyst's values show over what the engine read: the number restored by the undo, the total corrected.
        const engine = copy.fieldRevisions.engineValues(pageId);
        expect(copy.fieldRevisions.currentValues(pageId)).toMatchObject({ invoice_number: engine.invoice_number, total: (engine.total ?? 100) + 0.02 });
      }

      await exportCorpus(copy, { outDir: path.join(dir, 'two'), images: 'none' });
      expect(read('two', 'fields.jsonl')).toBe(read('one', 'fields.jsonl'));
      expect(fieldsOf('two')).toEqual(exported);
    } finally {
      original.close();
      copy.close();
    }
  });

  it('merge: the other analyst’s later total shows, both histories kept, the conflict counted', async () => {
    const other = path.join(dir, 'other.recto');
    const target = ProjectStore.open(project);
    target.copyTo(other);
    // After the copy, both analysts correct the total: Ana here first, Ben there later.
    for (const pageId of firstPages) target.fieldRevisions.save(pageId, 'total', 999.99, 'Ana');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await correct(other, 'Ben', (_, values) => [['total', 1234.56], ['seller', `${String(values.seller ?? 'Seller')} (checked)`]]);
    const before = target.fieldRevisions.stats().revisions;
    target.close();
    // Through the contract, as the app merges: the reply counts the conflicts, the curation summary the revisions.
    const summary = await inSession(project, false, async (call) => {
      const merged = await call('project.merge', { path: other });
      const curation = (await call('curation.summary', {})) as { fieldCorrections: { revisions: number } };
      expect(curation.fieldCorrections.revisions).toBe(before + 2 * firstPages.length);
      return merged;
    });
    expect(summary).toMatchObject({ fieldRevisionsAdded: 2 * firstPages.length, fieldConflicts: firstPages.length });
    const merged = ProjectStore.open(project);
    try {
      for (const pageId of firstPages) {
        expect(merged.fieldRevisions.currentValues(pageId)).toMatchObject({ total: 1234.56, seller: expect.stringMatching(/\(checked\)$/) });
        const totals = merged.fieldRevisions.list(pageId).filter((r) => r.field === 'total');
        expect(totals.map((r) => [r.author, r.newValue]).slice(-2)).toEqual([['Ana', 999.99], ['Ben', 1234.56]]);
      }
    } finally {
      merged.close();
    }
  });
});
