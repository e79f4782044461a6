/**
 * A minimal ZUGFeRD 1.0 CrossIndustryDocument built by hand, in the 1.0 element names and codes (FeRD's 1.0 schema
 * and code lists): the tests of its conversion to EN 16931 state each tax the way a 1.0 profile writes it.
 * Defaults: a BASIC invoice of two lines at 19 % and 7 % whose taxes state only type and rate (BASIC has no category).
 */

export interface Zf1Tax {
  /** ram:TypeCode; omitted where undefined (BASIC's lines). */
  type?: string;
  /** ram:CategoryCode; omitted where undefined (BASIC). */
  category?: string;
  rate: string;
  exemptionReason?: string;
}

export interface Zf1Line {
  name: string;
  quantity: string;
  price: string;
  total: string;
  tax: Zf1Tax;
}

export interface Zf1HeaderTax extends Zf1Tax {
  basis: string;
  calculated: string;
}

export interface Zf1Options {
  profile?: 'basic' | 'comfort';
  /** The seller's tax registrations, schemeID → ID (VA: VAT identifier, FC: tax number). */
  sellerTaxIds?: Record<string, string>;
  taxes?: Zf1HeaderTax[];
  lines?: Zf1Line[];
  /** Document allowances stated one by one (COMFORT). */
  allowances?: { amount: string; reason?: string; tax: Zf1Tax }[];
  totals?: { lineTotal: string; allowanceTotal: string; taxBasis: string; taxTotal: string; grandTotal: string; due: string };
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const amount = (name: string, value: string): string => `<ram:${name} currencyID="EUR">${value}</ram:${name}>`;
const tax = (t: Zf1Tax, extra = ''): string =>
  `${t.type === undefined ? '' : `<ram:TypeCode>${t.type}</ram:TypeCode>`}${t.exemptionReason === undefined ? '' : `<ram:ExemptionReason>${escape(t.exemptionReason)}</ram:ExemptionReason>`}${extra}${t.category === undefined ? '' : `<ram:CategoryCode>${t.category}</ram:CategoryCode>`}<ram:ApplicablePercent>${t.rate}</ram:ApplicablePercent>`;

export function zugferd1Xml(o: Zf1Options = {}): string {
  const lines = o.lines ?? [
    { name: 'Zitronensäure 100ml', quantity: '2.0000', price: '10.0000', total: '20.00', tax: { rate: '19.00' } },
    { name: 'Gelierzucker 250g', quantity: '3.0000', price: '5.0000', total: '15.00', tax: { rate: '7.00' } },
  ];
  const taxes = o.taxes ?? [
    { type: 'VAT', rate: '19.00', basis: '20.00', calculated: '3.80' },
    { type: 'VAT', rate: '7.00', basis: '15.00', calculated: '1.05' },
  ];
  const t = o.totals ?? { lineTotal: '35.00', allowanceTotal: '0.00', taxBasis: '35.00', taxTotal: '4.85', grandTotal: '39.85', due: '39.85' };
  const sellerTaxIds = Object.entries(o.sellerTaxIds ?? { VA: 'DE123456789' })
    .map(([scheme, id]) => `<ram:SpecifiedTaxRegistration><ram:ID schemeID="${scheme}">${id}</ram:ID></ram:SpecifiedTaxRegistration>`)
    .join('');
  const party = (role: string, name: string, city: string, taxIds: string) =>
    `<ram:${role}><ram:Name>${name}</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>12345</ram:PostcodeCode><ram:LineOne>Hauptstraße 1</ram:LineOne><ram:CityName>${city}</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>${taxIds}</ram:${role}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
<rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:${o.profile ?? 'basic'}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
<rsm:HeaderExchangedDocument><ram:ID>ZF1-2014-7</ram:ID><ram:Name>RECHNUNG</ram:Name><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20140311</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
<rsm:SpecifiedSupplyChainTradeTransaction>
<ram:ApplicableSupplyChainTradeAgreement>${party('SellerTradeParty', 'Musterlieferant GmbH', 'Musterhausen', sellerTaxIds)}${party('BuyerTradeParty', 'Muster-Kunde GmbH', 'Düsseldorf', '')}</ram:ApplicableSupplyChainTradeAgreement>
<ram:ApplicableSupplyChainTradeDelivery><ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime><udt:DateTimeString format="102">20140305</udt:DateTimeString></ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent></ram:ApplicableSupplyChainTradeDelivery>
<ram:ApplicableSupplyChainTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
${taxes.map((h) => `<ram:ApplicableTradeTax>${amount('CalculatedAmount', h.calculated)}${tax(h, amount('BasisAmount', h.basis))}</ram:ApplicableTradeTax>`).join('\n')}
${(o.allowances ?? []).map((a) => `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator>${amount('ActualAmount', a.amount)}${a.reason === undefined ? '' : `<ram:Reason>${escape(a.reason)}</ram:Reason>`}<ram:CategoryTradeTax>${tax(a.tax)}</ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>`).join('\n')}
<ram:SpecifiedTradePaymentTerms><ram:Description>Zahlbar innerhalb von 14 Tagen</ram:Description><ram:DueDateDateTime><udt:DateTimeString format="102">20140325</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
<ram:SpecifiedTradeSettlementMonetarySummation>${amount('LineTotalAmount', t.lineTotal)}${amount('ChargeTotalAmount', '0.00')}${amount('AllowanceTotalAmount', t.allowanceTotal)}${amount('TaxBasisTotalAmount', t.taxBasis)}${amount('TaxTotalAmount', t.taxTotal)}${amount('GrandTotalAmount', t.grandTotal)}${amount('DuePayableAmount', t.due)}</ram:SpecifiedTradeSettlementMonetarySummation>
</ram:ApplicableSupplyChainTradeSettlement>
<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:IncludedNote><ram:Content>Wir berechnen Ihnen:</ram:Content></ram:IncludedNote></ram:AssociatedDocumentLineDocument><ram:SpecifiedSupplyChainTradeSettlement/></ram:IncludedSupplyChainTradeLineItem>
${lines
  .map(
    (l, i) =>
      `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice>${amount('ChargeAmount', l.price)}</ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement><ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">${l.quantity}</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery><ram:SpecifiedSupplyChainTradeSettlement><ram:ApplicableTradeTax>${tax(l.tax)}</ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementMonetarySummation>${amount('LineTotalAmount', l.total)}</ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeProduct><ram:Name>${escape(l.name)}</ram:Name></ram:SpecifiedTradeProduct></ram:IncludedSupplyChainTradeLineItem>`,
  )
  .join('\n')}
</rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>
`;
}

/** A COMFORT invoice with a 2.00 allowance on its 19 % goods, stated with its reason and category. */
export const comfortWithAllowance: Zf1Options = {
  profile: 'comfort',
  lines: [
    { name: 'Zitronensäure 100ml', quantity: '2.0000', price: '10.0000', total: '20.00', tax: { type: 'VAT', category: 'S', rate: '19.00' } },
    { name: 'Gelierzucker 250g', quantity: '3.0000', price: '5.0000', total: '15.00', tax: { type: 'VAT', category: 'S', rate: '7.00' } },
  ],
  taxes: [
    { type: 'VAT', category: 'S', rate: '19.00', basis: '18.00', calculated: '3.42' },
    { type: 'VAT', category: 'S', rate: '7.00', basis: '15.00', calculated: '1.05' },
  ],
  allowances: [{ amount: '2.00', reason: 'Sonderrabatt', tax: { type: 'VAT', category: 'S', rate: '19.00' } }],
  totals: { lineTotal: '35.00', allowanceTotal: '2.00', taxBasis: '33.00', taxTotal: '4.47', grandTotal: '37.47', due: '37.47' },
};
