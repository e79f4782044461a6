/**
 * The three master-data files, row by row: PO.csv (one row per PO line), GR.csv (one row per receipt of a PO line)
 * and SUP.csv (one row per supplier bank account; further columns are the vendor master's own and are ignored).
 * Every row is checked — columns present, types, a PO's header the same on each of its lines, duplicates — and the
 * first problem refuses the file naming it and the line, so nothing of a bad file is imported.
 */
import { vatKey, type PurchaseOrder, type SupplierAccount } from '../../app/matching/index.js';
import { MasterDataFileError, type CsvTable } from './csvReader.js';
import { detectDecimalMark, parseDate, parseNumber, parseText, type DecimalMark } from './cellValues.js';

export const PO_COLUMNS = ['po_number', 'supplier_name', 'supplier_vat_id', 'line', 'description', 'item_id', 'quantity', 'unit', 'unit_price', 'currency', 'order_date'] as const;
export const GR_COLUMNS = ['po_number', 'line', 'quantity_received', 'received_on'] as const;
export const SUP_COLUMNS = ['supplier_name', 'vat_id', 'iban'] as const;

export interface GoodsReceipt {
  poNumber: string;
  line: number;
  quantityReceived: number;
  receivedOn: string;
}

/** A row's cells by column name, with readers that throw MasterDataFileError naming the file, line and column. */
class RowReader {
  constructor(
    private readonly file: string,
    private readonly index: Map<string, number>,
    private readonly mark: DecimalMark,
    public cells: string[] = [],
    public line = 0,
  ) {}
  fail(reason: string): never {
    throw new MasterDataFileError(this.file, this.line, reason);
  }
  raw(column: string): string {
    return this.cells[this.index.get(column)!] ?? '';
  }
  text(column: string, required: boolean, maxLength = 500): string | null {
    const value = parseText(this.raw(column), column);
    if (typeof value !== 'string') this.fail(value.problem);
    if (value === '') return required ? this.fail(`${column} is empty`) : null;
    if (value.length > maxLength) this.fail(`${column} is longer than ${maxLength} characters`);
    return value;
  }
  number(column: string, check: (n: number) => boolean, what: string): number {
    const value = parseNumber(this.raw(column), this.mark);
    if (typeof value === 'string') this.fail(`${column}: ${value}`);
    if (!check(value)) this.fail(`${column} ${value} is not ${what}`);
    return value;
  }
  date(column: string, required: boolean): string | null {
    const value = parseDate(this.raw(column));
    if (value !== null && typeof value === 'object') this.fail(`${column}: ${value.problem}`);
    if (value === null && required) this.fail(`${column} is empty`);
    return value;
  }
}

function columnsOf(table: CsvTable, file: string, required: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  table.header.forEach((name, i) => {
    if (index.has(name)) throw new MasterDataFileError(file, 1, `the column ${name} is named twice`);
    index.set(name, i);
  });
  const missing = required.filter((c) => !index.has(c));
  if (missing.length > 0) throw new MasterDataFileError(file, 1, `the header lacks ${missing.join(', ')} (it has ${table.header.slice(0, 20).join(', ')})`);
  return index;
}

function markOf(table: CsvTable, index: Map<string, number>, numeric: readonly string[], declared: DecimalMark | undefined): { mark: DecimalMark; detected: boolean } {
  if (declared) return { mark: declared, detected: false };
  return { mark: detectDecimalMark(table.rows, numeric.map((c) => index.get(c)!), table.delimiter), detected: true };
}

const isPositiveInteger = (n: number) => Number.isInteger(n) && n > 0 && n < 1e9;

export interface ReadFile<T> {
  records: T;
  rows: number;
  decimal: DecimalMark;
  decimalDetected: boolean;
}

export function purchaseOrdersOf(table: CsvTable, file: string, declared?: DecimalMark): ReadFile<PurchaseOrder[]> {
  const index = columnsOf(table, file, PO_COLUMNS);
  const { mark, detected } = markOf(table, index, ['quantity', 'unit_price'], declared);
  const reader: RowReader = new RowReader(file, index, mark);
  const orders = new Map<string, PurchaseOrder & { firstLine: number }>();
  const lineSeen = new Map<string, number>();
  for (const row of table.rows) {
    reader.cells = row.cells;
    reader.line = row.line;
    const poNumber = reader.text('po_number', true, 100)!;
    const supplierName = reader.text('supplier_name', true, 300)!;
    const supplierVatId = reader.text('supplier_vat_id', false, 40);
    if (supplierVatId && !vatKey(supplierVatId)) reader.fail(`supplier_vat_id "${supplierVatId}" is not a VAT ID`);
    const line = reader.number('line', isPositiveInteger, 'a line number (a whole number from 1)');
    const description = reader.text('description', true, 1000)!;
    const itemId = reader.text('item_id', false, 100);
    const quantity = reader.number('quantity', (n) => n > 0, 'a quantity above zero');
    const unit = reader.text('unit', false, 20);
    const unitPrice = reader.number('unit_price', (n) => n >= 0, 'a price of zero or more');
    const currency = reader.text('currency', true, 3)!.toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) reader.fail(`currency "${currency}" is not an ISO 4217 code`);
    const orderDate = reader.date('order_date', false);
    const key = `${poNumber}\u0000${line}`;
    const before = lineSeen.get(key);
    if (before !== undefined) reader.fail(`PO ${poNumber} line ${line} again (first on line ${before})`);
    lineSeen.set(key, row.line);
    let order = orders.get(poNumber);
    if (!order) {
      order = { poNumber, supplierName, supplierVatId, currency, orderDate, lines: [], firstLine: row.line };
      orders.set(poNumber, order);
    } else {
      const differs = ([['supplier_name', order.supplierName, supplierName], ['supplier_vat_id', order.supplierVatId, supplierVatId], ['currency', order.currency, currency], ['order_date', order.orderDate, orderDate]] as const).find(([, a, b]) => a !== b);
      if (differs) reader.fail(`PO ${poNumber} has ${differs[0]} "${differs[2] ?? ''}" here and "${differs[1] ?? ''}" on line ${order.firstLine}`);
    }
    order.lines.push({ poNumber, line, description, itemId, quantity, unit, unitPrice });
  }
  const records = [...orders.values()].map(({ firstLine: _, ...po }) => ({ ...po, lines: po.lines.sort((a, b) => a.line - b.line) }));
  return { records, rows: table.rows.length, decimal: mark, decimalDetected: detected };
}

/** `knownLines(po)` is the PO's line numbers (from the file imported with it, else the project), null where unknown. */
export function goodsReceiptsOf(table: CsvTable, file: string, knownLines: (poNumber: string) => ReadonlySet<number> | null, declared?: DecimalMark): ReadFile<GoodsReceipt[]> {
  const index = columnsOf(table, file, GR_COLUMNS);
  const { mark, detected } = markOf(table, index, ['quantity_received'], declared);
  const reader: RowReader = new RowReader(file, index, mark);
  const seen = new Map<string, number>();
  const records: GoodsReceipt[] = [];
  for (const row of table.rows) {
    reader.cells = row.cells;
    reader.line = row.line;
    const poNumber = reader.text('po_number', true, 100)!;
    const line = reader.number('line', isPositiveInteger, 'a line number (a whole number from 1)');
    const quantityReceived = reader.number('quantity_received', (n) => n >= 0, 'a quantity of zero or more');
    const receivedOn = reader.date('received_on', true)!;
    const lines = knownLines(poNumber);
    if (!lines) reader.fail(`PO ${poNumber} is neither in the purchase orders imported with it nor in the project`);
    if (!lines.has(line)) reader.fail(`PO ${poNumber} has no line ${line}`);
    const key = `${poNumber}\u0000${line}\u0000${receivedOn}`;
    const before = seen.get(key);
    if (before !== undefined) reader.fail(`a second receipt of PO ${poNumber} line ${line} on ${receivedOn} (first on line ${before}; add the quantities)`);
    seen.set(key, row.line);
    records.push({ poNumber, line, quantityReceived, receivedOn });
  }
  return { records, rows: table.rows.length, decimal: mark, decimalDetected: detected };
}

export function supplierAccountsOf(table: CsvTable, file: string): ReadFile<SupplierAccount[]> {
  const index = columnsOf(table, file, SUP_COLUMNS);
  const reader: RowReader = new RowReader(file, index, 'point');
  const seen = new Map<string, number>();
  const records: SupplierAccount[] = [];
  for (const row of table.rows) {
    reader.cells = row.cells;
    reader.line = row.line;
    const supplierName = reader.text('supplier_name', true, 300)!;
    const vatId = reader.text('vat_id', false, 40);
    if (vatId && !vatKey(vatId)) reader.fail(`vat_id "${vatId}" is not a VAT ID`);
    const iban = reader.text('iban', true, 50)!.toUpperCase().replace(/\s+/g, '');
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(iban)) reader.fail(`iban "${iban}" is not an IBAN`);
    const key = `${vatKey(vatId) ?? supplierName.toLowerCase()}\u0000${iban}`;
    const before = seen.get(key);
    if (before !== undefined) reader.fail(`${supplierName}'s IBAN ${iban} again (first on line ${before})`);
    seen.set(key, row.line);
    records.push({ supplierName, vatId, iban });
  }
  return { records, rows: table.rows.length, decimal: 'point', decimalDetected: false };
}
