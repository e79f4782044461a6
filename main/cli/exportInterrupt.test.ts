/**
 * `recto export` and Ctrl-C: the export stops, the folder is left as it was, and the exit code says so (130).
 * The signal is delivered as the process would receive it (a 'SIGINT' event), during the export's page loop.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fillProject } from '../../testing/corpusFixtures.js';
import { stagingFolderName } from '../corpus/exportStaging.js';
import { ProjectStore } from '../store/projectStore.js';
import { exportCommand, interruptedExitCode } from './exportCommand.js';

let dir: string;
let output: string;
const stderr = { write: (chunk: string) => ((output += chunk), true) } as unknown as NodeJS.WritableStream;
const project = () => path.join(dir, 'a.recto');

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-export-interrupt-'));
  output = '';
  const store = ProjectStore.create(project());
  fillProject(store, [{ name: 'inv.pdf', pages: 40, corrections: { 0: ['table'], 5: ['text'], 9: ['formula'] } }]);
  store.close();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Sends SIGINT once the export has staged its first page (its staging folder exists). */
function interruptWhenStaging(out: string): Promise<void> {
  return new Promise((resolve) => {
    const poll = () => {
      if (fs.existsSync(path.join(out, stagingFolderName))) {
        process.emit('SIGINT', 'SIGINT');
        resolve();
      } else setImmediate(poll);
    };
    poll();
  });
}

describe('recto export and Ctrl-C', () => {
  it('stops, exits 130 and leaves the previous export as it was', async () => {
    const out = path.join(dir, 'corpus');
    expect(await exportCommand([project(), '--out', out, '--images', 'none'], stderr)).toBe(0);
    const before = fs.readdirSync(out).map((name) => [name, fs.readFileSync(path.join(out, name), 'utf8')]);
    const store = ProjectStore.open(project());
    store.revisions.saveRevision(store.documents.listDocuments()[0]!.pages[3]!.id, 'Corrected after the export.', 'Ben', null);
    store.close();

    output = '';
    const listeners = process.listenerCount('SIGINT');
    // The export pauses every 50 ms for the event loop; the signal's handler runs in such a pause.
    const [code] = await Promise.all([
      exportCommand([project(), '--out', out, '--images', 'none'], stderr),
      interruptWhenStaging(out),
    ]);
    expect(code).toBe(interruptedExitCode);
    expect(output).toMatch(/stopping the export/);
    expect(output).toMatch(/was cancelled; the folder was left as it was/);
    expect(fs.readdirSync(out).map((name) => [name, fs.readFileSync(path.join(out, name), 'utf8')])).toEqual(before);
    // The handler is gone again: a later Ctrl-C is the shell's.
    expect(process.listenerCount('SIGINT')).toBe(listeners);

    output = '';
    expect(await exportCommand([project(), '--out', out, '--images', 'none'], stderr)).toBe(0);
    expect(output).toMatch(/exported 40 page\(s\)/);
  });
});
