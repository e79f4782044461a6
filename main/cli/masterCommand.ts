/**
 * `recto master import P.recto --purchase-orders PO.csv [--goods-receipts GR.csv] [--suppliers SUP.csv]
 * [--decimal point|comma]`: the company's purchase orders, goods receipts and vendor master into a project, for
 * three-way matching (docs/po-matching.md). Prints per file the rows read and the decimal mark (declared or
 * detected), and per set what was added, changed and removed. A bad row refuses the whole import, naming file and
 * line. Exit 0 when imported, 1 when refused, 2 for bad usage or a project that cannot be opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importMasterData, MasterDataFileError, type MasterDataImportSummary } from '../masterData/importMasterData.js';
import { ProjectFileError, ProjectStore } from '../store/projectStore.js';
import type { ImportDiff } from '../store/masterData.js';

type Out = NodeJS.WritableStream;

export const masterUsage = `  recto master import P.recto --purchase-orders PO.csv [--goods-receipts GR.csv] [--suppliers SUP.csv]
                      [--decimal point|comma]
      Imports purchase orders (po_number, supplier_name, supplier_vat_id, line, description, item_id, quantity,
      unit, unit_price, currency, order_date), goods receipts (po_number, line, quantity_received, received_on) and
      the vendor master (supplier_name, vat_id, iban, …) for three-way matching; each file replaces its set, updated
      by key. A bad row refuses the whole import naming the file and line. The project is created if missing.`;

const diffText = (what: string, d: ImportDiff | undefined) => (d ? `  ${what}: ${d.added} added, ${d.changed} changed, ${d.removed} removed, ${d.unchanged} unchanged\n` : '');

export function describeImport(summary: MasterDataImportSummary): string {
  let out = '';
  for (const f of summary.files) out += `  ${f.file}: ${f.rows} row(s), decimal ${f.decimal} (${f.decimalDetected ? 'detected' : 'declared'})\n`;
  const r = summary.report;
  return out + diffText('purchase orders', r.purchaseOrders) + diffText('PO lines', r.poLines) + diffText('goods receipts', r.goodsReceipts) + diffText('supplier accounts', r.supplierAccounts);
}

export async function masterCommand(args: string[], stdout: Out, stderr: Out): Promise<number> {
  const fail = (message: string) => {
    stderr.write(`${message}\n\n${masterUsage}\n`);
    return 2;
  };
  const [sub, ...rest] = args;
  if (sub !== 'import') return fail(`recto master: unknown subcommand "${sub ?? ''}"`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { 'purchase-orders': { type: 'string' }, 'goods-receipts': { type: 'string' }, suppliers: { type: 'string' }, decimal: { type: 'string' } },
    });
  } catch (error) {
    return fail(`recto master import: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return fail('recto master import: give one project file (P.recto)');
  if (!values['purchase-orders'] && !values['goods-receipts'] && !values.suppliers) return fail('recto master import: give --purchase-orders, --goods-receipts or --suppliers');
  const decimal = values.decimal;
  if (decimal !== undefined && decimal !== 'point' && decimal !== 'comma') return fail(`recto master import: --decimal is point or comma, not ${decimal}`);
  const file = path.resolve(positionals[0]!);
  let store: ProjectStore;
  try {
    store = fs.existsSync(file) ? await ProjectStore.openChecked(file) : ProjectStore.create(file);
  } catch (error) {
    if (error instanceof ProjectFileError) return fail(`recto master import: ${error.message}`);
    throw error;
  }
  try {
    const resolve = (f: string | undefined) => (f ? path.resolve(f) : undefined);
    const summary = importMasterData(store, {
      purchaseOrders: resolve(values['purchase-orders']),
      goodsReceipts: resolve(values['goods-receipts']),
      suppliers: resolve(values.suppliers),
      decimal,
    });
    stdout.write(`recto: imported master data into ${path.basename(file)}\n${describeImport(summary)}`);
    return 0;
  } catch (error) {
    if (error instanceof MasterDataFileError) {
      stderr.write(`recto master import: refused, nothing imported: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    store.close();
  }
}
