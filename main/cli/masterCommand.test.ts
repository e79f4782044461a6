import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { masterCommand } from './masterCommand.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-master-cli-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const code = await masterCommand(args, stdout, stderr);
  return { code, out, err };
}

describe('recto master', () => {
  it('imports into a new project, reports per file and set; a bad file is refused with exit 1 naming file and line', async () => {
    const project = path.join(dir, 'p.recto');
    const po = path.join(dir, 'PO.csv');
    fs.writeFileSync(po, 'po_number;supplier_name;supplier_vat_id;line;description;item_id;quantity;unit;unit_price;currency;order_date\nP1;ACME GmbH;;1;Widget;;3;pc;2,50;EUR;\n');
    const ok = await run(['import', project, '--purchase-orders', po]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('PO.csv: 1 row(s), decimal comma (detected)');
    expect(ok.out).toContain('purchase orders: 1 added, 0 changed, 0 removed, 0 unchanged');
    const gr = path.join(dir, 'GR.csv');
    fs.writeFileSync(gr, 'po_number,line,quantity_received,received_on\nP1,2,1,2026-01-01\n');
    const bad = await run(['import', project, '--goods-receipts', gr]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('refused, nothing imported: GR.csv, line 2: PO P1 has no line 2');
    expect((await run(['import', project])).code).toBe(2);
    expect((await run(['import', project, '--purchase-orders', po, '--decimal', 'dot'])).code).toBe(2);
  });

  it('prints and sets the tolerances, the defaults and a supplier\'s own', async () => {
    const project = path.join(dir, 'p.recto');
    const po = path.join(dir, 'PO.csv');
    fs.writeFileSync(po, 'po_number,supplier_name,supplier_vat_id,line,description,item_id,quantity,unit,unit_price,currency,order_date\nP1,ACME GmbH,,1,Widget,,3,pc,2.5,EUR,\n');
    await run(['import', project, '--purchase-orders', po]);
    const set = await run(['tolerances', project, '--price-relative', '0.01']);
    expect(JSON.parse(set.out).defaults.priceRelative).toBe(0.01);
    const own = await run(['tolerances', project, '--supplier', 'DE 123 456 789', '--price-absolute', '1']);
    expect(JSON.parse(own.out).bySupplier).toEqual({ DE123456789: { priceAbsolute: 1 } });
    const byName = await run(['tolerances', project, '--supplier', 'ACME GmbH', '--quantity-over', '2']);
    expect(JSON.parse(byName.out).bySupplier.acme).toEqual({ quantityOver: 2 });
    expect((await run(['tolerances', project, '--price-relative', '-1'])).code).toBe(2);
  });
});
