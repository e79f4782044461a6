/**
 * The schema layer of `recto validate` (issue 36): between well-formedness and the rules, each CII is checked against
 * the XSD of the Factur-X level it declares; a schema error is fatal (exit 1) with its XML line, and the rules still
 * run and are reported beside it; a syntax without an available XSD is reported as not checked, never as passed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { validateCommand, type FileVerdict } from './validateCommand.js';

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

/** A Factur-X MINIMUM invoice as its XSD lays it out; `extra` is inserted before the document's TypeCode. */
const minimum = ({ guideline = 'urn:factur-x.eu:1p0:minimum', extra = '', seller = 'Seller SARL', grandTotal = '119.00', encoding = 'UTF-8' } = {}): string => `<?xml version="1.0" encoding="${encoding}"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${guideline}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>INV-1</ram:ID>
${extra}<ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20240131</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
<ram:ApplicableHeaderTradeAgreement>
<ram:SellerTradeParty><ram:Name>${seller}</ram:Name><ram:PostalTradeAddress><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">FR11123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
<ram:BuyerTradeParty><ram:Name>Buyer SA</ram:Name></ram:BuyerTradeParty>
</ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:TaxBasisTotalAmount>100.00</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">19.00</ram:TaxTotalAmount><ram:GrandTotalAmount>${grandTotal}</ram:GrandTotalAmount><ram:DuePayableAmount>119.00</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>
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

  it('says the schema was not checked where no XSD is available (UBL 2.1), never that it passed', async () => {
    const ubl = write(
      'ubl.xml',
      `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>42</cbc:ID><cbc:Unknown/></Invoice>\n`,
    );
    const { report, out } = await run(ubl);
    expect(report[0]!.layersChecked).toEqual(['xml', 'rules']);
    expect(report[0]!.schema).toMatchObject({ checked: false, schema: 'UBL 2.1 Invoice XSD' });
    expect(out).toContain('schema: not checked (the UBL 2.1 XSDs are not available to Recto');
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
