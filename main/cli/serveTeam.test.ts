/**
 * `recto serve --team` (issue 40) over real HTTP and the event socket: only personal tokens (the launch token, an
 * unknown, a removed or a replaced one: 401, at once); `app.info` names the account; every change is recorded under
 * the account whatever `settings.set authorName` tries (revisions, field revisions, approvals, the invoices export
 * record); a reviewer calling approval methods, or a non-admin the project's settings, is answered 403 naming the
 * rule; four eyes refuses the approver who corrected the total; the per-account rate limit refuses a flood with 429
 * and leaves the others alone.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { ProjectStore } from '../store/projectStore.js';
import { serve, ServeRefusedError, type ServedBrowser } from './serveCommand.js';

let home: string;
let project: string;
let server: ServedBrowser;
let printed = '';
const savedHome = process.env.RECTO_HOME;
const tokens: Record<string, string> = {};
let pageId: string;
let secondPage: string;

const invoice = { invoice_number: 'R-1', issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-team-'));
  process.env.RECTO_HOME = home;
  project = path.join(home, 'team.recto');
  const store = ProjectStore.create(project);
  for (const [name, role] of [['Ada', 'admin'], ['Rae', 'reviewer'], ['Ann', 'approver'], ['Bo', 'approver'], ['Cy', 'reviewer']] as const) {
    tokens[name] = store.accounts.add(name, role, { name: 'command line' }).token;
  }
  pageId = addReadDocument(store, 'a.pdf', invoiceReading(invoice), createHash('sha256').update('a.pdf').digest('hex')).pageId;
  secondPage = addReadDocument(store, 'b.pdf', invoiceReading(invoice), createHash('sha256').update('b.pdf').digest('hex')).pageId;
  store.close();
  server = await serve({ port: 0, project, team: true, exitOnSignal: false, out: { write: (s: string) => ((printed += s), true) } as unknown as NodeJS.WritableStream });
}, 120_000);

afterAll(async () => {
  await server?.close();
  process.env.RECTO_HOME = savedHome;
  fs.rmSync(home, { recursive: true, force: true });
});

async function rpc(method: string, params: unknown, token: string | undefined): Promise<{ status: number; body: { ok: boolean; result?: any; error?: { code: string; message: string } } | string }> {
  const response = await fetch(`${server.origin}/api/rpc/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== undefined ? { 'x-recto-token': token } : {}) },
    body: JSON.stringify(params),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a plain-text refusal (401)
  }
  return { status: response.status, body };
}

describe('recto serve --team', () => {
  it('prints a sign-in URL that carries no token', () => {
    expect(printed).toMatch(/team mode/);
    expect(printed).toContain(`${server.origin}/#token=<personal token>`);
    for (const token of Object.values(tokens)) expect(printed).not.toContain(token);
  });

  it('answers only personal tokens: none, an unknown one, and the launch token are 401', async () => {
    expect((await rpc('app.info', {}, undefined)).status).toBe(401);
    expect((await rpc('app.info', {}, 'recto-u-' + 'x'.repeat(43))).status).toBe(401);
    expect((await rpc('app.info', {}, server.token)).status).toBe(401);
    const info = await rpc('app.info', {}, tokens.Rae);
    expect(info.status).toBe(200);
    expect((info.body as any).result.user).toEqual({ name: 'Rae', role: 'reviewer' });
    expect((await rpc('app.info', {}, tokens.Ada)).body).toMatchObject({ result: { user: { name: 'Ada', role: 'admin' } } });
  });

  it("records the account as the author, whatever settings.set's authorName tries", async () => {
    const renamed = await rpc('settings.set', { authorName: 'Bo' }, tokens.Rae);
    expect(renamed.status).toBe(403);
    expect((renamed.body as any).error.message).toMatch(/^roles: in team mode the reviewer name is the account's \(Rae\)/);
    const settings = await rpc('settings.get', {}, tokens.Rae);
    expect((settings.body as any).result).toMatchObject({ authorName: 'Rae', reviewerConfirmed: true, recentProjects: [] });
    const saved = await rpc('fields.save', { pageId, field: 'total', value: 12.9 }, tokens.Rae);
    expect((saved.body as any).result.author).toBe('Rae');
    const text = await rpc('revisions.save', { pageId, text: 'Invoice R-1, corrected', parentId: null }, tokens.Rae);
    expect((text.body as any).result.author).toBe('Rae');
  });

  it('answers a reviewer calling approval methods 403, naming the rule', async () => {
    for (const [method, params] of [
      ['approval.approve', { pageId, scope: 'document', reason: 'ok' }],
      ['pages.setReviewStatus', { pageId, status: 'approved' }],
      ['pages.reject', { pageId, reason: 'not ours' }],
      ['suppliers.confirmAccount', { id: 'x', kind: 'iban', value: 'DE89370400440532013000' }],
    ] as const) {
      const refused = await rpc(method, params, tokens.Rae);
      expect(refused.status, method).toBe(403);
      expect((refused.body as any).error).toEqual({ code: 'forbidden', message: `roles: Rae is a reviewer; ${method} needs an approver or admin (approving and rejecting)` });
    }
    // Back to review is a correction, which a reviewer may make.
    expect((await rpc('pages.setReviewStatus', { pageId: secondPage, status: 'in-review' }, tokens.Rae)).status).toBe(200);
  });

  it("keeps the server's paths and the project's settings to admins, and no one switches the served project", async () => {
    const engine = await rpc('settings.set', { engine: 'bundled' }, tokens.Ann);
    expect(engine.status).toBe(403);
    expect((engine.body as any).error.message).toMatch(/^roles: Ann is an approver; changing the project's settings \(engine\) is for an admin/);
    expect((await rpc('settings.set', { engine: 'bundled' }, tokens.Ada)).status).toBe(200);
    expect(((await rpc('corpus.export', { outDir: path.join(home, 'out') }, tokens.Ann)).body as any).error.message).toMatch(/corpus.export needs an admin/);
    expect(((await rpc('project.open', { path: path.join(home, 'other.recto') }, tokens.Ada)).body as any).error.message).toMatch(/single-user app/);
  });

  it('refuses the approver who corrected the total last (four eyes), and another approver approves', async () => {
    await rpc('fields.save', { pageId, field: 'total', value: 11.9 }, tokens.Ann);
    const refused = await rpc('approval.approve', { pageId, scope: 'document', reason: 'ok' }, tokens.Ann);
    expect(refused.status).toBe(403);
    expect((refused.body as any).error.message).toMatch(/^four-eyes: Ann changed Total last on this invoice; another approver must approve it/);
    const approved = await rpc('approval.approve', { pageId, scope: 'document', reason: 'ok' }, tokens.Bo);
    expect(approved.status).toBe(200);
    const history = await rpc('approval.history', { pageId }, tokens.Rae);
    expect((history.body as any).result.at(-1)).toMatchObject({ reviewer: 'Bo' });
  });

  it('records the invoices export under the admin who ran it', async () => {
    const exported = await rpc('invoices.export', { outDir: path.join(home, 'erp'), syntax: 'ubl' }, tokens.Ada);
    expect(exported.status).toBe(200);
    const store = ProjectStore.open(project);
    try {
      expect(store.invoiceExports.list().map((e) => e.reviewer)).toEqual(['Ada']);
    } finally {
      store.close();
    }
  });

  it('gives page image URLs a per-account key, never the token, that stops opening once the account is removed', async () => {
    const info = (await rpc('app.info', {}, tokens.Cy)).body as any;
    const template: string = info.result.pageImageUrlTemplate;
    expect(template).not.toContain(tokens.Cy);
    const url = `${server.origin}${template.replace('__recto_page_id__', pageId)}`;
    expect((await fetch(url)).status).not.toBe(401);
    expect((await fetch(url.replace(/\.[A-Za-z0-9_-]{43}$/, `.${'A'.repeat(43)}`))).status).toBe(401);
    const store = ProjectStore.open(project);
    store.accounts.remove('Cy', { name: 'command line' });
    store.close();
    expect((await fetch(url)).status).toBe(401);
    expect((await rpc('app.info', {}, tokens.Cy)).status).toBe(401);
  });

  it('ends the event socket of an account removed mid-session, and refuses a replaced token at once', async () => {
    const socket = new WebSocket(`${server.origin.replace('http', 'ws')}/api/events?token=${tokens.Bo}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const reply = new Promise<any>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
    socket.send(JSON.stringify({ id: 1, method: 'app.info', params: {} }));
    expect((await reply).body.result.user).toEqual({ name: 'Bo', role: 'approver' });
    const store = ProjectStore.open(project);
    const fresh = store.accounts.reset('Bo', { name: 'command line' }).token;
    store.close();
    expect((await rpc('app.info', {}, tokens.Bo)).status).toBe(401);
    expect((await rpc('app.info', {}, fresh)).status).toBe(200);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ id: 2, method: 'app.info', params: {} }));
    expect(await closed).toBe(4401);
  });

  it('answers a flood from one account 429 and leaves another account served', async () => {
    const flood = await Promise.all(Array.from({ length: 500 }, () => rpc('app.info', {}, tokens.Rae)));
    const statuses = flood.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(200);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect((flood.find((r) => r.status === 429)!.body as any).error.code).toBe('rate-limited');
    expect((await rpc('app.info', {}, tokens.Ada)).status).toBe(200);
  });

  it('binds another address only when asked, saying what that exposes', async () => {
    let said = '';
    const other = await serve({ port: 0, project, team: true, listen: '127.0.0.2', exitOnSignal: false, out: { write: (s: string) => ((said += s), true) } as unknown as NodeJS.WritableStream });
    try {
      expect(said).toMatch(new RegExp(`Listening on 127\\.0\\.0\\.2:${other.port}: anyone who can reach that address can reach the sign-in page, and every request needs a personal token\\. The traffic, tokens included, is plain HTTP: put a TLS reverse proxy in front`));
      const response = await fetch(`http://127.0.0.2:${other.port}/api/rpc/app.info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-recto-token': tokens.Ada! }, body: '{}' });
      expect(response.status).toBe(200);
      // Not on 127.0.0.1 any more: only the address asked for.
      await expect(fetch(`http://127.0.0.1:${other.port}/api/rpc/app.info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-recto-token': tokens.Ada! }, body: '{}' })).rejects.toThrow();
    } finally {
      await other.close();
    }
  });

  it('refuses to start without accounts, and --listen without --team', async () => {
    const empty = path.join(home, 'empty.recto');
    ProjectStore.create(empty).close();
    await expect(serve({ port: 0, project: empty, team: true, exitOnSignal: false })).rejects.toThrow(/no accounts; add the first \(an admin\)/);
    await expect(serve({ port: 0, listen: '0.0.0.0', exitOnSignal: false })).rejects.toThrow(ServeRefusedError);
  });
});
