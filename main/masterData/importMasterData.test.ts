/**
 * Master-data import: a re-import updates by key and reports added / changed / removed; every bad row — types,
 * duplicates, a receipt of an unknown PO, a hostile or malformed file — refuses the whole import naming the file and
 * the line, in bounded time and memory, and leaves the project as it was.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../store/projectStore.js';
import { readCsv } from './csvReader.js';
import { importMasterData, MasterDataFileError } from './importMasterData.js';

let dir: string;
let store: ProjectStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-master-'));
  store = ProjectStore.create(path.join(dir, 'p.recto'));
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const HEADER = 'po_number,supplier_name,supplier_vat_id,line,description,item_id,quantity,unit,unit_price,currency,order_date\n';
const write = (name: string, text: string | Buffer) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof MasterDataFileError) return error.message;
    throw error;
  }
  throw new Error('not refused');
};

describe('master-data import', () => {
  it('imports, then re-imports by key reporting added, changed and removed', () => {
    const po = write('PO.csv', `${HEADER}P1,ACME GmbH,DE123456789,1,Widget,W-1,10,pc,2.5,EUR,2026-01-02\nP1,ACME GmbH,DE123456789,2,Gadget,,3,pc,12,EUR,2026-01-02\nP2,Other Ltd,,1,Thing,,1,,5,GBP,\n`);
    const gr = write('GR.csv', 'po_number,line,quantity_received,received_on\nP1,1,4,2026-01-10\nP1,1,6,2026-01-12\n');
    const first = importMasterData(store, { purchaseOrders: po, goodsReceipts: gr });
    expect(first.report).toMatchObject({ purchaseOrders: { added: 2 }, poLines: { added: 3 }, goodsReceipts: { added: 2 } });
    expect(first.files.map((f) => [f.file, f.rows, f.decimal, f.decimalDetected])).toEqual([['PO.csv', 3, 'point', true], ['GR.csv', 2, 'point', true]]);

    write('PO.csv', `${HEADER}P1,ACME GmbH,DE123456789,1,Widget,W-1,10,pc,2.6,EUR,2026-01-02\nP3,New AG,,1,New thing,,2,,7,EUR,\n`);
    const second = importMasterData(store, { purchaseOrders: po });
    expect(second.report.purchaseOrders).toEqual({ added: 1, changed: 0, removed: 1, unchanged: 1 });
    expect(second.report.poLines).toEqual({ added: 1, changed: 1, removed: 2, unchanged: 0 });
    // The receipts of kept lines stay; those of removed lines went with them.
    expect(store.masterData.counts()).toEqual({ purchaseOrders: 2, poLines: 2, goodsReceipts: 2, supplierAccounts: 0 });
  });

  it('reads semicolon files with decimal commas (detected, or declared)', () => {
    const po = write('PO.csv', `${HEADER.replace(/,/g, ';')}P1;ACME GmbH;;1;Widget;;1.000;pc;2,50;EUR;02.01.2026\n`);
    const summary = importMasterData(store, { purchaseOrders: po });
    expect(summary.files[0]).toMatchObject({ decimal: 'comma', decimalDetected: true });
    const [candidate] = store.masterData.candidatesFor({ documentId: null, purchaseOrder: 'P1', supplierVatId: null, supplierName: null });
    expect(candidate!.po.lines[0]).toMatchObject({ quantity: 1000, unitPrice: 2.5 });
    expect(candidate!.po.orderDate).toBe('2026-01-02');
    expect(importMasterData(store, { purchaseOrders: po, decimal: 'comma' }).files[0]).toMatchObject({ decimal: 'comma', decimalDetected: false });
  });

  it('refuses bad rows naming file and line, and imports nothing of any file', () => {
    const good = write('PO.csv', `${HEADER}P1,ACME GmbH,,1,Widget,,10,pc,2.5,EUR,\n`);
    importMasterData(store, { purchaseOrders: good });
    const cases: [string, string, RegExp][] = [
      ['type', `${HEADER}P9,ACME,,1,Widget,,ten,pc,2.5,EUR,\n`, /PO\.csv, line 2: quantity: "ten" is not a number/],
      ['negative', `${HEADER}P9,ACME,,1,Widget,,-1,pc,2.5,EUR,\n`, /line 2: quantity -1 is not a quantity above zero/],
      ['duplicate line', `${HEADER}P9,ACME,,1,A,,1,,1,EUR,\nP9,ACME,,1,B,,1,,1,EUR,\n`, /line 3: PO P9 line 1 again \(first on line 2\)/],
      ['inconsistent header', `${HEADER}P9,ACME,,1,A,,1,,1,EUR,\nP9,ACME,,2,B,,1,,1,USD,\n`, /line 3: PO P9 has currency "USD" here and "EUR" on line 2/],
      ['currency', `${HEADER}P9,ACME,,1,A,,1,,1,euro,\n`, /line 2: currency/],
      ['date', `${HEADER}P9,ACME,,1,A,,1,,1,EUR,2026-02-30\n`, /line 2: order_date: "2026-02-30" is no calendar date/],
      ['formula', `${HEADER}P9,ACME,,1,=HYPERLINK("http://x"),,1,,1,EUR,\n`, /line 2: a quote inside an unquoted cell|formula/],
      ['quoted formula', `${HEADER}P9,ACME,,1,"=1+2",,1,,1,EUR,\n`, /line 2: description "=1\+2" starts like a spreadsheet formula/],
      ['missing column', 'po_number,supplier_name\nP9,ACME\n', /line 1: the header lacks supplier_vat_id/],
      ['ragged row', `${HEADER}P9,ACME,,1,A,,1,,1,EUR\n`, /line 2: 10 cells where the header has 11/],
    ];
    for (const [what, text, expected] of cases) {
      const file = write('PO.csv', text);
      expect(refusal(() => importMasterData(store, { purchaseOrders: file })), what).toMatch(expected);
    }
    // A bad GR refuses the good PO file imported with it: nothing half-imported.
    const po = write('PO2.csv', `${HEADER}P5,ACME GmbH,,1,Widget,,10,pc,2.5,EUR,\n`);
    const gr = write('GR.csv', 'po_number,line,quantity_received,received_on\nP5,1,1,2026-01-01\nP6,1,1,2026-01-01\n');
    expect(refusal(() => importMasterData(store, { purchaseOrders: po, goodsReceipts: gr }))).toMatch(/GR\.csv, line 3: PO P6 is neither in the purchase orders imported with it nor in the project/);
    const gr2 = write('GR2.csv', 'po_number,line,quantity_received,received_on\nP1,2,1,2026-01-01\n');
    expect(refusal(() => importMasterData(store, { goodsReceipts: gr2 }))).toMatch(/GR2\.csv, line 2: PO P1 has no line 2/);
    expect(store.masterData.counts()).toEqual({ purchaseOrders: 1, poLines: 1, goodsReceipts: 0, supplierAccounts: 0 });
  });

  it('refuses hostile files: NUL, UTF-16, Latin-1, unclosed quotes, a million columns, huge cells, oversized files', () => {
    const cases: [string, Buffer | string, RegExp][] = [
      ['NUL', Buffer.from(`${HEADER}P9,ACME,,1,A\u0000,,1,,1,EUR,\n`), /line 2: a NUL byte/],
      ['UTF-16', Buffer.from(`\ufeff${HEADER}`, 'utf16le'), /line 1: a NUL byte/],
      ['Latin-1', Buffer.concat([Buffer.from(`${HEADER}P9,ACME,,1,`), Buffer.from('Stra\xdfe', 'latin1'), Buffer.from(',,1,,1,EUR,\n')]), /line 2: not UTF-8/],
      ['unclosed quote', `${HEADER}P9,ACME,,1,"open,,1,,1,EUR,\nP10,ACME,,1,x,,1,,1,EUR,\n`, /line 2: a quoted cell is never closed/],
      ['text after quote', `${HEADER}P9,ACME,,1,"a"b,,1,,1,EUR,\n`, /line 2: text after a closing quote/],
      ['a million columns', `${HEADER}${','.repeat(1_000_000)}\n`, /line 2: more than 64 columns/],
      ['huge cell', `${HEADER}P9,ACME,,1,${'x'.repeat(100_000)},,1,,1,EUR,\n`, /line 2: a cell longer than 2000 characters/],
    ];
    for (const [what, text, expected] of cases) {
      const file = write('PO.csv', text);
      expect(refusal(() => importMasterData(store, { purchaseOrders: file })), what).toMatch(expected);
    }
    const big = write('big.csv', HEADER);
    expect(refusal(() => importMasterData(store, { purchaseOrders: big }, { maxBytes: 10, maxColumns: 64, maxCellLength: 100, maxRows: 10 }))).toMatch(/big\.csv: \d+ bytes, more than the 10/);
    expect(store.masterData.counts().purchaseOrders).toBe(0);
  });

  it('reads RFC 4180 quoting: doubled quotes, delimiters and line breaks inside quotes, CRLF', () => {
    const table = readCsv(Buffer.from('a,b\r\n"x, ""y""","two\nlines"\r\n\r\n'), 'q.csv');
    expect(table.rows).toEqual([{ line: 2, cells: ['x, "y"', 'two\nlines'] }]);
  });

  it('imports the vendor master and finds a supplier\'s accounts by VAT ID, then name', () => {
    const sup = write('SUP.csv', 'supplier_name,vat_id,iban,city\nACME GmbH,DE 123 456 789,DE89 3704 0044 0532 0130 00,Berlin\nOther Ltd,,GB29NWBK60161331926819,London\n');
    expect(importMasterData(store, { suppliers: sup }).report.supplierAccounts).toMatchObject({ added: 2 });
    expect(store.masterData.accountsOf({ vat: 'DE123456789', name: null }).map((a) => a.iban)).toEqual(['DE89370400440532013000']);
    expect(store.masterData.accountsOf({ vat: null, name: 'other' }).map((a) => a.iban)).toEqual(['GB29NWBK60161331926819']);
    const bad = write('SUP2.csv', 'supplier_name,vat_id,iban\nACME GmbH,,not-an-iban\n');
    expect(refusal(() => importMasterData(store, { suppliers: bad }))).toMatch(/SUP2\.csv, line 2: iban "NOT-AN-IBAN" is not an IBAN/);
  });
});
