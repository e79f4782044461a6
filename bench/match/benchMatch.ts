/**
 * `npm run bench:match [-- --json FILE] [--lines N]`: three-way matching's accuracy and speed.
 *
 * Real invoices of ../shared/testdata (einvoices/ and einvoice-corpus/ truth lines) each get a PO built from their
 * own lines (quantity, net price = line amount ÷ quantity) and carry no PO number; around them, generated POs of
 * other suppliers and other POs of the same suppliers bring the project to N PO lines (100,000 by default). The
 * POs are imported through PO.csv as a company would (timed), then every invoice is matched through the project
 * store (timed per invoice, the median of 5 runs: the SQL look-ups and the matching) once per perturbation: none, a price, a quantity, an
 * extra line, a receipt short of the billed quantity (GR.csv re-imported for it). Accuracy: the right PO, the right
 * PO line for every billed line, the planted difference found as its exception on its line, and no other exception.
 * Held-out: whole seller families frozen before any score was read (testing/matching/posFromInvoices.ts isHeldOut);
 * the table gives them apart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isBilled, type PurchaseOrder } from '../../app/matching/index.js';
import { importMasterData } from '../../main/masterData/importMasterData.js';
import { matchDocument } from '../../main/masterData/matchDocument.js';
import { ProjectStore } from '../../main/store/projectStore.js';
import { goodsReceiptsCsv, purchaseOrdersCsv } from '../../testing/matching/poCsv.js';
import { isHeldOut, loadRealInvoices, perturbations, plant, purchaseOrderOf, realInvoicesAvailable, sameOrder } from '../../testing/matching/posFromInvoices.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { distractorOrders } from './distractorOrders.js';

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const REPS = 5;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Tally {
  invoices: number;
  rightPo: number;
  rightLines: number;
  plantedFound: number;
  planted: number;
  falseExceptions: number;
}
const tally = (): Tally => ({ invoices: 0, rightPo: 0, rightLines: 0, plantedFound: 0, planted: 0, falseExceptions: 0 });

async function main() {
  const { values } = parseArgs({ options: { json: { type: 'string' }, lines: { type: 'string' } } });
  if (!realInvoicesAvailable(defaultTestdataRoot)) {
    console.log(`SKIPPED: ${defaultTestdataRoot}/einvoices and einvoice-corpus truth.json are absent`);
    return;
  }
  const totalLines = values.lines ? Number(values.lines) : 100_000;
  const { invoices, leftOut } = loadRealInvoices(defaultTestdataRoot);
  const own = invoices.map((inv, i) => purchaseOrderOf(inv, `R${String(i + 1).padStart(5, '0')}`));
  const suppliers = [...new Map(invoices.map((inv) => [inv.seller, { name: inv.seller, currency: inv.currency }])).values()];
  const realLines = own.reduce((n, po) => n + po.lines.length, 0);
  const orders: PurchaseOrder[] = [...own, ...distractorOrders(suppliers, realLines, { totalLines, perRealSupplier: 40, linesPerPo: 6, seed: 41 })];
  const poLines = orders.reduce((n, po) => n + po.lines.length, 0);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-match-'));
  const store = ProjectStore.create(path.join(dir, 'bench.recto'));
  try {
    const poFile = path.join(dir, 'PO.csv');
    fs.writeFileSync(poFile, purchaseOrdersCsv(orders));
    const importStart = performance.now();
    importMasterData(store, { purchaseOrders: poFile });
    const importSeconds = (performance.now() - importStart) / 1000;

    const grFile = path.join(dir, 'GR.csv');
    const times: number[] = [];
    const byKind: Record<string, { all: Tally; heldOut: Tally }> = {};
    for (const kind of perturbations) {
      const planted = invoices.map((inv, i) => plant(inv, own[i]!, kind));
      const receipts = planted.flatMap((p, i) => (p.received ? [...p.received].map(([line, quantity]) => ({ poNumber: own[i]!.poNumber, line, quantity, on: '2026-01-20' })) : []));
      fs.writeFileSync(grFile, goodsReceiptsCsv(receipts));
      importMasterData(store, { goodsReceipts: grFile });
      const result = { all: tally(), heldOut: tally() };
      planted.forEach((p, i) => {
        // An invoice's time is the median of REPS runs: two cores shared with other work make single runs noisy.
        const runs: number[] = [];
        let match!: ReturnType<typeof matchDocument>['match'];
        for (let rep = 0; rep < REPS; rep++) {
          const start = performance.now();
          match = matchDocument(store, `bench-${i}`, p.invoice, { record: false }).match;
          runs.push(performance.now() - start);
        }
        times.push(percentile(runs, 50));
        const chosen = orders.find((o) => o.poNumber === match.poNumber);
        const rightPo = !!chosen && sameOrder(chosen, own[i]!);
        let poIndex = 0;
        const rightLines = rightPo && invoices[i]!.lines.every((line, j) => !isBilled(line) || match.lines[j]?.poLine === own[i]!.lines[poIndex++]!.line);
        const expected = p.expected ? `${p.expected.rule}@${p.expected.line}` : null;
        const found = match.findings.map((f) => `${f.rule}@${f.line}`);
        for (const t of isHeldOut(invoices[i]!.family) ? [result.all, result.heldOut] : [result.all]) {
          t.invoices++;
          if (rightPo) t.rightPo++;
          if (rightLines) t.rightLines++;
          if (expected) {
            t.planted++;
            if (found.includes(expected)) t.plantedFound++;
          }
          t.falseExceptions += found.filter((f) => f !== expected).length;
        }
      });
      byKind[kind] = result;
    }
    const rows = Object.entries(byKind).flatMap(([kind, { all, heldOut }]) =>
      ([['all', all], ['held-out', heldOut]] as const).map(([split, t]) => ({
        perturbation: kind,
        split,
        invoices: t.invoices,
        'right PO %': round((100 * t.rightPo) / t.invoices, 1),
        'right lines %': round((100 * t.rightLines) / t.invoices, 1),
        'planted found': t.planted ? `${t.plantedFound}/${t.planted}` : '-',
        'false exceptions': t.falseExceptions,
      })),
    );
    console.log(`PO lines in the project: ${poLines} (${orders.length} POs; ${own.length} built from real invoices); invoices left out: ${JSON.stringify(leftOut)}`);
    console.table(rows);
    const timing = { import_seconds: round(importSeconds), match_ms_median: round(percentile(times, 50), 3), match_ms_p95: round(percentile(times, 95), 3), match_ms_max: round(Math.max(...times), 3), matches: times.length };
    console.table([timing]);
    if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ po_lines: poLines, purchase_orders: orders.length, invoices: invoices.length, left_out: leftOut, rows, timing }, null, 2)}\n`);
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
