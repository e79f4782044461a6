/**
 * `recto ocr` on e-invoices as a user runs it: a ZUGFeRD PDF whose XML disagrees with its page (flagged on total and
 * number), one whose XML matches its page (clean), a standalone UBL file (a generated page read back to the XML's
 * values), a PDF whose attached XML is hostile (refused, the page still read), and `--fields-from page`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../util/packageRoot.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';

const root = packageRoot();
const einvoices = path.join(defaultTestdataRoot, 'einvoices');
const haveEinvoices = fs.existsSync(path.join(einvoices, 'truth.json'));
if (!haveEinvoices) console.log(`SKIPPED: recto ocr on e-invoices: ${einvoices} is absent`);

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-einvoice-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

function recto(...args: string[]) {
  return spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(root, 'main', 'cli', 'recto.ts'), ...args], {
    cwd: home,
    encoding: 'utf8',
    env: { ...process.env, RECTO_HOME: home },
    timeout: 240_000,
  });
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown> & { page_vs_xml?: { field: string; page: string; xml: string }[] };

describe.skipIf(!haveEinvoices)('recto ocr on e-invoices', () => {
  it('takes the XML, flags where the page disagrees, reads XML-only invoices, and survives hostile XML', { timeout: 300_000 }, () => {
    const acme = path.join(einvoices, 'pdfs', 'acme_invoice-42_ZUGFeRD.pdf');
    const matching = path.join(einvoices, 'pdfs', 'EN16931_Miete.pdf');
    const ubl = path.join(einvoices, 'xml', 'ubl', 'EN16931_Rabatte.ubl.xml');
    const hostile = path.join(home, 'hostile.xml');
    fs.writeFileSync(hostile, '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Invoice>&e;</Invoice>');
    const out = path.join(home, 'out');
    const result = recto('ocr', acme, matching, ubl, hostile, '--out', out);
    expect(result.status, result.stderr).toBe(1); // the hostile file is refused, by name and reason
    expect(result.stderr).toMatch(/hostile\.xml: .*DOCTYPE or entities/);

    const mismatch = readJson(path.join(out, 'acme_invoice-42_ZUGFeRD.fields.json'));
    expect(mismatch.source).toBe('e-invoice');
    expect(mismatch.total).toBe(119);
    const flagged = new Map(mismatch.page_vs_xml!.map((d) => [d.field, d]));
    expect(flagged.get('total')).toMatchObject({ page: expect.stringContaining('1.589,80'), xml: '119' });
    expect(flagged.get('invoice_number')).toMatchObject({ page: '42', xml: '20131122-42' });

    const clean = readJson(path.join(out, 'EN16931_Miete.fields.json'));
    expect(clean.source).toBe('e-invoice');
    expect(clean.page_vs_xml).toEqual([]);

    const xmlOnly = readJson(path.join(out, 'EN16931_Rabatte.ubl.fields.json'));
    expect(xmlOnly).toMatchObject({ source: 'e-invoice', invoice_number: '471102', total: 215.07, page_vs_xml: [] });
    const page = fs.readFileSync(path.join(out, 'EN16931_Rabatte.ubl_pg1.md'), 'utf8');
    expect(page).toContain('Lieferant GmbH');
    expect(page).toContain('215.07');

    const forced = recto('ocr', acme, '--out', path.join(home, 'out-page'), '--fields-from', 'page');
    expect(forced.status, forced.stderr).toBe(0);
    const fromPage = readJson(path.join(home, 'out-page', 'acme_invoice-42_ZUGFeRD.fields.json'));
    expect(fromPage).toMatchObject({ source: 'page', total: 1589.8, invoice_number: '42' });
    expect(fromPage.page_vs_xml!.map((d) => d.field)).toEqual(expect.arrayContaining(['total', 'invoice_number']));
  });
});
