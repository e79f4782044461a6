/**
 * `npm run bench:queue [-- --json FILE] [--receipts] [--testdata DIR] [--keep FILE]`: the share of real invoices that bulk approval
 * can take through (docs/invoice-review.md, "The invoice queue"). The test set's invoice PDFs — einvoices/,
 * einvoice-corpus/ and invoice2data/ (with `--receipts` also the scanned receipts/, slow: OCR) — imported into one
 * project through the app's contract and read by the bundled engine, as an analyst's morning; then `invoices.queue`
 * says which are clean. Reported per group: the studied sets and the corpus's development families; the corpus's
 * hash-picked families with a studied relative; the held-out families (bench/fields/heldOutFamilies.ts — read only
 * their score). A clean invoice whose total or number differs from the truth would be approved wrong: counted apart.
 * Finally every clean one goes through `invoices.approveClean` (one call) and the seconds are timed. `--keep FILE`
 * keeps the read project there (copied before the approvals) and, when FILE exists, reads nothing and measures it.
 * For the development group only, the signals that keep invoices from being clean are counted (never the held-out's).
 * `--synthetic N`: instead, N clean invoices (distinct sellers and numbers) stored directly, then `invoices.queue` and
 * one `invoices.approveClean` of all of them timed — the cost of the queue and of bulk approval at a day's volume.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ReplyOf } from '../../app/contract/methods.js';
import { okDispatch, sessionIn } from '../../testing/realInvoiceProject.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { cleanInvoice } from '../../app/invoices/invoiceQueue.js';
import { familyGroupTitles, splitFamilies, type FamilyGroup } from '../fields/heldOutFamilies.js';
import { readStudiedSellers } from '../fields/studiedRelatives.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, receipts: { type: 'boolean' }, testdata: { type: 'string' }, keep: { type: 'string' }, synthetic: { type: 'string' } } });
const testdata = path.resolve(values.testdata ?? defaultTestdataRoot);

interface Truth {
  total: number | null;
  number: string | null;
}
interface Input {
  file: string;
  group: FamilyGroup;
  truth: Truth | null;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

function inputs(): Input[] {
  const list: Input[] = [];
  const studied = readStudiedSellers(testdata);
  const einvoiceTruth = (dir: string) => JSON.parse(fs.readFileSync(path.join(testdata, dir, 'truth.json'), 'utf8')) as Record<string, { family?: string; fields?: Record<string, unknown> | null }>;
  for (const [name, entry] of Object.entries(einvoiceTruth('einvoices'))) {
    list.push({ file: path.join(testdata, 'einvoices', 'pdfs', name), group: 'development', truth: entry.fields ? { total: num(entry.fields.total), number: str(entry.fields.invoice_number) } : null });
  }
  const corpus = einvoiceTruth('einvoice-corpus');
  const split = splitFamilies(Object.values(corpus).map((e) => e.family ?? ''), studied);
  for (const [name, entry] of Object.entries(corpus)) {
    list.push({ file: path.join(testdata, 'einvoice-corpus', 'pdfs', name), group: split.groupOf(entry.family ?? ''), truth: entry.fields ? { total: num(entry.fields.total), number: str(entry.fields.invoice_number) } : null });
  }
  const compare = path.join(testdata, 'invoice2data', 'tests', 'compare');
  for (const name of fs.readdirSync(compare).filter((n) => n.endsWith('.pdf')).sort()) {
    const json = path.join(compare, name.replace(/\.pdf$/, '.json'));
    const raw = fs.existsSync(json) ? (JSON.parse(fs.readFileSync(json, 'utf8')) as unknown) : null;
    const record = (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown> | null;
    list.push({ file: path.join(compare, name), group: 'development', truth: record ? { total: num(record.amount), number: str(record.invoice_number) } : null });
  }
  if (values.receipts) {
    const receipts = path.join(testdata, 'receipts');
    for (const name of fs.readdirSync(path.join(receipts, 'img')).filter((n) => /\.(jpe?g|png)$/i.test(n)).sort()) {
      const key = path.join(receipts, 'key', name.replace(/\.\w+$/, '.json'));
      const truth = fs.existsSync(key) ? (JSON.parse(fs.readFileSync(key, 'utf8')) as Record<string, unknown>) : null;
      list.push({ file: path.join(receipts, 'img', name), group: 'development', truth: truth ? { total: num(truth.total), number: null } : null });
    }
  }
  return list.filter((input) => fs.existsSync(input.file));
}

/** Whether a clean row's values contradict the truth (a wrong invoice bulk approval would let through). */
function wrong(row: ReplyOf<'invoices.queue'>['rows'][number], truth: Truth | null): boolean {
  if (!truth) return false;
  if (truth.total !== null && (row.total === null || Math.abs(row.total - truth.total) > 0.005)) return true;
  return truth.number !== null && row.invoiceNumber !== null && row.invoiceNumber.trim().toLowerCase() !== truth.number.toLowerCase();
}

/** N clean invoices stored with their readings (no engine), then the queue and the bulk approval of all of them timed. */
async function synthetic(count: number): Promise<void> {
  const { addReadDocument, invoiceReading } = await import('../../testing/invoiceReadings.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-queue-synthetic-'));
  const session = sessionIn(dir);
  const call = okDispatch(session);
  try {
    await call('project.create', { path: path.join(dir, 'synthetic.recto') });
    const page = { markdown: 'Invoice', elements: [{ id: 'e1', kind: 'text' as const, box: [0, 0, 10, 10] as [number, number, number, number], span: [0, 7] as [number, number], confidence: null }] };
    session.store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const net = 100 + i;
        const invoice = { invoice_number: `S-${i}`, issue_date: '2026-01-02', due_date: '2026-02-01', seller: `Supplier ${i} GmbH`, buyer: 'Beispiel AG', currency: 'EUR', subtotal: net, tax: net * 0.19, total: net * 1.19, lines: [{ description: 'Work', quantity: 1, unit_price: net, amount: net }] };
        addReadDocument(session.store, `s${i}.pdf`, invoiceReading(invoice, page));
      }
    });
    const queueStart = performance.now();
    const queue = await call<ReplyOf<'invoices.queue'>>('invoices.queue', {});
    const queueMs = performance.now() - queueStart;
    const againStart = performance.now();
    await call('invoices.queue', {});
    const againMs = performance.now() - againStart;
    const clean = queue.rows.filter((r) => r.clean).map((r) => r.documentId);
    const approveStart = performance.now();
    const cpuStart = process.cpuUsage();
    const result = await call<ReplyOf<'invoices.approveClean'>>('invoices.approveClean', { documentIds: clean });
    const cpu = process.cpuUsage(cpuStart);
    const approveS = (performance.now() - approveStart) / 1000;
    console.log(`\nbench:queue --synthetic ${count}: ${clean.length} clean of ${queue.rows.length}; invoices.queue ${queueMs.toFixed(0)} ms (first), ${againMs.toFixed(0)} ms (again)`);
    console.log(`invoices.approveClean of ${clean.length}: ${result.approved.length} approved, ${result.skipped.length} skipped, ${approveS.toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, ${((1000 * approveS) / Math.max(1, clean.length)).toFixed(1)} ms per invoice`);
    if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ synthetic: count, clean: clean.length, queueMs, againMs, approved: result.approved.length, approveS, approveCpuS: (cpu.user + cpu.system) / 1e6 }, null, 2)}\n`);
  } finally {
    await session.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(testdata)) {
    console.log(`bench:queue SKIPPED: no test set at ${testdata} (see ../shared/testdata/MANIFEST.md)`);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-queue-'));
  const session = sessionIn(dir);
  const call = okDispatch(session);
  try {
    const list = inputs();
    const readStart = performance.now();
    const kept = values.keep ? path.resolve(values.keep) : null;
    if (kept && fs.existsSync(kept)) {
      fs.copyFileSync(kept, path.join(dir, 'queue.recto'));
      await call('project.open', { path: path.join(dir, 'queue.recto') });
    } else {
      await call('project.create', { path: path.join(dir, 'queue.recto') });
      await call('documents.importPaths', { paths: list.map((i) => i.file) });
      await session.queue.idle();
      if (kept) session.store.copyTo(kept);
    }
    const readS = (performance.now() - readStart) / 1000;
    const queueStart = performance.now();
    const queue = await call<ReplyOf<'invoices.queue'>>('invoices.queue', {});
    const queueMs = performance.now() - queueStart;
    // Again, as the view refetches after an event: the e-invoice reports and check rows are there now.
    const againStart = performance.now();
    await call('invoices.queue', {});
    const queueAgainMs = performance.now() - againStart;
    const byName = new Map(list.map((i) => [path.basename(i.file), i]));
    type Group = { documents: number; invoices: number; clean: number; cleanWrong: number; butDuplicates: number };
    const empty = (): Group => ({ documents: 0, invoices: 0, clean: 0, cleanWrong: 0, butDuplicates: 0 });
    const groups: Record<FamilyGroup, Group> = { development: empty(), relativeStudied: empty(), heldOut: empty() };
    for (const row of queue.rows) {
      const input = byName.get(row.documentName);
      if (!input) continue;
      const g = groups[input.group];
      g.documents++;
      if (row.isInvoice) g.invoices++;
      if (row.clean) g.clean++;
      if (row.clean && wrong(row, input.truth)) g.cleanWrong++;
      // The test set holds the same invoices rendered by several producers: each is a possible duplicate of the others
      // (an exception, rightly). Clean but for that: what a project without re-imports would take through.
      if (cleanInvoice({ ...row, signals: row.signals.filter((kind) => kind !== 'duplicate') })) g.butDuplicates++;
    }
    // Why development invoices are not clean: how many carry each signal (the held-out groups' reasons are not read).
    const reasons = new Map<string, number>();
    for (const row of queue.rows) {
      if (row.clean || !row.isInvoice || byName.get(row.documentName)?.group !== 'development') continue;
      for (const kind of new Set(row.signals)) reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
    }
    const clean = queue.rows.filter((r) => r.clean).map((r) => r.documentId);
    const approveStart = performance.now();
    const approved = clean.length ? await call<ReplyOf<'invoices.approveClean'>>('invoices.approveClean', { documentIds: clean }) : { approved: [], skipped: [] };
    const approveS = (performance.now() - approveStart) / 1000;

    const pct = (a: number, b: number) => (b === 0 ? '—' : `${Math.round((100 * a) / b)} %`);
    console.log(`\nbench:queue — ${queue.rows.length} documents read in ${readS.toFixed(1)} s; invoices.queue ${queueMs.toFixed(0)} ms (first), ${queueAgainMs.toFixed(0)} ms (again)\n`);
    console.log('| group | documents | invoices | clean | share of invoices | clean but total/number wrong | clean but for duplicates (share) |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const group of ['development', 'relativeStudied', 'heldOut'] as const) {
      const g = groups[group];
      console.log(`| ${familyGroupTitles[group]} | ${g.documents} | ${g.invoices} | ${g.clean} | ${pct(g.clean, g.invoices)} | ${g.cleanWrong} | ${g.butDuplicates} (${pct(g.butDuplicates, g.invoices)}) |`);
    }
    console.log(`\nnot clean, development (invoices carrying each signal): ${[...reasons].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    console.log(`\ninvoices.approveClean: ${approved.approved.length} approved, ${approved.skipped.length} skipped, in ${approveS.toFixed(2)} s`);
    if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ documents: queue.rows.length, readS, queueMs, queueAgainMs, groups, approved: approved.approved.length, skipped: approved.skipped.length, approveS }, null, 2)}\n`);
  } finally {
    await session.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (values.synthetic) await synthetic(Number(values.synthetic));
else await main();
