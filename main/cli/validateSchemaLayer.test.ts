/**
 * The schema layer of `recto validate` (issue 36): between well-formedness and the rules, each CII is checked against
 * the XSD of the Factur-X level it declares, a UBL one against the UBL 2.1 Invoice or CreditNote XSD, a ZUGFeRD 1.0
 * one against its own; a schema error is fatal (exit 1) with its XML line, and the rules still run and are reported
 * beside it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { schemaFile } from '../import/einvoiceSchemaCheck.js';
import { readEmbeddedEInvoice } from '../import/pdfAttachments.js';
import { validateCommand, type FileVerdict } from './validateCommand.js';
import { facturXMinimum } from '../../testing/facturXMinimum.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-validate-schema-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(...args: string[]): Promise<{ code: number; out: string; report: FileVerdict[] }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => out.push(String(chunk)));
  const json = path.join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const code = await validateCommand([...args, '--json', json], stdout, stderr);
  return { code, out: out.join(''), report: JSON.parse(fs.readFileSync(json, 'utf8')) as FileVerdict[] };
}

function write(name: string, content: string | Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** A Factur-X MINIMUM invoice; `extra` is inserted before the document's TypeCode, on line 5 (testing/facturXMinimum.ts). */
const minimum = facturXMinimum;

/**
 * A small UBL invoice (or credit note) in the UBL 2.1 XSD's order, with the parties, totals and one line the XSD
 * requires; `extra` goes on its own line (4) after IssueDate.
 */
const ubl = (extra: string, root: 'Invoice' | 'CreditNote' = 'Invoice'): string => `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID><cbc:ID>42</cbc:ID><cbc:IssueDate>2024-01-31</cbc:IssueDate>
${extra}<cbc:${root}TypeCode>${root === 'Invoice' ? 380 : 381}</cbc:${root}TypeCode><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>Seller GmbH</cbc:Name></cac:PartyName></cac:Party></cac:AccountingSupplierParty>
<cac:AccountingCustomerParty><cac:Party><cac:PartyName><cbc:Name>Buyer AG</cbc:Name></cac:PartyName></cac:Party></cac:AccountingCustomerParty>
<cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="EUR">119.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
<cac:${root}Line><cbc:ID>1</cbc:ID><cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Service</cbc:Name></cac:Item></cac:${root}Line>
</${root}>
`;

describe('recto validate: the schema layer', () => {
  it('checks a CII against the XSD of the level it declares: valid as MINIMUM, and the same header as EN 16931 lacks its lines', async () => {
    const asMinimum = write('minimum.xml', minimum());
    const asEn16931 = write('en16931.xml', minimum({ guideline: 'urn:cen.eu:en16931:2017' }));
    const { code, report, out } = await run(asMinimum, asEn16931);
    expect(code).toBe(1);
    expect(report[0]).toMatchObject({ valid: true, layersChecked: ['xml', 'schema', 'rules'], schema: { checked: true, schema: 'Factur-X 1.07.3 MINIMUM XSD (CII D16B)', valid: true } });
    expect(out).toContain('schema: Factur-X 1.07.3 MINIMUM XSD (CII D16B): valid');
    expect(report[1]).toMatchObject({ valid: false, schema: { checked: true, schema: 'Factur-X 1.07.3 EN16931 XSD (CII D16B)', valid: false } });
    const schemaFinding = report[1]!.failed[0]!;
    expect(schemaFinding).toMatchObject({ id: 'XSD', flag: 'fatal', layer: 'schema', xmlLine: 7 });
    expect(schemaFinding.message).toContain('IncludedSupplyChainTradeLineItem');
  });

  it('an unknown element is a fatal schema finding on its line (exit 1), and the rules still run and are reported beside it', async () => {
    const file = write('unknown-element.xml', minimum({ extra: '<ram:Surprise>x</ram:Surprise>', grandTotal: '120.00' }));
    const { code, report, out } = await run(file);
    expect(code).toBe(1);
    const [verdict] = report;
    expect(verdict!.valid).toBe(false);
    expect(verdict!.layersChecked).toEqual(['xml', 'schema', 'rules']);
    expect(verdict!.failed[0]).toMatchObject({ id: 'XSD', layer: 'schema', xmlLine: 5 });
    expect(verdict!.failed[0]!.message).toMatch(/Surprise.*not expected/);
    // BR-CO-15: the grand total is no longer the sum of net and VAT: the rule layer's verdict beside the schema's.
    expect(verdict!.failed.filter((f) => f.layer === 'rules').map((f) => f.id)).toContain('BR-CO-15');
    expect(out).toMatch(/fatal +XSD +\[XML line 5\] Element 'ram:Surprise'/);
  });

  it('a schema-invalid file whose rules all hold is still never valid', async () => {
    const file = write('only-schema.xml', minimum({ extra: '<ram:Surprise>x</ram:Surprise>' }));
    const { code, report } = await run(file);
    expect(code).toBe(1);
    expect(report[0]!.failed.filter((f) => f.layer === 'rules' && f.flag === 'fatal')).toEqual([]);
    expect(report[0]!.valid).toBe(false);
  });

  it('reads the encoding the XML declares (ISO-8859-1 natively, windows-1252 decoded), lines unchanged', async () => {
    const latin1 = write('latin1.xml', Buffer.from(minimum({ encoding: 'ISO-8859-1', seller: 'Société Générale' }), 'latin1'));
    const cp1252 = write('cp1252.xml', Buffer.from(minimum({ encoding: 'windows-1252', seller: 'Müller GmbH', extra: '<ram:Surprise/>' }), 'latin1'));
    const { report } = await run(latin1, cp1252);
    expect(report[0]).toMatchObject({ valid: true, schema: { checked: true, valid: true } });
    expect(report[1]!.failed[0]).toMatchObject({ layer: 'schema', xmlLine: 5 });
  });

  it('bounds a file full of schema errors: 50 findings kept, the verdict given (6 MB, 200,000 unknown elements)', async () => {
    const many = '<ram:Surprise>x</ram:Surprise>'.repeat(200_000);
    const file = write('many-errors.xml', minimum({ extra: many }));
    expect(fs.statSync(file).size).toBeGreaterThan(5 * 1024 * 1024);
    const { code, report } = await run(file);
    expect(code).toBe(1);
    expect(report[0]!.schema).toMatchObject({ checked: true, valid: false });
    expect(report[0]!.failed.filter((f) => f.layer === 'schema').length).toBeLessThanOrEqual(50);
    expect(report[0]!.failed[0]).toMatchObject({ layer: 'schema', xmlLine: 5 });
  }, 120_000);

  it('UBL: an unknown element is a fatal schema finding against the UBL 2.1 XSD (exit 1), the rules reported beside it', async () => {
    const file = write('ubl-unknown.xml', ubl('<cbc:Unknown>x</cbc:Unknown>'));
    const { code, report, out } = await run(file);
    expect(code).toBe(1);
    const [verdict] = report;
    expect(verdict).toMatchObject({ valid: false, layersChecked: ['xml', 'schema', 'rules'], schema: { checked: true, schema: 'UBL 2.1 Invoice XSD', valid: false } });
    expect(verdict!.failed[0]).toMatchObject({ id: 'XSD', flag: 'fatal', layer: 'schema', xmlLine: 4 });
    expect(verdict!.failed[0]!.message).toMatch(/^Element 'cbc:Unknown': This element is not expected/);
    expect(verdict!.failed.filter((f) => f.layer === 'rules').length).toBeGreaterThan(0);
    expect(out).toContain('schema: UBL 2.1 Invoice XSD: INVALID');
  });

  it("UBL: the issue's three bad invoices — an unknown element (exit 1, schema), &#x0; and a raw U+0001 (exit 2, not well-formed) — none valid", async () => {
    const unknown = write('three-unknown.xml', ubl('<cbc:Unknown/>'));
    const nul = write('three-nul.xml', ubl('<cbc:Note>a&#x0;b</cbc:Note>'));
    const control = write('three-control.xml', ubl('<cbc:Note>a\u0001b</cbc:Note>'));
    expect((await run(unknown)).code).toBe(1);
    for (const file of [nul, control]) {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const err: string[] = [];
      stderr.on('data', (chunk) => err.push(String(chunk)));
      expect(await validateCommand([file], stdout, stderr)).toBe(2);
      expect(err.join('')).toContain(`${file}: cannot be read: the XML is not well-formed`);
    }
  });

  it('UBL: the same invoice without the unknown element passes the XSD; a credit note is checked against the CreditNote XSD', async () => {
    const invoice = write('ubl-valid.xml', ubl(''));
    const creditNote = write('ubl-credit-note.xml', ubl('', 'CreditNote'));
    // UBL 2.1's CreditNote has no DueDate (EN 16931 carries BT-9 in its PaymentMeans): the CreditNote XSD says so.
    const withDueDate = write('ubl-credit-note-due.xml', ubl('<cbc:DueDate>2024-02-29</cbc:DueDate>', 'CreditNote'));
    const { report } = await run(invoice, creditNote, withDueDate);
    expect(report[0]!.schema).toEqual({ checked: true, schema: 'UBL 2.1 Invoice XSD', valid: true });
    expect(report[1]!.schema).toEqual({ checked: true, schema: 'UBL 2.1 CreditNote XSD', valid: true });
    expect(report[2]!.schema).toEqual({ checked: true, schema: 'UBL 2.1 CreditNote XSD', valid: false });
    expect(report[2]!.failed[0]).toMatchObject({ layer: 'schema', xmlLine: 4 });
    expect(report[2]!.failed[0]!.message).toMatch(/^Element 'cbc:DueDate': This element is not expected/);
  });

  it('UBL with 16,000 empty lines (48,000 schema errors): the verdict given, 50 findings kept, the rules beside them', async () => {
    const lines = '<cac:InvoiceLine></cac:InvoiceLine>\n'.repeat(16_000);
    const file = write('ubl-empty-lines.xml', ubl('').replace(/<cac:InvoiceLine>.*<\/cac:InvoiceLine>\n/, lines));
    const { code, report } = await run(file);
    expect(code).toBe(1);
    expect(report[0]!.schema).toEqual({ checked: true, schema: 'UBL 2.1 Invoice XSD', valid: false });
    const schemaFindings = report[0]!.failed.filter((f) => f.layer === 'schema');
    expect(schemaFindings.length).toBe(50);
    expect(schemaFindings[0]).toMatchObject({ xmlLine: 8 });
    expect(schemaFindings[0]!.message).toContain("Element 'cac:InvoiceLine': Missing child element(s)");
    expect(report[0]!.failed.some((f) => f.layer === 'rules')).toBe(true);
  }, 120_000);

  it('an xsi:schemaLocation in the document is not followed: the schema comes from Recto, nothing else is read', async () => {
    const file = write('ubl-schema-location.xml', ubl('<cbc:Unknown/>').replace('<Invoice ', '<Invoice xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2 /etc/passwd" '));
    const { report } = await run(file);
    expect(report[0]!.schema).toEqual({ checked: true, schema: 'UBL 2.1 Invoice XSD', valid: false });
  });
});

describe('schema URLs: only .xsd files inside the schema folders are read', () => {
  const folders = { 'ubl-2.1': '/schemas/ubl-2.1' };
  it('resolves a schema and its relative imports, and refuses any other name', () => {
    expect(schemaFile('recto-schema:/ubl-2.1/common/UBL-CommonBasicComponents-2.1.xsd', folders)).toBe('/schemas/ubl-2.1/common/UBL-CommonBasicComponents-2.1.xsd');
    for (const url of ['recto-schema:/ubl-2.1/../../etc/passwd.xsd', 'recto-schema:/ubl-2.1/common/notes.txt', 'recto-schema:/other/x.xsd', 'file:///etc/x.xsd', 'http://docs.oasis-open.org/x.xsd', '/schemas/ubl-2.1/common/x.xsd', 'recto-schema:/ubl-2.1']) {
      expect(schemaFile(url, folders), url).toBeNull();
    }
  });
});

const testdata = defaultTestdataRoot;
const ciiFolders = ['einvoices/xml/cii', 'einvoice-corpus/xml/cii', 'xrechnung/technical-cases/cius', 'xrechnung/technical-cases/cvd'];
const haveTestdata = ciiFolders.every((folder) => fs.existsSync(path.join(testdata, folder)));
if (!haveTestdata) console.log(`validateSchemaLayer.test: skipping the testdata CII files: ${ciiFolders.join(', ')} not all under ${testdata}`);

describe.skipIf(!haveTestdata)('recto validate: the schema layer on every testdata CII XML', () => {
  it('every standalone CII (EN 16931, XRechnung 3.0 technical cases with the extension) passes the XSD of its level', async () => {
    const files = ciiFolders.flatMap((folder) =>
      fs
        .readdirSync(path.join(testdata, folder))
        .filter((name) => name.endsWith('.xml') && (folder.startsWith('xrechnung') ? name.includes('uncefact') : true))
        .map((name) => path.join(testdata, folder, name)),
    );
    expect(files.length).toBeGreaterThanOrEqual(20);
    const { report } = await run(...files);
    const failing = report.filter((v) => !v.schema.checked || !v.schema.valid).map((v) => `${path.basename(v.file)}: ${JSON.stringify(v.schema)}`);
    expect(failing).toEqual([]);
  }, 120_000);
});

const ublFolders = ['einvoices/xml/ubl', 'einvoice-corpus/xml/ubl', 'en16931/examples/ubl', 'xrechnung/technical-cases/cius', 'xrechnung/technical-cases/cvd'];
const zugferd1Pdfs = fs.existsSync(path.join(testdata, 'einvoice-corpus/pdfs'))
  ? fs
      .readdirSync(path.join(testdata, 'einvoice-corpus/pdfs'))
      .filter((name) => /ZUGFeRD_1p0/.test(name))
      .map((name) => path.join(testdata, 'einvoice-corpus/pdfs', name))
  : [];
const haveUbl = ublFolders.every((folder) => fs.existsSync(path.join(testdata, folder)));
if (!haveUbl) console.log(`validateSchemaLayer.test: skipping the testdata UBL files: ${ublFolders.join(', ')} not all under ${testdata}`);
if (zugferd1Pdfs.length === 0) console.log(`validateSchemaLayer.test: skipping the ZUGFeRD 1.0 PDFs: none under ${path.join(testdata, 'einvoice-corpus/pdfs')}`);

describe.skipIf(!haveUbl)('recto validate: the schema layer on every testdata UBL XML', () => {
  it('every UBL invoice and credit note (EN 16931 examples, XRechnung 3.0 technical cases, corpus) passes the UBL 2.1 XSD', async () => {
    const files = ublFolders.flatMap((folder) =>
      fs
        .readdirSync(path.join(testdata, folder))
        .filter((name) => name.endsWith('.xml'))
        .map((name) => path.join(testdata, folder, name))
        .filter((file) => /<(?:\w+:)?(?:Invoice|CreditNote)\b[^>]*urn:oasis:names:specification:ubl/.test(fs.readFileSync(file, 'utf8').slice(0, 4096))),
    );
    expect(files.length).toBeGreaterThanOrEqual(30);
    const { report } = await run(...files);
    expect(report.filter((v) => v.schema.schema === 'UBL 2.1 CreditNote XSD').length).toBeGreaterThan(0);
    const failing = report.filter((v) => !v.schema.checked || !v.schema.valid || !v.schema.schema.startsWith('UBL 2.1')).map((v) => `${path.basename(v.file)}: ${JSON.stringify(v.schema)}`);
    expect(failing).toEqual([]);
  }, 120_000);
});

describe.skipIf(zugferd1Pdfs.length === 0)('recto validate: the schema layer on the ZUGFeRD 1.0 PDFs', () => {
  it('each embedded ZUGFeRD 1.0 XML passes the ZUGFeRD 1.0 XSD; a mutant with an element out of order does not (exit 1)', async () => {
    const { report } = await run(...zugferd1Pdfs);
    expect(report.map((v) => v.schema)).toEqual(zugferd1Pdfs.map(() => ({ checked: true, schema: 'ZUGFeRD 1.0 XSD', valid: true })));
    const embedded = await readEmbeddedEInvoice(fs.readFileSync(zugferd1Pdfs[0]!));
    if (embedded.status !== 'read') throw new Error(`${zugferd1Pdfs[0]}: ${JSON.stringify(embedded)}`);
    const xml = new TextDecoder().decode(embedded.bytes);
    // The document's ID moved after its Name: the XSD's sequence is ID, Name, TypeCode, so the ID is out of place.
    const mutant = xml.replace(/(<(\w+):ID>[^<]*<\/\2:ID>)(\s*)(<\2:Name>[^<]*<\/\2:Name>)/, '$4$3$1');
    expect(mutant).not.toBe(xml);
    const file = write('zugferd1-mutant.xml', mutant);
    const result = await run(file);
    expect(result.code).toBe(1);
    expect(result.report[0]!.schema).toEqual({ checked: true, schema: 'ZUGFeRD 1.0 XSD', valid: false });
    expect(result.report[0]!.failed[0]).toMatchObject({ id: 'XSD', layer: 'schema' });
    expect(result.report[0]!.failed[0]!.message).toMatch(/^Element 'ram:ID': This element is not expected\. Expected is one of \( ram:Name, ram:TypeCode/);
  }, 120_000);
});
