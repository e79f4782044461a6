/**
 * Three-way matching on real invoices (../shared/testdata einvoices/ and einvoice-corpus/ truth lines): each gets a
 * PO built from its own lines (testing/matching/posFromInvoices.ts), imported through PO.csv and GR.csv into a
 * project like a company's master data; the invoices carry no PO number. Every invoice must find its PO and each
 * billed line its PO line; a planted price, quantity, extra line or short receipt must be exactly its exception;
 * nothing planted, no exception.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PurchaseOrder } from '../../app/matching/index.js';
import { ProjectStore } from '../store/projectStore.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { goodsReceiptsCsv, purchaseOrdersCsv } from '../../testing/matching/poCsv.js';
import { loadRealInvoices, perturbations, plant, purchaseOrderOf, realInvoicesAvailable, sameOrder, type Perturbation, type RealInvoice } from '../../testing/matching/posFromInvoices.js';
import { importMasterData } from './importMasterData.js';
import { matchDocument } from './matchDocument.js';

const available = realInvoicesAvailable(defaultTestdataRoot);
if (!available) console.log(`SKIPPED: ${defaultTestdataRoot}/einvoices and einvoice-corpus truth.json are absent`);

describe.skipIf(!available)('matching real invoices against POs built from their own lines', () => {
  let dir: string;
  let store: ProjectStore;
  let invoices: RealInvoice[];
  let orders: PurchaseOrder[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-match-'));
    store = ProjectStore.create(path.join(dir, 'p.recto'));
    invoices = loadRealInvoices(defaultTestdataRoot).invoices;
    orders = invoices.map((inv, i) => purchaseOrderOf(inv, `PO-${String(i + 1).padStart(4, '0')}`));
    fs.writeFileSync(path.join(dir, 'PO.csv'), purchaseOrdersCsv(orders));
  });
  afterAll(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Imports the POs with these receipts (each PO's from `plantedFor`), then matches every invoice planted so. */
  function run(kind: Perturbation) {
    const planted = invoices.map((inv, i) => plant(inv, orders[i]!, kind));
    const receipts = planted.flatMap((p, i) => (p.received ? [...p.received].map(([line, quantity]) => ({ poNumber: orders[i]!.poNumber, line, quantity, on: '2026-01-20' })) : []));
    fs.writeFileSync(path.join(dir, 'GR.csv'), goodsReceiptsCsv(receipts));
    importMasterData(store, { purchaseOrders: path.join(dir, 'PO.csv'), goodsReceipts: path.join(dir, 'GR.csv') });
    return planted.map((p, i) => ({ invoice: invoices[i]!, po: orders[i]!, planted: p, result: matchDocument(store, `doc-${i}`, p.invoice, { record: false }).match }));
  }

  it('uses enough of the real invoices', () => {
    expect(invoices.length).toBeGreaterThanOrEqual(35);
    expect(new Set(invoices.map((i) => i.family)).size).toBeGreaterThanOrEqual(8);
  });

  for (const kind of perturbations) {
    it(`finds the right PO and lines, and ${kind === 'none' ? 'no exception' : `the planted ${kind} only`}`, () => {
      const outcomes = run(kind);
      const wrong: string[] = [];
      for (const { invoice, po, planted, result } of outcomes) {
        const chosen = orders.find((o) => o.poNumber === result.poNumber);
        if (!chosen || !sameOrder(chosen, po)) {
          wrong.push(`${invoice.file}: matched ${result.poNumber ?? 'no PO'}, not ${po.poNumber}`);
          continue;
        }
        let poIndex = 0;
        invoice.lines.forEach((line, i) => {
          if (!((line.quantity ?? 0) > 0)) return;
          const expectedLine = po.lines[poIndex++]!.line;
          if (result.lines[i]?.poLine !== expectedLine) wrong.push(`${invoice.file} line ${i + 1}: PO line ${result.lines[i]?.poLine}, not ${expectedLine}`);
        });
        const found = result.findings.map((f) => `${f.rule}@${f.line}`);
        const expected = planted.expected ? [`${planted.expected.rule}@${planted.expected.line}`] : [];
        if (found.join() !== expected.join()) wrong.push(`${invoice.file}: findings [${found.join(', ')}], expected [${expected.join(', ')}]`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
