import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { rewardCommand } from './rewardCommand.js';

function io(input = '') {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => err.push(String(chunk)));
  return { stdin: Readable.from([input]), stdout, stderr, out: () => out.join(''), err: () => err.join('') };
}

describe('recto reward', () => {
  it('scores one pair from files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-reward-'));
    fs.writeFileSync(path.join(dir, 'ref.md'), '# Title\n\nSome text here.\n');
    fs.writeFileSync(path.join(dir, 'pred.md'), '# Title\n\nSome text here.\n');
    const streams = io();
    const code = await rewardCommand(['--ref', path.join(dir, 'ref.md'), '--pred', path.join(dir, 'pred.md'), '--json'], streams);
    expect(code).toBe(0);
    const result = JSON.parse(streams.out());
    expect(result.score).toBe(1);
    expect(result.terms.text).toBe(1);
  });

  it('names a missing file', async () => {
    const streams = io();
    expect(await rewardCommand(['--ref', '/nonexistent/ref.md', '--pred', '/nonexistent/pred.md'], streams)).toBe(2);
    expect(streams.err()).toContain('/nonexistent/ref.md: ENOENT');
  });

  it('reads JSON lines, one reward per line, and reports bad lines without stopping', async () => {
    const lines = [
      JSON.stringify({ ref: 'Invoice 42, total 15.00', pred: 'Invoice 42, total 15.00' }),
      '{not json',
      JSON.stringify({ ref: 'Invoice 42', pred: 'Invoce 24' }),
      JSON.stringify({ ref: 'x' }),
    ].join('\n');
    const streams = io(lines);
    expect(await rewardCommand(['--jsonl'], streams)).toBe(1);
    const out = streams.out().trim().split('\n').map((line) => JSON.parse(line));
    expect(out).toHaveLength(4);
    expect(out[0].score).toBe(1);
    expect(out[1]).toMatchObject({ line: 2 });
    expect(out[2].score).toBeGreaterThan(0);
    expect(out[2].score).toBeLessThan(1);
    expect(out[3]).toMatchObject({ line: 4, error: expect.stringContaining('ref') });
  });
});
