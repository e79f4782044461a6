/**
 * kill -9 durability: a child process saves revisions in a loop and is killed (SIGKILL) at random moments, several
 * rounds; every save it acknowledged must be in the project afterwards, and `PRAGMA integrity_check` must be ok.
 * Seeded (RECTO_KILL_SEED) so a failing round can be replayed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillProject } from '../../../testing/corpusFixtures.js';
import { packageRoot } from '../../util/packageRoot.js';
import { ProjectStore } from '../projectStore.js';

const rounds = 6;
let seed = Number(process.env.RECTO_KILL_SEED ?? 9);
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

let dir: string;
let file: string;
let pageId: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-kill-'));
  file = path.join(dir, 'p.recto');
  const store = ProjectStore.create(file);
  pageId = fillProject(store, [{ name: 'a.pdf', pages: 1 }])[0]!;
  store.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the save loop from `first` and kills it after `acks` acknowledged saves plus a random delay; returns the acks. */
function roundOfSaves(first: number, acks: number, delayMs: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const root = packageRoot();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'testing', 'saveLoop.ts'), file, pageId, String(first)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    let stderr = '';
    const acknowledged: number[] = [];
    let killing = false;
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.stdout.on('data', (chunk) => {
      buffered += String(chunk);
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) acknowledged.push(Number(line));
      if (!killing && acknowledged.length >= acks) {
        killing = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`save loop ended by itself (${code}): ${stderr}`));
      else resolve(acknowledged);
    });
  });
}

describe('kill -9 during saves', () => {
  it(`loses no acknowledged save over ${rounds} rounds, and the file stays sound`, async () => {
    const acknowledged: number[] = [];
    let next = 1;
    for (let round = 0; round < rounds; round++) {
      const acks = await roundOfSaves(next, 5 + Math.floor(random() * 60), Math.floor(random() * 25));
      acknowledged.push(...acks);
      next = Math.max(next, ...acks) + 1;
      const db = new Database(file, { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        db.close();
      }
    }
    const store = ProjectStore.open(file);
    try {
      const saved = new Set(store.revisions.listRevisions(pageId).map((revision) => revision.text));
      const lost = acknowledged.filter((n) => !saved.has(`Acknowledged save ${n}.`));
      console.log(`kill -9 durability: ${rounds} rounds, ${acknowledged.length} acknowledged saves, ${saved.size} in the project, ${lost.length} lost`);
      expect(lost).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(rounds * 5 - 1);
    } finally {
      store.close();
    }
  }, 180_000);
});
