/**
 * ZUGFeRD 1.0 judged by its own rules (issue 36): a consistent CrossIndustryDocument gets no finding — and no EN 16931
 * rule — while each broken identity fires its own rule. (The real ZUGFeRD 1.0 PDFs of ../shared/testdata are checked
 * in main/cli/validateCommand.test.ts, which can read PDF attachments.)
 */
import { describe, expect, it } from 'vitest';
import { validateEInvoiceXml } from '../index.js';

interface Zf1Options {
  lines?: { quantity: string; price: string; total: string; basis?: string }[];
  lineTotal?: string;
  allowanceTotal?: string;
  taxBasis?: string;
  taxes?: { calculated: string; basis: string; percent: string }[];
  taxTotal?: string;
  grandTotal?: string;
  prepaid?: string;
  due?: string;
  id?: string;
}

function zf1(o: Zf1Options = {}): string {
  const lines = o.lines ?? [
    { quantity: '2.0000', price: '10.0000', total: '20.00' },
    { quantity: '1.0000', price: '67.2269', total: '67.23' },
  ];
  const taxes = o.taxes ?? [{ calculated: '16.59', basis: '87.33', percent: '19.00' }];
  const amount = (name: string, value: string | undefined) => (value === undefined ? '' : `<ram:${name} currencyID="EUR">${value}</ram:${name}>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
<rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
<rsm:HeaderExchangedDocument>${o.id === '' ? '' : `<ram:ID>${o.id ?? 'RE-1'}</ram:ID>`}<ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20140311</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
<rsm:SpecifiedSupplyChainTradeTransaction>
<ram:ApplicableSupplyChainTradeAgreement><ram:SellerTradeParty><ram:Name>Seller</ram:Name></ram:SellerTradeParty><ram:BuyerTradeParty><ram:Name>Buyer</ram:Name></ram:BuyerTradeParty></ram:ApplicableSupplyChainTradeAgreement>
<ram:ApplicableSupplyChainTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
${taxes.map((t) => `<ram:ApplicableTradeTax>${amount('CalculatedAmount', t.calculated)}<ram:TypeCode>VAT</ram:TypeCode>${amount('BasisAmount', t.basis)}<ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>${t.percent}</ram:ApplicablePercent></ram:ApplicableTradeTax>`).join('\n')}
<ram:SpecifiedTradeSettlementMonetarySummation>${amount('LineTotalAmount', o.lineTotal ?? '87.23')}${amount('ChargeTotalAmount', '0.00')}${amount('AllowanceTotalAmount', o.allowanceTotal ?? '-0.10')}${amount('TaxBasisTotalAmount', o.taxBasis ?? '87.33')}${amount('TaxTotalAmount', o.taxTotal ?? '16.59')}${amount('GrandTotalAmount', o.grandTotal ?? '103.92')}${amount('TotalPrepaidAmount', o.prepaid ?? '3.92')}${amount('DuePayableAmount', o.due ?? '100.00')}</ram:SpecifiedTradeSettlementMonetarySummation>
</ram:ApplicableSupplyChainTradeSettlement>
<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:IncludedNote><ram:Content>a text line</ram:Content></ram:IncludedNote></ram:AssociatedDocumentLineDocument></ram:IncludedSupplyChainTradeLineItem>
${lines
  .map(
    (l, i) => `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
<ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice>${amount('ChargeAmount', l.price)}${l.basis ? `<ram:BasisQuantity unitCode="C62">${l.basis}</ram:BasisQuantity>` : ''}</ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
<ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">${l.quantity}</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
<ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation>${amount('LineTotalAmount', l.total)}</ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
<ram:SpecifiedTradeProduct><ram:Name>Item ${i + 1}</ram:Name></ram:SpecifiedTradeProduct></ram:IncludedSupplyChainTradeLineItem>`,
  )
  .join('\n')}
</rsm:SpecifiedSupplyChainTradeTransaction></rsm:CrossIndustryDocument>`;
}

const fired = (o: Zf1Options) => validateEInvoiceXml(zf1(o)).failed.map((f) => `${f.id}${f.line ? `@${f.line}` : ''}`);

describe('ZUGFeRD 1.0 by its own rules', () => {
  it('a consistent invoice is valid, by the zugferd1 rule set alone: no EN 16931 or CII syntax rule runs', () => {
    const report = validateEInvoiceXml(zf1());
    expect(report.failed).toEqual([]);
    expect(report).toMatchObject({ valid: true, syntax: 'CII', ruleSets: ['zugferd1'], profileName: 'ZUGFeRD 1.0 COMFORT' });
  });

  it('forced to EN 16931 (--rules en16931), the EN 16931 business rules run (and fail on 1.0’s paths)', () => {
    const report = validateEInvoiceXml(zf1(), { rules: 'en16931' });
    expect(report.ruleSets).toEqual(['en16931']);
    expect(report.failed.some((f) => f.id.startsWith('BR-'))).toBe(true);
  });

  it.each<[string, Zf1Options, string[]]>([
    ['a line total that is not quantity × net price', { lines: [{ quantity: '2', price: '10', total: '20.01' }, { quantity: '1', price: '67.2269', total: '67.23' }], lineTotal: '87.24', taxBasis: '87.34', taxes: [{ calculated: '16.59', basis: '87.34', percent: '19' }], grandTotal: '103.93', due: '100.01' }, ['ZF1-CALC-01@1']],
    ['a price per basis quantity', { lines: [{ quantity: '200', price: '10', total: '20.00', basis: '100' }, { quantity: '1', price: '67.2269', total: '67.23' }] }, []],
    ['a header line total off the lines by more than their rounding', { lineTotal: '87.25', allowanceTotal: '-0.08' }, ['ZF1-CALC-02']],
    ['a tax basis that is not lines − allowances + charges', { allowanceTotal: '0.00' }, ['ZF1-CALC-03']],
    ['a tax amount that is not basis × rate', { taxes: [{ calculated: '16.60', basis: '87.33', percent: '19.00' }], taxTotal: '16.60', grandTotal: '103.93', due: '100.01' }, ['ZF1-CALC-04']],
    ['a tax total that is not the rows’ sum', { taxTotal: '16.58', grandTotal: '103.91', due: '99.99' }, ['ZF1-CALC-05']],
    ['tax bases that do not add up to the tax basis total', { taxes: [{ calculated: '16.59', basis: '87.32', percent: '19.00' }] }, ['ZF1-CALC-06']],
    ['a grand total that is not basis + tax', { grandTotal: '104.92', due: '101.00' }, ['ZF1-CALC-07']],
    ['an amount due that is not grand total − prepaid', { due: '103.92' }, ['ZF1-CALC-08']],
    ['no invoice number', { id: '' }, ['ZF1-01']],
    ['an amount that is not a number', { prepaid: '3,92' }, ['ZF1-06']],
  ])('%s', (_, options, expected) => {
    expect(fired(options)).toEqual(expected);
  });
});
