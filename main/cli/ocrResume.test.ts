/**
 * A large `recto ocr --project` run through the remote engine, killed halfway (SIGKILL, as a crash or a closed
 * laptop would) and run again: the rerun asks the server only for the pages the first run did not save, the pages
 * lost are at most those in flight, and every page is written in the end. The server is a scripted local one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatServer, type FakeChatServer } from '../../testing/fakeChatServer.js';
import { ProjectStore } from '../store/projectStore.js';
import { packageRoot } from '../util/packageRoot.js';

const PAGES = 10;
const CONCURRENCY = 2;
let home: string;
let files: string[];
let fake: FakeChatServer;

function recto(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(packageRoot(), 'main', 'cli', 'recto.ts'), ...args], {
    cwd: home,
    env: { ...process.env, RECTO_HOME: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

function savedPages(project: string): number {
  const store = ProjectStore.open(project);
  try {
    return store.documents.listDocuments().flatMap((d) => d.pages).filter((p) => store.readings.latestExtraction(p.id) !== null).length;
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-resume-'));
  files = [];
  for (let n = 1; n <= PAGES; n++) {
    const file = path.join(home, `scan-${n}.png`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="500"><rect width="100%" height="100%" fill="white"/><text x="40" y="80" font-size="32">Invoice ${n}</text></svg>`;
    fs.writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
    files.push(file);
  }
});

afterAll(async () => {
  await fake?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('recto ocr --engine remote --project: resumable', () => {
  it('a run killed halfway and run again reads only the missing pages', async () => {
    fake = await startFakeChatServer({ model: 'fake-ocr', delayMs: 150 });
    const project = path.join(home, 'batch.recto');
    const args = (out: string) => ['ocr', ...files, '--out', path.join(home, out), '--project', project, '--engine', 'remote', '--endpoint', fake.url, '--concurrency', String(CONCURRENCY)];

    const first = recto(args('out1'));
    const firstExit = exited(first);
    // Bounded wait for half the pages to be answered, then kill without warning.
    for (let i = 0; i < 600 && fake.answered < PAGES / 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.answered).toBeGreaterThanOrEqual(PAGES / 2);
    first.kill('SIGKILL');
    await firstExit;
    const answeredBeforeKill = fake.answered;
    const saved = savedPages(project);
    expect(saved).toBeLessThan(PAGES);
    expect(saved).toBeGreaterThanOrEqual(answeredBeforeKill - CONCURRENCY); // at most the pages in flight are lost

    const requestsBefore = fake.requests.length;
    const second = await exited(recto(args('out2')));
    expect(second.code, second.stderr).toBe(0);
    expect(fake.requests.length - requestsBefore).toBe(PAGES - saved);
    expect(savedPages(project)).toBe(PAGES);
    const written = fs.readdirSync(path.join(home, 'out2')).filter((name) => name.endsWith('.md'));
    expect(written).toHaveLength(PAGES);
    for (const name of written) expect(fs.readFileSync(path.join(home, 'out2', name), 'utf8')).toMatch(/^# Page [0-9a-f]{12}/);

    // A third run has nothing left to read.
    const requestsAfter = fake.requests.length;
    const third = await exited(recto(args('out3')));
    expect(third.code, third.stderr).toBe(0);
    expect(fake.requests.length).toBe(requestsAfter);
  }, 240_000);

  it('a page that failed (the server refused it) is read again on the rerun, and only it', async () => {
    await fake?.close();
    fake = await startFakeChatServer({ model: 'fake-ocr' });
    const project = path.join(home, 'failed.recto');
    const some = files.slice(0, 3);
    const args = (out: string) => ['ocr', ...some, '--out', path.join(home, out), '--project', project, '--endpoint', fake.url, '--concurrency', '1'];
    fake.faults.push({ kind: 'status', status: 400 });
    const first = await exited(recto(args('failed1')));
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/the server refused the page \(.*HTTP 400/);
    expect(savedPages(project)).toBe(2);
    const before = fake.requests.length;
    const second = await exited(recto(args('failed2')));
    expect(second.code, second.stderr).toBe(0);
    expect(fake.requests.length - before).toBe(1);
    expect(fs.readdirSync(path.join(home, 'failed2')).filter((name) => name.endsWith('.md'))).toHaveLength(3);
  }, 120_000);
});
