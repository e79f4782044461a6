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
import { nameKey, vatKey } from '../../app/matching/index.js';

type Out = NodeJS.WritableStream;

export const masterUsage = `  recto master import P.recto --purchase-orders PO.csv [--goods-receipts GR.csv] [--suppliers SUP.csv]
                      [--decimal point|comma]
      Imports purchase orders (po_number, supplier_name, supplier_vat_id, line, description, item_id, quantity,
      unit, unit_price, currency, order_date), goods receipts (po_number, line, quantity_received, received_on) and
      the vendor master (supplier_name, vat_id, iban, …) for three-way matching; each file replaces its set, updated
      by key. A bad row refuses the whole import naming the file and line. The project is created if missing.
  recto master tolerances P.recto [--supplier VAT-ID|NAME] [--price-relative R] [--price-absolute A]
                          [--quantity-over Q] [--total T] [--clear]
      Prints the matching tolerances, or sets them: the defaults, or with --supplier that supplier's own
      (--clear drops them). Defaults: price ± max(0.5 %, 0.01) a unit, quantity over 0, line amount ± 0.01.`;

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
  if (sub === 'tolerances') return tolerancesCommand(rest, stdout, fail);
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

const TOLERANCE_FLAGS = { 'price-relative': 'priceRelative', 'price-absolute': 'priceAbsolute', 'quantity-over': 'quantityOver', total: 'totalAbsolute' } as const;

async function tolerancesCommand(args: string[], stdout: Out, fail: (message: string) => number): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { supplier: { type: 'string' }, clear: { type: 'boolean' }, ...Object.fromEntries(Object.keys(TOLERANCE_FLAGS).map((f) => [f, { type: 'string' as const }])) },
    });
  } catch (error) {
    return fail(`recto master tolerances: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return fail('recto master tolerances: give one project file (P.recto)');
  const given: Partial<Record<(typeof TOLERANCE_FLAGS)[keyof typeof TOLERANCE_FLAGS], number>> = {};
  for (const [flag, key] of Object.entries(TOLERANCE_FLAGS)) {
    const text = (values as Record<string, unknown>)[flag];
    if (typeof text !== 'string') continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) return fail(`recto master tolerances: --${flag} is a number of zero or more, not ${text}`);
    given[key] = value;
  }
  const file = path.resolve(positionals[0]!);
  let store: ProjectStore;
  try {
    store = await ProjectStore.openChecked(file);
  } catch (error) {
    if (error instanceof ProjectFileError) return fail(`recto master tolerances: ${error.message}`);
    throw error;
  }
  try {
    const settings = store.masterData.matchSettings();
    // A VAT ID is two letters then a digit (DE123456789); anything else is a name.
    const supplier = values.supplier ? (/^[A-Z]{2}\d/.test(vatKey(values.supplier) ?? '') ? vatKey(values.supplier) : nameKey(values.supplier)) : null;
    if (values.supplier && !supplier) return fail(`recto master tolerances: --supplier "${values.supplier}" names no supplier`);
    if (supplier && values.clear) delete settings.bySupplier[supplier];
    else if (supplier && Object.keys(given).length > 0) settings.bySupplier[supplier] = { ...settings.bySupplier[supplier], ...given };
    else if (!supplier && Object.keys(given).length > 0) settings.defaults = { ...settings.defaults, ...given };
    try {
      store.masterData.setMatchSettings(settings);
    } catch (error) {
      return fail(`recto master tolerances: ${error instanceof Error ? error.message : String(error)}`);
    }
    stdout.write(`${JSON.stringify(store.masterData.matchSettings(), null, 2)}\n`);
    return 0;
  } finally {
    store.close();
  }
}
