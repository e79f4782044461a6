/**
 * The corpus commands as functions (no child process): exit codes and what they say on stderr.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fillProject } from '../../testing/corpusFixtures.js';
import { ProjectStore } from '../store/projectStore.js';
import { exportCommand, importCorpusCommand, mergeCommand } from './exportCommand.js';
import { rawDatabase } from '../../testing/rawDatabase.js';

let dir: string;
let output: string;
const stderr = { write: (chunk: string) => ((output += chunk), true) } as unknown as NodeJS.WritableStream;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-export-cli-'));
  output = '';
  const store = ProjectStore.create(path.join(dir, 'a.recto'));
  fillProject(store, [{ name: 'inv.pdf', pages: 2, corrections: { 0: ['table'] } }]);
  store.close();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('recto export / import-corpus / merge', () => {
  it('exports, refuses a foreign folder, imports back and merges', async () => {
    const project = path.join(dir, 'a.recto');
    const out = path.join(dir, 'corpus');
    expect(await exportCommand([project, '--out', out, '--images', 'none'], stderr)).toBe(0);
    expect(output).toMatch(/exported 2 page\(s\)/);
    expect(fs.readFileSync(path.join(out, 'records.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);

    fs.mkdirSync(path.join(dir, 'foreign'));
    fs.writeFileSync(path.join(dir, 'foreign', 'x.txt'), 'x');
    output = '';
    expect(await exportCommand([project, '--out', path.join(dir, 'foreign')], stderr)).toBe(2);
    expect(output).toMatch(/not empty and is not a Recto corpus export/);
    expect(await exportCommand([project, '--out', out, '--status', 'done'], stderr)).toBe(2);
    expect(await exportCommand([project, '--out', out, '--since', 'yesterday'], stderr)).toBe(2);

    output = '';
    expect(await importCorpusCommand([out, '--into', path.join(dir, 'b.recto')], stderr)).toBe(0);
    expect(output).toMatch(/2 new page\(s\), 1 revision\(s\)/);

    const extra = ProjectStore.open(path.join(dir, 'b.recto'));
    extra.revisions.saveRevision(extra.documents.listDocuments()[0]!.pages[1]!.id, 'edited in b', 'Ben', null);
    extra.close();
    output = '';
    expect(await mergeCommand([project, path.join(dir, 'b.recto'), '--into', path.join(dir, 'c.recto')], stderr)).toBe(0);
    expect(output).toMatch(/1 revision\(s\) added/);
    const merged = ProjectStore.open(path.join(dir, 'c.recto'));
    expect(rawDatabase(merged).prepare('SELECT COUNT(*) FROM revisions').pluck().get()).toBe(2);
    merged.close();
    const untouched = ProjectStore.open(project);
    expect(rawDatabase(untouched).prepare('SELECT COUNT(*) FROM revisions').pluck().get()).toBe(1);
    untouched.close();
    expect(await mergeCommand([project, path.join(dir, 'missing.recto')], stderr)).toBe(2);
    expect(output).toMatch(/missing\.recto: no such project file/);
  });

  it('refuses a corpus with malformed invoice fields, naming file and line, and leaves no project behind', async () => {
    const out = path.join(dir, 'corpus');
    expect(await exportCommand([path.join(dir, 'a.recto'), '--out', out, '--images', 'none'], stderr)).toBe(0);
    const line = { invoice_number: '7', issue_date: null, due_date: null, seller: null, buyer: null, currency: null, subtotal: null, tax: null, total: '12,90', amount_due: null, lines: [], document_id: 'd1' };
    fs.appendFileSync(path.join(out, 'fields.jsonl'), `${JSON.stringify(line)}\n`);
    output = '';
    const target = path.join(dir, 'b.recto');
    expect(await importCorpusCommand([out, '--into', target], stderr)).toBe(2);
    expect(output).toMatch(/recto import-corpus: .*invoice fields are malformed, nothing was imported: fields\.jsonl:1: fields\.total/);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('b.recto'))).toEqual([]);
  });
});
