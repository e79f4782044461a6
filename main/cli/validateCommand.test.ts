import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { En16931Oracle, oracleAvailable } from '../../testing/en16931Oracle.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { validateCommand, type FileError, type FileVerdict } from './validateCommand.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-validate-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function streams() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => err.push(String(chunk)));
  return { stdout, stderr, out: () => out.join(''), err: () => err.join('') };
}

async function run(...args: string[]) {
  const io = streams();
  const code = await validateCommand(args, io.stdout, io.stderr);
  return { code, out: io.out(), err: io.err() };
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const UBL_NS = 'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

describe('recto validate', () => {
  it('reports the fatal rules of an incomplete UBL invoice, exits 1 and writes the JSON report', async () => {
    const file = write('bare.xml', `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice ${UBL_NS}><cbc:ID>42</cbc:ID></Invoice>\n`);
    const json = path.join(dir, 'report.json');
    const result = await run(file, '--json', json);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`${file}: INVALID (UBL-Invoice, no profile declared)`);
    expect(result.out).toMatch(/fatal +BR-01 /);
    const report = JSON.parse(fs.readFileSync(json, 'utf8')) as FileVerdict[];
    expect(report).toHaveLength(1);
    expect(report[0]).toMatchObject({ file, syntax: 'UBL-Invoice', profile: null, valid: false });
    const first = report[0]!.failed[0]!;
    expect(Object.keys(first).sort()).toEqual(expect.arrayContaining(['bt', 'flag', 'id', 'message']));
    expect(report[0]!.failed.map((f) => f.id)).toContain('BR-01');
    // Fatal first.
    const flags = report[0]!.failed.map((f) => f.flag);
    expect(flags).toEqual([...flags].sort((a, b) => (a === b ? 0 : a === 'fatal' ? -1 : 1)));
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('exits 2 naming each unreadable file and its reason, and still reports the others', async () => {
    const missing = path.join(dir, 'missing.xml');
    const text = write('notes.txt', 'just some notes, not an invoice');
    const malformed = write('broken.xml', '<?xml version="1.0"?>\n<Invoice><unclosed></Invoice>');
    const doctype = write('entities.xml', '<?xml version="1.0"?>\n<!DOCTYPE Invoice [<!ENTITY x "y">]>\n<Invoice>&x;</Invoice>');
    const fakePdf = write('fake.pdf', '%PDF-1.7\nthis is not really a PDF');
    const bare = write('bare2.xml', `<Invoice ${UBL_NS}/>`);
    const json = path.join(dir, 'mixed.json');
    const result = await run(missing, text, malformed, doctype, fakePdf, bare, '--json', json);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`${missing}: cannot be read: ENOENT`);
    expect(result.err).toContain(`${text}: cannot be read: neither an e-invoice XML nor a PDF`);
    expect(result.err).toMatch(new RegExp(`${malformed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot be read: .+`));
    expect(result.err).toMatch(/entities\.xml: cannot be read: .*DOCTYPE/i);
    // Attachments are listed from the bytes (pdfEmbeddedFiles.ts): a file that only looks like a PDF has none.
    expect(result.err).toMatch(/fake\.pdf: cannot be read: (not a readable PDF|the PDF has no embedded e-invoice)/);
    expect(result.out).toContain(`${bare}: INVALID`);
    const report = JSON.parse(fs.readFileSync(json, 'utf8')) as (FileVerdict | FileError)[];
    expect(report.map((r) => ('error' in r ? 'error' : 'verdict'))).toEqual(['error', 'error', 'error', 'error', 'error', 'verdict']);
  });

  it('never calls an invoice with characters XML 1.0 forbids valid: exit 2, the reason named (well-formedness layer)', async () => {
    const body = (note: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice ${UBL_NS}><cbc:ID>42</cbc:ID><cbc:Note>${note}</cbc:Note></Invoice>\n`;
    const nul = write('nul-reference.xml', body('a&#x0;b'));
    const control = write('raw-control.xml', body('a\u0001b'));
    const json = path.join(dir, 'characters.json');
    const result = await run(nul, control, '--json', json);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toContain(`${nul}: cannot be read: the XML is not well-formed: its character reference &#x0; names U+0000`);
    expect(result.err).toContain(`${control}: cannot be read: the XML is not well-formed: it contains the character U+0001`);
    const report = JSON.parse(fs.readFileSync(json, 'utf8')) as FileError[];
    expect(report.every((r) => 'error' in r)).toBe(true);
  });

  it('refuses to run without files or with an unknown option', async () => {
    expect((await run()).code).toBe(2);
    expect((await run('--bogus', 'x.xml')).code).toBe(2);
  });
});

const testdata = (...parts: string[]) => path.join(defaultTestdataRoot, ...parts);
const haveTestdata = oracleAvailable() && fs.existsSync(testdata('einvoices', 'pdfs'));
if (!haveTestdata) console.log('SKIPPED: ../shared/testdata (e-invoices, EN 16931 oracle) is absent: recto validate on real e-invoices');

describe.runIf(haveTestdata)('recto validate on real e-invoices: the official validator’s verdict', () => {
  let oracle: En16931Oracle;
  beforeAll(async () => {
    oracle = await En16931Oracle.load();
  }, 240_000);

  const files = [
    testdata('en16931', 'examples', 'ubl', 'ubl-tc434-example1.xml'),
    testdata('einvoices', 'xml', 'ubl', 'EN16931_Gutschrift.ubl.xml'),
    testdata('einvoice-corpus', 'xml', 'ubl', 'not_validating_full_invoice_based_onTest_EeISI_300_CENfullmodel.ubl.xml'),
    testdata('einvoice-corpus', 'xml', 'cii', 'EN16931_ElektronischeAdresse.cii.xml'),
  ];

  it('gives each XML the valid/invalid verdict and the fatal rules of the official XSLT', async () => {
    for (const file of files) {
      const json = path.join(dir, 'one.json');
      const result = await run(file, '--json', json);
      const expected = oracle.validate(fs.readFileSync(file, 'utf8'));
      const expectedFatal = [...new Set(expected.failed.filter((f) => f.flag === 'fatal').map((f) => f.id))].sort();
      expect(result.code, `${file}\n${result.out}${result.err}`).toBe(expectedFatal.length > 0 ? 1 : 0);
      const [verdict] = JSON.parse(fs.readFileSync(json, 'utf8')) as FileVerdict[];
      expect([...new Set(verdict!.failed.filter((f) => f.flag === 'fatal').map((f) => f.id))].sort()).toEqual(expectedFatal);
    }
  });

  it('validates the CII embedded in a Factur-X / ZUGFeRD PDF, and exits 2 for a PDF without one', async () => {
    const pdf = testdata('einvoices', 'pdfs', 'EN16931_Miete.pdf');
    const result = await run(pdf);
    expect(result.err).toBe('');
    expect(result.out).toMatch(/EN16931_Miete\.pdf: (valid|INVALID) \(CII/);
    const plain = await run(testdata('einvoices', 'pdfs', 'RE-E-974-Hetzner_2016-01-19_R0005532486.pdf'));
    expect(plain.code).toBe(2);
    expect(plain.err).toContain('the PDF has no embedded e-invoice');
  });
});

const zugferd1Pdfs = [
  testdata('einvoices', 'pdfs', 'acme_invoice-42_ZUGFeRD.pdf'),
  ...['BASIC_Rechnungskorrektur', 'COMFORT_Haftpflichtversicherung_Versicherungssteuer', 'COMFORT_Kraftfahrversicherung_Bruttopreise', 'COMFORT_Sachversicherung_berechneter_Steuersatz'].map((name) =>
    testdata('einvoice-corpus', 'pdfs', `correct-Intarsys__ZUGFeRD_1p0_${name}.pdf`),
  ),
];
const haveZugferd1 = zugferd1Pdfs.every((file) => fs.existsSync(file));
if (!haveZugferd1) console.log('SKIPPED: ../shared/testdata ZUGFeRD 1.0 PDFs are absent: recto validate on ZUGFeRD 1.0');

describe.runIf(haveZugferd1)('recto validate on real ZUGFeRD 1.0 PDFs: judged by ZUGFeRD 1.0’s rules, never EN 16931’s', () => {
  it('every one is valid, with no EN 16931 finding, and the report names the profile and the rule set', async () => {
    const json = path.join(dir, 'zugferd1.json');
    const result = await run(...zugferd1Pdfs, '--json', json);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(fs.readFileSync(json, 'utf8')) as FileVerdict[];
    for (const verdict of report) {
      expect(verdict, verdict.file).toMatchObject({ valid: true, failed: [], ruleSets: ['zugferd1'], profileName: expect.stringMatching(/^ZUGFeRD 1\.0 (BASIC|COMFORT)$/) });
    }
    expect(result.out).toContain('rules: zugferd1');
  });

  it('with --rules en16931 the EN 16931 rules are applied as asked (and fail on ZUGFeRD 1.0’s paths)', async () => {
    const result = await run('--rules', 'en16931', zugferd1Pdfs[1]!);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/fatal +BR-/);
  });
});

describe('recto validate: layers and rule sets in the report', () => {
  it('tags every finding with its layer, a malformed file with layer xml, and refuses unknown --rules', async () => {
    const bare = write('layered.xml', `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice ${UBL_NS}><cbc:ID>42</cbc:ID></Invoice>\n`);
    const broken = write('layered-broken.xml', '<?xml version="1.0"?>\n<Invoice><unclosed></Invoice>');
    const json = path.join(dir, 'layers.json');
    expect((await run(bare, broken, '--json', json)).code).toBe(2);
    const [verdict, error] = JSON.parse(fs.readFileSync(json, 'utf8')) as [FileVerdict, FileError];
    expect(verdict.ruleSets).toEqual(['en16931', 'en16931-syntax']);
    expect(verdict.layersChecked).toEqual(['xml', 'schema', 'rules']);
    expect(verdict.profileName).toBe('no profile declared');
    // A bare <Invoice> lacks what the UBL 2.1 XSD requires (parties, totals, a line) and what the rules require.
    expect(verdict.failed.some((f) => f.layer === 'schema' && f.id === 'XSD')).toBe(true);
    expect(verdict.failed.some((f) => f.layer === 'rules' && f.id.startsWith('BR-'))).toBe(true);
    expect(verdict.failed.every((f) => (f.layer === 'schema') === (f.id === 'XSD'))).toBe(true);
    expect(error).toMatchObject({ file: broken, layer: 'xml' });
    const xrechnung = await run('--rules', 'xrechnung', bare);
    expect(xrechnung.code).toBe(1);
    expect(xrechnung.out).toContain('rules: en16931, en16931-syntax, xrechnung');
    expect(xrechnung.out).toMatch(/fatal +BR-DE-1 /);
    const peppol = await run('--rules', 'peppol', bare);
    expect(peppol.code).toBe(2);
    expect(peppol.err).toContain('the rule sets are en16931 and xrechnung');
  });
});

