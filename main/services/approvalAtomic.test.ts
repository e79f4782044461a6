/**
 * Approving a whole document is one transaction (issue 37): a child process approves a 300-page document again and
 * again and is killed (SIGKILL) at random moments; after every kill each page has the same status and the same number
 * of approvals recorded — all pages with their events, or none. Seeded (RECTO_KILL_SEED) to replay a failing round.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillProject } from '../../testing/corpusFixtures.js';
import { packageRoot } from '../util/packageRoot.js';
import { ProjectStore } from '../store/projectStore.js';

const rounds = 20;
const pages = 300;
let seed = Number(process.env.RECTO_KILL_SEED ?? 37);
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

let dir: string;
let file: string;
let pageId: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-approve-kill-'));
  file = path.join(dir, 'p.recto');
  const store = ProjectStore.create(file);
  pageId = fillProject(store, [{ name: 'long.pdf', pages }])[0]!;
  store.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts the approval loop and kills it `delayMs` after it is ready (so kills land inside and between approvals). */
function roundOfApprovals(delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const root = packageRoot();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'testing', 'approveLoop.ts'), file, pageId], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killing = false;
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      if (!killing && stdout.includes('ready\n')) {
        killing = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`approval loop ended by itself (${code}): ${stderr}`));
      else resolve(stdout.split('\n').filter((l) => l.startsWith('approved')).length);
    });
  });
}

describe('kill -9 during whole-document approval', () => {
  it(`leaves all pages approved with their events, or none, ${rounds} of ${rounds} times`, async () => {
    let whole = 0;
    let approvalsSeen = 0;
    for (let round = 0; round < rounds; round++) {
      // An approval of 300 pages takes about a second here: kills land before, inside and after its transaction.
      approvalsSeen += await roundOfApprovals(Math.floor(random() * 2500));
      const store = ProjectStore.open(file);
      try {
        const doc = store.documents.getDocument(store.documents.getPage(pageId).documentId);
        const statuses = new Set(doc.pages.map((p) => p.reviewStatus));
        const approvals = new Set(doc.pages.map((p) => store.reviewEvents.ofPage(p.id).filter((e) => e.status === 'approved').length));
        const approvedWithEvent = doc.pages.every((p) => p.reviewStatus !== 'approved' || store.reviewEvents.latest(p.id)?.status === 'approved');
        if (statuses.size === 1 && approvals.size === 1 && approvedWithEvent) whole += 1;
      } finally {
        store.close();
      }
    }
    console.log(`kill -9 during approval: ${rounds} rounds, ${approvalsSeen} approvals acknowledged, ${whole} of ${rounds} left all or nothing`);
    expect(whole).toBe(rounds);
  }, 600_000);
});
