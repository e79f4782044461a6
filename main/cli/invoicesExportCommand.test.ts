/**
 * `recto export --format invoices` as a function: each approved invoice once, "nothing new to export", --all-approved.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../store/projectStore.js';
import { approvedContentOf } from '../store/approvalSeals.js';
import { exportCommand, mergeCommand } from './exportCommand.js';
import { auditCommand } from './auditCommand.js';
import { invoiceReading } from '../../testing/invoiceReadings.js';

let dir: string;
let output: string;
const stderr = { write: (chunk: string) => ((output += chunk), true) } as unknown as NodeJS.WritableStream;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-invoices-cli-'));
  output = '';
  const store = ProjectStore.create(path.join(dir, 'p.recto'));
  for (const [i, approved] of [[1, true], [2, false]] as const) {
    const doc = store.documents.addDocument({ sha256: String(i).repeat(64), name: `r-${i}.pdf`, mediaType: 'application/pdf', bytes: Buffer.from(`r-${i}`), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!;
    const pageId = doc.pages[0]!.id;
    store.readings.saveExtraction(pageId, invoiceReading({ invoice_number: `R-${i}`, issue_date: '2024-03-01', currency: 'EUR', seller: 'Muster GmbH', total: 119, subtotal: 100, tax: 19, lines: [] }, { markdown: 'Rechnung', elements: [] }), new Date());
    if (!approved) continue;
    store.transaction(() => {
      store.documents.setReviewStatus(pageId, 'approved');
      store.reviewEvents.record({ pageId, status: 'approved', exceptions: [], reason: null, reviewer: 'Ada', sealed: JSON.stringify(approvedContentOf(store, doc.id)) });
    });
  }
  store.close();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const rowsOf = (out: string) => fs.readFileSync(path.join(out, 'invoices.csv'), 'utf8').trimEnd().split('\r\n').length - 1;

describe('recto export --format invoices', () => {
  it('writes the approved invoice once; then "nothing new to export" (exit 0, header-only); --all-approved writes it again, saying so', async () => {
    const project = path.join(dir, 'p.recto');
    const out = path.join(dir, 'out');
    // Exit 1: the invoice lacks what an e-invoice needs (listed); it goes out in the tables all the same.
    expect(await exportCommand([project, '--out', out, '--format', 'invoices'], stderr)).toBe(1);
    expect(output).toMatch(/exported 1 invoice\(s\)/);
    expect(rowsOf(out)).toBe(1);

    // The first export still lies there as written: refused, not replaced.
    output = '';
    expect(await exportCommand([project, '--out', out, '--format', 'invoices'], stderr)).toBe(2);
    expect(output).toMatch(/holds the invoices export of .* with 1 invoice\(s\), as it was written/);

    const second = path.join(dir, 'second');
    output = '';
    expect(await exportCommand([project, '--out', second, '--format', 'invoices'], stderr)).toBe(0);
    expect(output).toMatch(/nothing new to export as UBL \(1 approved invoice\(s\) exported before/);
    expect(rowsOf(second)).toBe(0);

    // An export that sent nothing is replaced.
    output = '';
    expect(await exportCommand([project, '--out', second, '--format', 'invoices', '--all-approved'], stderr)).toBe(1);
    expect(output).toMatch(/--all-approved: writing every approved invoice again, 1 of them exported before as UBL/);
    expect(rowsOf(second)).toBe(1);

    output = '';
    expect(await exportCommand([project, '--out', path.join(dir, 'x'), '--format', 'invoices', '--xrechnung'], stderr)).toBe(1);
    expect(output).toMatch(/exported 1 invoice\(s\)/);
    expect(await exportCommand([project, '--out', path.join(dir, 'corpus'), '--all-approved'], stderr)).toBe(2);
  });

  it('an export made in one project is known after a merge: the merged project has nothing new to send, once per merge', async () => {
    const project = path.join(dir, 'p.recto');
    expect(await exportCommand([project, '--out', path.join(dir, 'out'), '--format', 'invoices'], stderr)).toBe(1);
    expect(output).toMatch(/exported 1 invoice\(s\)/);

    // Another analyst's project holds the same file, unreviewed, under its own document id.
    const other = path.join(dir, 'q.recto');
    const store = ProjectStore.create(other);
    // (Both files: the fixture's hashes are not its bytes', which a merge checks of a file it copies.)
    const [local] = [1, 2].map((i) => store.documents.addDocument({ sha256: String(i).repeat(64), name: `r-${i}.pdf`, mediaType: 'application/pdf', bytes: Buffer.from(`r-${i}`), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] })!);
    store.close();
    output = '';
    expect(await mergeCommand([other, project], stderr), output).toBe(0);
    expect(output).toMatch(/1 invoices export\(s\) recorded there/);
    const merged = ProjectStore.open(other);
    try {
      expect(merged.invoiceExports.list().map((e) => e.items.map((i) => i.documentId))).toEqual([[local!.id]]);
    } finally {
      merged.close();
    }

    // The approval came with the merge and the export that sent it: nothing new to send on that channel here.
    output = '';
    expect(await exportCommand([other, '--out', path.join(dir, 'merged-out'), '--format', 'invoices'], stderr)).toBe(0);
    expect(output).toMatch(/nothing new to export as UBL \(1 approved invoice\(s\) exported before/);
    expect(rowsOf(path.join(dir, 'merged-out'))).toBe(0);

    // Merging again adds no second copy of the export, and the carried export sits in the audit chain.
    output = '';
    expect(await mergeCommand([other, project], stderr), output).toBe(0);
    expect(output).toMatch(/0 invoices export\(s\) recorded there/);
    let audited = '';
    const write = { write: (chunk: string) => ((audited += chunk), true) };
    expect(await auditCommand([other], write, write), audited).toBe(0);
  });

  it('a merge refuses another project whose export record is malformed, naming it, and merges nothing', async () => {
    const project = path.join(dir, 'p.recto');
    expect(await exportCommand([project, '--out', path.join(dir, 'out'), '--format', 'invoices'], stderr)).toBe(1);
    const db = new Database(project);
    db.prepare("UPDATE invoice_exports SET files = '[{\"file\": 7}]'").run();
    db.close();
    const other = path.join(dir, 'q.recto');
    const store = ProjectStore.create(other);
    for (const i of [1, 2]) store.documents.addDocument({ sha256: String(i).repeat(64), name: `r-${i}.pdf`, mediaType: 'application/pdf', bytes: Buffer.from(`r-${i}`), pages: [{ pageNumber: 1, width: 100, height: 100, dpi: 72, textLayer: null }] });
    store.close();
    output = '';
    expect(await mergeCommand([other, project], stderr)).toBe(2);
    expect(output).toMatch(/p\.recto: invoices export [0-9a-f-]+: files\.0\.file: .*; nothing was merged/);
    const merged = ProjectStore.open(other);
    try {
      // The approval that came before the export record was checked went back with the rest.
      expect(merged.documents.listDocuments().flatMap((d) => d.pages.map((p) => p.reviewStatus))).toEqual(['unreviewed', 'unreviewed']);
      expect(merged.invoiceExports.list()).toEqual([]);
    } finally {
      merged.close();
    }
  });
});
