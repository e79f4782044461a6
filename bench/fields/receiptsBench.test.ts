import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Word } from '../../app/model/extraction.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { printedDateToIso, printedTotal, receiptValueRight, runReceiptsBench, type ReceiptTruth } from './receiptsBench.js';
import { readReceiptTruths } from './receiptsCommand.js';

const receiptsDir = path.join(defaultTestdataRoot, 'receipts');

const truth = (over: Partial<ReceiptTruth> = {}): ReceiptTruth => ({ receipt: '1', vendorKey: 'V', company: 'KEDAI PAPAN YEW CHUAN', date: '28/02/2018', total: 'RM101.76', lines: [], ...over });

describe('receipt benchmark scoring', () => {
  it('reads printed dates day first, with two-digit years and month names', () => {
    expect(printedDateToIso('09/01/2019')).toBe('2019-01-09');
    expect(printedDateToIso('01-03-18')).toBe('2018-03-01');
    expect(printedDateToIso('05 JAN 2017')).toBe('2017-01-05');
    expect(printedDateToIso('13/31/2018')).toBeNull();
    // The other forms the keys print: month first where the day cannot be, year first, run together, bracketed.
    expect(printedDateToIso('12/28/2017')).toBe('2017-12-28');
    expect(printedDateToIso('2018/02/22')).toBe('2018-02-22');
    expect(printedDateToIso('2018-01-05')).toBe('2018-01-05');
    expect(printedDateToIso('20180304')).toBe('2018-03-04');
    expect(printedDateToIso('25032018')).toBe('2018-03-25');
    expect(printedDateToIso('(06/12/2016)')).toBe('2016-12-06');
    expect(printedDateToIso('24-MAR-2018')).toBe('2018-03-24');
    expect(printedDateToIso('JAN 5, 2017')).toBe('2017-01-05');
    expect(printedDateToIso('28 MAR 18')).toBe('2018-03-28');
    expect(printedTotal('RM7.00')).toBe(7);
    expect(printedTotal('1,247.55')).toBe(1247.55);
  });

  it('judges values: total to the cent, date as ISO, merchant by name', () => {
    const t = truth();
    expect(receiptValueRight('total', t, 101.76)).toBe(true);
    expect(receiptValueRight('total', t, 101.7)).toBe(false);
    expect(receiptValueRight('issue_date', t, '2018-02-28')).toBe(true);
    expect(receiptValueRight('issue_date', t, '2018-28-02')).toBe(false);
    expect(receiptValueRight('seller', t, 'Kedai Papan Yew Chuan')).toBe(true);
    expect(receiptValueRight('seller', t, 'YEW CHUAN')).toBe(false);
    expect(receiptValueRight('seller', { ...t, company: 'C W KHOO HARDWARE SDN BHD' }, 'CW KHOO HARDWARE SDN. BHD')).toBe(true);
    expect(receiptValueRight('seller', t, 'KEDAI PAPAN YEW CHUAM')).toBe(false);
    expect(receiptValueRight('seller', t, null)).toBe(false);
  });

  it('scores an empty page as all wrong and a receipt without transcripts with no CER', () => {
    const r = runReceiptsBench([truth()], (): Word[] => [], () => 'development');
    expect(r.firstSeen.development).toEqual({ right: 0, total: 3 });
    expect(r.cer.development).toBeNull();
    expect(r.receipts.heldOut).toBe(0);
  });

  it('counts a receipt taken for another vendor once every vendor’s first receipt taught', () => {
    // Two vendors whose receipts print the same name: the second vendor's receipt is taken for the first's.
    const page = (name: string): Word[] => name.split(' ').map((text, i) => ({ text, box: [20 + 120 * i, 10, 120 + 120 * i, 30], confidence: 1 }));
    const same = 'KEDAI PAPAN YEW CHUAN';
    const truths = [truth({ receipt: 'a1' }), truth({ receipt: 'a2' }), truth({ receipt: 'b1', vendorKey: 'W' }), truth({ receipt: 'b2', vendorKey: 'W' })];
    const r = runReceiptsBench(truths, () => page(same), () => 'development');
    expect(r.secondReceipt.notMistaken.development).toEqual({ right: 1, total: 2 });
  });

  it('reads every ordered pair of a vendor\'s receipts, and the second receipt per field', () => {
    // Three receipts of one vendor printing its name: six ordered pairs (one taught, the other read), each with three
    // key fields; the seller printed on each, the date and total nowhere.
    const page = (name: string): Word[] => name.split(' ').map((text, i) => ({ text, box: [20 + 120 * i, 10, 120 + 120 * i, 30], confidence: 1 }));
    const truths = [truth({ receipt: 'a1' }), truth({ receipt: 'a2' }), truth({ receipt: 'a3' })];
    const r = runReceiptsBench(truths, () => page('KEDAI PAPAN YEW CHUAN SDN BHD'), () => 'development');
    expect(r.secondReceipt.everyPair.development).toEqual({ seller: { right: 6, total: 6 }, issue_date: { right: 0, total: 6 }, total: { right: 0, total: 6 } });
    expect(r.secondReceipt.byField.development.seller).toEqual({ right: 2, total: 2 });
    expect(r.secondReceipt.everyPair.heldOut.seller).toEqual({ right: 0, total: 0 });
  });

  it('reads the key and box files of the test set', () => {
    if (!existsSync(path.join(receiptsDir, 'vendors.tsv'))) {
      console.log(`SKIPPED: ${receiptsDir} is absent`);
      return;
    }
    const truths = readReceiptTruths(receiptsDir);
    expect(truths.length).toBe(90);
    expect(truths.every((t) => printedDateToIso(t.date) !== null && printedTotal(t.total) !== null)).toBe(true);
  });
});
