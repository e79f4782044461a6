import { describe, expect, it } from 'vitest';
import type { Extraction } from '../model/extraction.js';
import { reward } from '../checks/reward.js';
import { checkPage, roundScore } from '../curation/checkPage.js';
import { pageVsXmlOf, readEInvoice, withEInvoice } from './index.js';
import { namesAgree } from './pageVsXml.js';

const xml = (total: string, id = 'INV-7') =>
  new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocument><ram:ID>${id}</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20240131</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>ACME GmbH</ram:Name></ram:SellerTradeParty></ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:GrandTotalAmount>${total}</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`);

const page = (total: number): Extraction =>
  ({
    markdown: 'x',
    elements: [],
    warnings: [],
    fields: {
      invoice: { invoice_number: 'INV 7', issue_date: '2024-01-31', due_date: null, seller: 'Acme', buyer: null, currency: 'EUR', subtotal: null, tax: null, total, lines: [] },
      invoiceSources: { total: { text: `${total.toFixed(2).replace('.', ',')} €`, label: 'Gesamtbetrag', boxes: [] } },
    },
  }) as unknown as Extraction;

describe('withEInvoice: the XML beside each page reading, and the page-vs-XML check', () => {
  it('agrees where the page prints the XML values (ids without spacing, names loosely)', () => {
    const read = withEInvoice(page(119), { status: 'read', invoice: readEInvoice(xml('119.00')) });
    expect(read.fields!.invoiceXml).toMatchObject({ total: 119, invoice_number: 'INV-7' });
    expect(read.fields!.einvoice).toMatchObject({ syntax: 'CII', typeCode: '380' });
    expect(pageVsXmlOf(read.fields)).toEqual([{ field: 'invoice_number', page: 'INV 7', xml: 'INV-7' }]);
  });

  it('lists a disagreement with both texts; the score stays the reward that evaluation gives (one definition)', () => {
    const read = withEInvoice(page(1589.8), { status: 'read', invoice: readEInvoice(xml('119.00', 'INV 7')) });
    const disagreements = pageVsXmlOf(read.fields);
    expect(disagreements).toEqual([{ field: 'total', page: '1589,80 €', xml: '119.00' }]);
    const checked = checkPage({ engineMarkdown: 'x', elements: [], correctedMarkdown: null, invoiceDisagreements: disagreements });
    expect(checked.scores.score).toBe(roundScore(reward('x', 'x').score));
    expect(checked.scores.score).toBe(1);
    expect(checked.results.einvoice!.messages).toEqual(['total: page 1589,80 € — XML 119.00']);
    expect(checkPage({ engineMarkdown: 'x', elements: [], correctedMarkdown: null }).scores.score).toBeGreaterThan(0);
  });

  it('keeps the page reading and warns where the XML was refused', () => {
    const read = withEInvoice(page(10), { status: 'refused', fileName: 'factur-x.xml', message: 'the XML is not well-formed' });
    expect(read.fields!.invoice).toBeDefined();
    expect(read.fields!.einvoiceRefused).toEqual({ fileName: 'factur-x.xml', message: 'the XML is not well-formed' });
    expect(read.warnings).toEqual(['e-invoice factur-x.xml not read: the XML is not well-formed']);
    expect(pageVsXmlOf(read.fields)).toEqual([]);
  });
});

describe('namesAgree', () => {
  it('a name a text layer broke apart agrees with the XML\'s; another name does not', () => {
    expect(namesAgree('Taxiunter nehmen TX GmbH', 'Taxiunternehmen TX GmbH')).toBe(true);
    expect(namesAgree('Zitronensäure', 'GLN 4333741000005 Lieferant GmbH')).toBe(false);
  });
});
