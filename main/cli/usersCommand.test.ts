/**
 * `recto users` (issue 40): the first account is an admin; the token is printed once on a line of its own and only
 * its hash is kept; names are never reused; a removed or reset token opens nothing; four eyes is on by default and
 * its changes, like every account change, are in the audit trail, which an account edited outside Recto breaks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../store/projectStore.js';
import { auditCommand } from './auditCommand.js';
import { usersCommand } from './usersCommand.js';

let dir: string;
let project: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-users-'));
  project = path.join(dir, 'team.recto');
  ProjectStore.create(project).close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function users(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await usersCommand(args, { write: (s: string) => ((out += s), true) }, { write: (s: string) => ((err += s), true) });
  return { code, out, err };
}

const accountOf = (token: string) => {
  const store = ProjectStore.open(project);
  try {
    return store.accounts.byToken(token);
  } finally {
    store.close();
  }
};

describe('recto users', () => {
  let adaToken = '';
  let boToken = '';

  it('makes the first account an admin and prints its token once, alone on stdout', async () => {
    const added = await users('add', 'Ada', '--role', 'reviewer', '--project', project);
    expect(added.code).toBe(0);
    expect(added.out).toMatch(/^recto-u-[A-Za-z0-9_-]{43}\n$/);
    expect(added.err).toMatch(/first account is an admin/);
    adaToken = added.out.trim();
    expect(accountOf(adaToken)).toMatchObject({ name: 'Ada', role: 'admin' });
  });

  it('keeps only a hash of the token in the project file', () => {
    const bytes = fs.readFileSync(project);
    const wal = fs.existsSync(`${project}-wal`) ? fs.readFileSync(`${project}-wal`) : Buffer.alloc(0);
    expect(bytes.includes(adaToken)).toBe(false);
    expect(wal.includes(adaToken)).toBe(false);
  });

  it('adds others with the role asked, and refuses a name in use', async () => {
    const added = await users('add', 'Bo', '--role', 'approver', '--project', project);
    expect(added.code).toBe(0);
    boToken = added.out.trim();
    expect(accountOf(boToken)).toMatchObject({ name: 'Bo', role: 'approver' });
    const again = await users('add', 'bo', '--role', 'reviewer', '--project', project);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already an account "Bo"/);
  });

  it('refuses bad usage with exit 2 and creates no project for a mistyped path', async () => {
    expect((await users('add', 'Cy', '--role', 'boss', '--project', project)).code).toBe(2);
    expect((await users('add', 'Cy', '--project', project)).code).toBe(2);
    expect((await users('list')).code).toBe(2);
    const missing = path.join(dir, 'typo.recto');
    const result = await users('list', '--project', missing);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/no such project file/);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('gives a new token on reset: the old one opens nothing', async () => {
    const reset = await users('reset', 'Bo', '--project', project);
    expect(reset.code).toBe(0);
    const fresh = reset.out.trim();
    expect(fresh).not.toBe(boToken);
    expect(accountOf(boToken)).toBeNull();
    expect(accountOf(fresh)).toMatchObject({ name: 'Bo' });
    boToken = fresh;
  });

  it('removes an account at once and never gives its name to another', async () => {
    expect((await users('remove', 'Bo', '--project', project)).code).toBe(0);
    expect(accountOf(boToken)).toBeNull();
    const reuse = await users('add', 'Bo', '--role', 'approver', '--project', project);
    expect(reuse.code).toBe(1);
    expect(reuse.err).toMatch(/never given to a second person/);
    expect((await users('remove', 'Nobody', '--project', project)).err).toMatch(/no account "Nobody"/);
  });

  it('refuses to remove the last admin while others remain', async () => {
    await users('add', 'Cy', '--role', 'reviewer', '--project', project);
    const refused = await users('remove', 'Ada', '--project', project);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/last admin/);
  });

  it('lists every account with its role, removed ones marked, and the four-eyes rule (on by default)', async () => {
    const listed = await users('list', '--project', project);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^Ada\tadmin\tsince /m);
    expect(listed.out).toMatch(/^Bo\tapprover\tremoved /m);
    expect(listed.out).toMatch(/^Cy\treviewer\tsince /m);
    expect(listed.out).not.toMatch(/recto-u-/);
    expect(listed.err).toMatch(/2 account\(s\) in use; four eyes on/);
    expect((await users('four-eyes', 'off', '--project', project)).code).toBe(0);
    expect((await users('list', '--project', project)).err).toMatch(/four eyes off/);
    expect((await users('four-eyes', 'on', '--project', project)).code).toBe(0);
  });

  it('records every change, by the command line, in the chained trail', async () => {
    const store = ProjectStore.open(project);
    try {
      const actions = store.accounts.events().map((e) => `${e.action} ${e.account ?? e.detail} by ${e.by}`);
      expect(actions).toEqual([
        'account-added Ada by command line',
        'account-added Bo by command line',
        'token-reset Bo by command line',
        'account-removed Bo by command line',
        'account-added Cy by command line',
        'rule four-eyes off by command line',
        'rule four-eyes on by command line',
      ]);
    } finally {
      store.close();
    }
    let out = '';
    expect(await auditCommand([project], { write: (s: string) => ((out += s), true) }, { write: () => true })).toBe(0);
    expect(out).toMatch(/accounts: chained from the first row/);
  });

  it('shows a role given outside Recto in the audit', async () => {
    const copy = path.join(dir, 'tampered.recto');
    fs.copyFileSync(project, copy);
    const db = new Database(copy);
    db.prepare("UPDATE accounts SET role = 'admin' WHERE name = 'Cy'").run();
    db.close();
    let err = '';
    expect(await auditCommand([copy], { write: () => true }, { write: (s: string) => ((err += s), true) })).toBe(1);
    expect(err).toMatch(/TAMPERED: accounts row .*edited outside Recto/);
  });
});
