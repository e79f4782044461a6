/**
 * Importing master data into a project: each given file read (bounded: csvReader.ts), every row checked
 * (masterDataRows.ts), goods receipts checked against the POs imported with them or already in the project, then
 * all files written in one transaction (main/store/masterData.ts). The first problem refuses the whole import,
 * naming the file and the line: nothing is half-imported. Reports per file the rows read, the decimal mark used and
 * whether it was declared or detected, and per set what was added, changed and removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PurchaseOrder, SupplierAccount } from '../../app/matching/index.js';
import type { MasterDataImportReport, ProjectStoreMasterData } from './storeTypes.js';
import { defaultCsvLimits, MasterDataFileError, readCsv, type CsvLimits } from './csvReader.js';
import type { DecimalMark } from './cellValues.js';
import { goodsReceiptsOf, purchaseOrdersOf, supplierAccountsOf, type GoodsReceipt, type ReadFile } from './masterDataRows.js';

export { MasterDataFileError };

export interface MasterDataFiles {
  purchaseOrders?: string;
  goodsReceipts?: string;
  suppliers?: string;
  /** The files' decimal mark where the user declares it; detected per file otherwise. */
  decimal?: DecimalMark;
}

export interface FileSummary {
  file: string;
  rows: number;
  decimal: DecimalMark;
  decimalDetected: boolean;
}

export interface MasterDataImportSummary {
  files: FileSummary[];
  report: MasterDataImportReport;
}

function readBytes(file: string, limits: CsvLimits): Uint8Array {
  let size: number;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new MasterDataFileError(file, null, 'not a file');
    size = stat.size;
  } catch (error) {
    if (error instanceof MasterDataFileError) throw error;
    throw new MasterDataFileError(file, null, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  // Checked before reading, so a huge file costs no memory.
  if (size > limits.maxBytes) throw new MasterDataFileError(file, null, `${size} bytes, more than the ${limits.maxBytes} a master-data file may have`);
  return fs.readFileSync(file);
}

function summary<T>(file: string, read: ReadFile<T>): FileSummary {
  return { file, rows: read.rows, decimal: read.decimal, decimalDetected: read.decimalDetected };
}

/** A master-data file by value: its name (for messages) and bytes (an upload, or a file read by importMasterData). */
export interface MasterDataBytes {
  name: string;
  bytes: Uint8Array;
}

export function importMasterData(store: ProjectStoreMasterData, files: MasterDataFiles, limits: CsvLimits = defaultCsvLimits): MasterDataImportSummary {
  const read = (file: string | undefined): MasterDataBytes | undefined => (file ? { name: path.basename(file), bytes: readBytes(file, limits) } : undefined);
  return importMasterDataBytes(
    store,
    { purchaseOrders: read(files.purchaseOrders), goodsReceipts: read(files.goodsReceipts), suppliers: read(files.suppliers), decimal: files.decimal },
    limits,
  );
}

export function importMasterDataBytes(
  store: ProjectStoreMasterData,
  files: { purchaseOrders?: MasterDataBytes; goodsReceipts?: MasterDataBytes; suppliers?: MasterDataBytes; decimal?: DecimalMark },
  limits: CsvLimits = defaultCsvLimits,
): MasterDataImportSummary {
  if (!files.purchaseOrders && !files.goodsReceipts && !files.suppliers) throw new MasterDataFileError('(no file)', null, 'give at least one of the purchase orders, goods receipts or suppliers');
  const summaries: FileSummary[] = [];
  let orders: PurchaseOrder[] | undefined;
  let receipts: GoodsReceipt[] | undefined;
  let accounts: SupplierAccount[] | undefined;
  if (files.purchaseOrders) {
    const { name, bytes } = files.purchaseOrders;
    const read = purchaseOrdersOf(readCsv(bytes, name, limits), name, files.decimal);
    orders = read.records;
    summaries.push(summary(name, read));
  }
  if (files.goodsReceipts) {
    const { name, bytes } = files.goodsReceipts;
    // The POs the receipts may name: those imported with them (which replace the project's), else the project's.
    const imported = orders ? new Map(orders.map((po) => [po.poNumber, new Set(po.lines.map((l) => l.line))])) : null;
    const knownLines = (po: string) => (imported ? (imported.get(po) ?? null) : store.masterData.poLineNumbers(po));
    const read = goodsReceiptsOf(readCsv(bytes, name, limits), name, knownLines, files.decimal);
    receipts = read.records;
    summaries.push(summary(name, read));
  }
  if (files.suppliers) {
    const { name, bytes } = files.suppliers;
    const read = supplierAccountsOf(readCsv(bytes, name, limits), name);
    accounts = read.records;
    summaries.push(summary(name, read));
  }
  const report = store.masterData.importMasterData({ purchaseOrders: orders, goodsReceipts: receipts, supplierAccounts: accounts });
  return { files: summaries, report };
}
