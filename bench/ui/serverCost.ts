/**
 * `npx tsx bench/ui/serverCost.ts [--pages N --calls N]`: the browser shell's server CPU per request (its process's
 * user + system time from /proc, processCpu.ts) for the requests a page switch and a field edit cause, on the bench:ui
 * project (N one-page invoices of one supplier), each method called `--calls` times one after the other over HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeHome, startRecto } from '../../e2e/support/rectoServer.js';
import { processCpuMs } from './processCpu.js';
import { createUiBenchProject } from './uiBenchProject.js';

const { values } = parseArgs({ options: { pages: { type: 'string' }, calls: { type: 'string' } } });
const pages = Number(values.pages ?? 200);
const calls = Number(values.calls ?? 40);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-server-cost-'));
const home = makeHome();
const recto = await startRecto({ home, project: await createUiBenchProject(dir, pages, path.join(home, 'cache')) });
try {
  const call = async (method: string, params: unknown): Promise<any> => {
    const response = await fetch(`${recto.origin}/api/rpc/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-recto-token': recto.token }, body: JSON.stringify(params) });
    return ((await response.json()) as { result: unknown }).result;
  };
  const pageIds: string[] = (await call('documents.list', {})).map((document: { pages: { id: string }[] }) => document.pages[0]!.id);
  const first = pageIds[0]!;
  const amount: number = (await call('fields.document', { pageId: first })).engine.values.lines[0].amount;
  const methods: [string, (i: number) => Promise<unknown>][] = [
    ['pages.getReviewAndFields', (i) => call('pages.getReviewAndFields', { pageId: pageIds[i % pageIds.length] })],
    ['pages.getReview', (i) => call('pages.getReview', { pageId: pageIds[i % pageIds.length] })],
    ['fields.document', () => call('fields.document', { pageId: first })],
    ['einvoice.validation', () => call('einvoice.validation', { pageId: first })],
    ['invoice.matches', () => call('invoice.matches', { pageId: first })],
    ['invoice.paymentFields', () => call('invoice.paymentFields', { pageId: first })],
    ['documents.list', () => call('documents.list', {})],
    ['attention.list', () => call('attention.list', {})],
    ['fields.save (a line amount)', (i) => call('fields.save', { pageId: first, field: 'lines.0.amount', value: i % 2 ? amount + 10 : amount })],
    ['page image', (i) => fetch(`${recto.origin}/api/page-image/${pageIds[i % pageIds.length]}?token=${recto.token}`).then((r) => r.arrayBuffer())],
  ];
  console.log(`${pages} documents, ${calls} calls each: server CPU ms per request (HTTP included)`);
  for (const [label, run] of methods) {
    await run(0);
    const before = processCpuMs(recto.pid);
    for (let i = 1; i <= calls; i++) await run(i);
    console.log(`${label.padEnd(30)} ${((processCpuMs(recto.pid) - before) / calls).toFixed(1)}`);
  }
} finally {
  await recto.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
}
