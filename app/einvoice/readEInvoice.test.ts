import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EInvoiceError, MAX_EINVOICE_BYTES, einvoicePlainFields, einvoiceReading, explainEInvoicePick, pickEInvoiceAttachment, readEInvoice } from './index.js';
import { invoiceReadingSchema } from '../invoice/fieldShape.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const xmlDir = path.resolve(repoRoot, '..', 'shared', 'testdata', 'einvoices', 'xml');
const haveXml = existsSync(xmlDir);
if (!haveXml) console.log(`SKIPPED: e-invoice reader on the standalone CII/UBL files: ${xmlDir} is absent`);

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const refusal = (input: Uint8Array): EInvoiceError => {
  try {
    readEInvoice(input, 'hostile.xml');
  } catch (error) {
    if (error instanceof EInvoiceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

const minimalCii = (id: string, extra = ''): string => `<?xml version="1.0" encoding="UTF-8"?>${extra}
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocument><ram:ID>${id}</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20240131</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:GrandTotalAmount>10.00</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;

describe('readEInvoice on hand-made input', () => {
  it('reads a minimal CII invoice, with the entities XML predefines decoded', () => {
    const invoice = readEInvoice(bytes(minimalCii('A&amp;B-1')), 'x.xml');
    expect(invoice.fields.invoice_number?.value).toBe('A&B-1');
    expect(invoice.fields.issue_date?.value).toBe('2024-01-31');
    expect(invoice.fields.total?.value).toBe(10);
    expect(invoice.info).toMatchObject({ syntax: 'CII', flavour: 'CII CrossIndustryInvoice', fileName: 'x.xml', typeCode: '380' });
  });

  it('refuses entity expansion (billion laughs) before expanding anything', () => {
    const lol = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>`;
    const error = refusal(bytes(minimalCii('&lol9;', lol)));
    expect(error.code).toBe('doctype');
    expect(error.message).toMatch(/DOCTYPE or entities/);
  });

  it('refuses an external entity (a file read through the XML)', () => {
    const error = refusal(bytes(minimalCii('&xxe;', '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>')));
    expect(error.code).toBe('doctype');
  });

  it('refuses a parameter entity and a bare DOCTYPE alike', () => {
    expect(refusal(bytes(minimalCii('1', '<!DOCTYPE r SYSTEM "http://example.invalid/x.dtd">'))).code).toBe('doctype');
    expect(refusal(bytes(minimalCii('1', '<!doctype r [<!ENTITY % p SYSTEM "x">%p;]>'))).code).toBe('doctype');
  });

  it('refuses 50 MB without reading it', () => {
    const huge = new Uint8Array(50 * 1024 * 1024).fill(0x20);
    huge.set(bytes('<?xml version="1.0"?><Invoice>'));
    const error = refusal(huge);
    expect(error.code).toBe('too-large');
    expect(error.message).toMatch(/50\.0 MB.*over 10 MB/);
    expect(MAX_EINVOICE_BYTES).toBe(10 * 1024 * 1024);
  });

  it('names malformed XML with line and column', () => {
    const error = refusal(bytes(minimalCii('1').replace('</ram:ID>', '</ram:Id>')));
    expect(error.code).toBe('malformed');
    expect(error.message).toMatch(/not well-formed.*line \d+/);
  });

  it('refuses XML that is not an invoice, and an invoice root without content', () => {
    expect(refusal(bytes('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>')).code).toBe('not-an-invoice');
    expect(refusal(bytes('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><Note>x</Note></Invoice>')).code).toBe('not-an-invoice');
    expect(refusal(bytes('<Invoice xmlns="urn:example:not-ubl"><ID>1</ID></Invoice>')).code).toBe('not-an-invoice');
    expect(refusal(bytes('')).code).toBe('malformed');
  });

  it('reads UTF-8 with a byte-order mark and ISO-8859-1 as declared', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(minimalCii('BOM-1'))]);
    expect(readEInvoice(bom).fields.invoice_number?.value).toBe('BOM-1');
    const latin1 = minimalCii('Müller-1').replace('UTF-8', 'ISO-8859-1');
    const encoded = Uint8Array.from([...latin1].map((c) => c.charCodeAt(0)));
    expect(readEInvoice(encoded).fields.invoice_number?.value).toBe('Müller-1');
  });

  it('never picks by position: relationship, then specified name, then root; decoys listed first lose', () => {
    const xml = bytes(minimalCii('1'));
    const other = bytes('<?xml version="1.0"?><Order/>');
    // A real factur-x.xml whose root lies past the sniffed head (long comments) still beats look-alikes with a root.
    const longHead = bytes(`<?xml version="1.0"?>\n<!--${'x'.repeat(5000)}-->\n${minimalCii('2').replace(/^<\?xml[^>]*>/, '')}`);
    const decoys = [
      { filename: 'invoice.xml', content: xml },
      { filename: 'factur-x-1.xml', content: xml, relationship: 'Supplement' },
      { filename: 'metadata.xml', content: other, relationship: 'Alternative' },
      { filename: 'factur-x.xml.bak', content: xml, relationship: 'Unspecified' },
    ];
    expect(pickEInvoiceAttachment([...decoys, { filename: 'factur-x.xml', content: longHead, relationship: 'Data' }])?.filename).toBe('factur-x.xml');
    expect(pickEInvoiceAttachment([...decoys, { filename: 'ZUGFeRD-invoice.xml', content: longHead }])?.filename).toBe('ZUGFeRD-invoice.xml');
    // Two e-invoices: the one the PDF marks Alternative stands for the document.
    expect(pickEInvoiceAttachment([{ filename: 'factur-x.xml', content: xml, relationship: 'Data' }, { filename: 'xrechnung.xml', content: xml, relationship: 'Alternative' }])?.filename).toBe('xrechnung.xml');
    // Otherwise equal: the newer syntax (ZUGFeRD 1.0's CrossIndustryDocument listed first loses).
    const zugferd1 = bytes('<?xml version="1.0"?>\n<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>');
    expect(pickEInvoiceAttachment([{ filename: 'ZUGFeRD-invoice.xml', content: zugferd1, relationship: 'Data' }, { filename: 'factur-x.xml', content: xml, relationship: 'Data' }])?.filename).toBe('factur-x.xml');
    // Equal ranks: the first listed.
    expect(pickEInvoiceAttachment([{ filename: 'a.xml', content: xml }, { filename: 'b.xml', content: xml }])?.filename).toBe('a.xml');
  });

  it('says which attachment it picked and why, where a PDF carries several e-invoices', () => {
    const xml = bytes(minimalCii('1'));
    const zugferd1 = bytes('<?xml version="1.0"?>\n<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>');
    const other = bytes('<?xml version="1.0"?><Order/>');
    expect(explainEInvoicePick([{ filename: 'notes.xml', content: other }, { filename: 'factur-x.xml', content: xml, relationship: 'Data' }])).toMatchObject({
      picked: { filename: 'factur-x.xml' },
      candidates: 1,
      reason: 'the only e-invoice attachment',
    });
    const alternative = explainEInvoicePick([{ filename: 'factur-x.xml', content: xml, relationship: 'Data' }, { filename: 'xrechnung.xml', content: xml, relationship: 'Alternative' }]);
    expect(alternative).toMatchObject({ picked: { filename: 'xrechnung.xml' }, candidates: 2 });
    expect(alternative!.reason).toMatch(/^its \/AFRelationship is \/Alternative \(1 other e-invoice attachment/);
    const newer = explainEInvoicePick([{ filename: 'ZUGFeRD-invoice.xml', content: zugferd1, relationship: 'Data' }, { filename: 'factur-x.xml', content: xml, relationship: 'Data' }]);
    expect(newer).toMatchObject({ picked: { filename: 'factur-x.xml' }, candidates: 2 });
    expect(newer!.reason).toMatch(/^it is the newer syntax/);
    expect(explainEInvoicePick([{ filename: 'invoice.xml', content: xml }, { filename: 'zugferd-invoice.xml', content: xml }])!.reason).toMatch(/^its name is one the e-invoice specifications give/);
    expect(explainEInvoicePick([{ filename: 'a.xml', content: xml }, { filename: 'b.xml', content: xml }])).toMatchObject({ picked: { filename: 'a.xml' }, reason: 'listed first of 2 equally ranked e-invoice attachments' });
    expect(explainEInvoicePick([{ filename: 'notes.xml', content: other }])).toBeNull();
  });

  it('picks the attachment by its specified name, then by AF relationship, then by an e-invoice root', () => {
    const xml = bytes(minimalCii('1'));
    const other = bytes('<?xml version="1.0"?><note/>');
    expect(pickEInvoiceAttachment([{ filename: 'logo.xml', content: other }, { filename: 'ZUGFeRD-invoice.xml', content: xml }])?.filename).toBe('ZUGFeRD-invoice.xml');
    expect(pickEInvoiceAttachment([{ filename: 'data.bin', content: xml, relationship: 'Alternative' }])?.filename).toBe('data.bin');
    expect(pickEInvoiceAttachment([{ filename: 'order.xml', content: other }, { filename: 'rechnung.xml', content: xml }])?.filename).toBe('rechnung.xml');
    expect(pickEInvoiceAttachment([{ filename: 'order.xml', content: other }])).toBeNull();
  });
});

describe.skipIf(!haveXml)('readEInvoice on every standalone CII and UBL file', () => {
  const files = haveXml ? ['cii', 'ubl'].flatMap((d) => readdirSync(path.join(xmlDir, d)).map((f) => path.join(xmlDir, d, f))) : [];

  it.each(files)('%s reads into a consistent invoice', (file) => {
    const invoice = readEInvoice(new Uint8Array(readFileSync(file)), path.basename(file));
    expect(invoice.info.syntax).toBe(file.includes('/cii/') ? 'CII' : 'UBL');
    expect(invoice.info.profile).not.toBeNull();
    const f = invoice.fields;
    for (const key of ['invoice_number', 'issue_date', 'seller', 'buyer', 'currency', 'subtotal', 'tax', 'total'] as const) expect(f[key], key).not.toBeNull();
    expect(f.subtotal!.value + f.tax!.value).toBeCloseTo(f.total!.value, 2);
    expect(invoice.lines.length).toBeGreaterThan(0);
    expect(invoice.lines.every((l) => l.description && l.amount !== null)).toBe(true);
    // The reading validates against the review screen's schema.
    expect(invoiceReadingSchema.safeParse(einvoiceReading(invoice)).success).toBe(true);
  });

  it('reads the CII and the UBL of the same invoice to the same fields', () => {
    const stems = new Set(files.map((f) => path.basename(f).replace(/\.(cii|ubl)\.xml$/, '')));
    let pairs = 0;
    for (const stem of stems) {
      const cii = path.join(xmlDir, 'cii', `${stem}.cii.xml`);
      const ubl = path.join(xmlDir, 'ubl', `${stem}.ubl.xml`);
      if (!existsSync(cii) || !existsSync(ubl)) continue;
      pairs++;
      const a = einvoicePlainFields(readEInvoice(new Uint8Array(readFileSync(cii))));
      const b = einvoicePlainFields(readEInvoice(new Uint8Array(readFileSync(ubl))));
      expect(a, stem).toEqual(b);
    }
    expect(pairs).toBeGreaterThanOrEqual(2);
  });

  it('reads the document-level amounts: line total, allowances, charges, paid (UBL LegalMonetaryTotal, CII summation)', () => {
    const rebates = readEInvoice(new Uint8Array(readFileSync(path.join(xmlDir, 'ubl', 'EN16931_Rabatte.ubl.xml'))));
    expect(rebates.adjustments).toEqual({ line_total: 202.7, allowances: 14.73, charges: 5.8, prepaid: 50, rounding: null });
    // BR-CO-13 and BR-CO-16 hold on the XML's own values.
    expect(202.7 - 14.73 + 5.8).toBeCloseTo(rebates.fields.subtotal!.value, 2);
    expect(rebates.fields.total!.value - 50).toBeCloseTo(rebates.fields.amount_due!.value, 2);
    const rental = readEInvoice(new Uint8Array(readFileSync(path.join(xmlDir, 'cii', 'EN16931_Miete.cii.xml'))));
    expect(rental.adjustments).toEqual({ line_total: 286.52, allowances: 0, charges: 0, prepaid: 0, rounding: null });
  });

  it('reads a UBL CreditNote (credited quantities, credit note lines)', () => {
    const invoice = readFileSync(path.join(xmlDir, 'ubl', 'EN16931_Gutschrift.ubl.xml'), 'utf8');
    const credit = invoice
      .replace('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2')
      .replace(/<(\/?)Invoice\b/g, '<$1CreditNote')
      .replace(/<cbc:InvoiceTypeCode>389<\/cbc:InvoiceTypeCode>/, '<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>')
      .replace(/(<\/?cac:)InvoiceLine/g, '$1CreditNoteLine')
      .replace(/(<\/?cbc:)InvoicedQuantity/g, '$1CreditedQuantity');
    const read = readEInvoice(bytes(credit), 'credit.xml');
    expect(read.info).toMatchObject({ syntax: 'UBL', flavour: 'UBL 2.1 CreditNote', typeCode: '381' });
    expect(einvoicePlainFields(read).lines).toEqual(einvoicePlainFields(readEInvoice(bytes(invoice))).lines);
  });
});

describe('ZUGFeRD 1.0 text lines', () => {
  it('a line item with a note and nothing else is free text between the items, not an invoice line (both readers)', async () => {
    const { xmlInvoiceDetailsOfText } = await import('../invoices/einvoiceOut/xmlDetails.js');
    const item = (body: string) => `<ram:IncludedSupplyChainTradeLineItem>${body}</ram:IncludedSupplyChainTradeLineItem>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
<rsm:HeaderExchangedDocument><ram:ID>RK-1</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:HeaderExchangedDocument>
<rsm:SpecifiedSupplyChainTradeTransaction>
${item('<ram:AssociatedDocumentLineDocument><ram:IncludedNote><ram:Content>As agreed on the phone:</ram:Content></ram:IncludedNote></ram:AssociatedDocumentLineDocument><ram:SpecifiedSupplyChainTradeSettlement/>')}
${item('<ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">-5.0000</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery><ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">-5.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeProduct><ram:Name>Citric acid 100 ml</ram:Name></ram:SpecifiedTradeProduct>')}
</rsm:SpecifiedSupplyChainTradeTransaction></rsm:CrossIndustryDocument>`;
    const invoice = readEInvoice(new TextEncoder().encode(xml));
    expect(invoice.lines.map((l) => [l.description, l.quantity, l.amount])).toEqual([['Citric acid 100 ml', -5, -5]]);
    expect(xmlInvoiceDetailsOfText(xml)?.lines.length).toBe(1);
  });
});
