/**
 * An EN 16931 plan as a UN/CEFACT Cross Industry Invoice (D16B, the syntax Factur-X and ZUGFeRD 2 carry), elements
 * in the order the CII schema requires. Written with fast-xml-parser's XMLBuilder, like ublOut.ts.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { EInvoicePlan, PlannedParty } from './einvoicePlan.js';
import { BILLING_PROCESS, EN16931_SPECIFICATION, XRECHNUNG_SPECIFICATION } from './ublOut.js';

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ', suppressEmptyNode: true });

type Node = Record<string, unknown>;
/** CII dates are written in UNTDID 2379 format 102 (CCYYMMDD). */
const date = (iso: string): Node => ({ 'udt:DateTimeString': { '#text': iso.replace(/-/g, ''), '@_format': '102' } });

/** A trade party in the CII schema's order: Name, DefinedTradeContact, PostalTradeAddress, URIUniversalCommunication, SpecifiedTaxRegistration. */
function party(p: PlannedParty): Node {
  return {
    'ram:Name': p.name,
    ...(p.contact
      ? {
          'ram:DefinedTradeContact': {
            ...(p.contact.name ? { 'ram:PersonName': p.contact.name } : {}),
            ...(p.contact.phone ? { 'ram:TelephoneUniversalCommunication': { 'ram:CompleteNumber': p.contact.phone } } : {}),
            ...(p.contact.email ? { 'ram:EmailURIUniversalCommunication': { 'ram:URIID': p.contact.email } } : {}),
          },
        }
      : {}),
    'ram:PostalTradeAddress': {
      ...(p.postCode ? { 'ram:PostcodeCode': p.postCode } : {}),
      ...(p.city ? { 'ram:CityName': p.city } : {}),
      'ram:CountryID': p.country,
    },
    ...(p.endpoint ? { 'ram:URIUniversalCommunication': { 'ram:URIID': { '#text': p.endpoint.id, '@_schemeID': p.endpoint.scheme } } } : {}),
    // BT-31 (schemeID VA) and the seller's BT-32 (FC, a tax number): the CII binding of EN 16931.
    ...(p.vatId || p.taxRegistration
      ? {
          'ram:SpecifiedTaxRegistration': [
            ...(p.vatId ? [{ 'ram:ID': { '#text': p.vatId, '@_schemeID': 'VA' } }] : []),
            ...(p.taxRegistration ? [{ 'ram:ID': { '#text': p.taxRegistration, '@_schemeID': 'FC' } }] : []),
          ],
        }
      : {}),
  };
}

/** A category's rate; none for category O (not subject to VAT). */
const rate = (percent: string | null): Node => (percent === null ? {} : { 'ram:RateApplicablePercent': percent });

/** BG-13: the deliver-to party's address (BG-15, BT-80 its country) and the actual delivery date (BT-72); empty where none. */
function delivery(plan: EInvoicePlan): Node | '' {
  const d = plan.delivery;
  if (!d || (!d.date && !d.address)) return '';
  const a = d.address;
  return {
    ...(a
      ? {
          'ram:ShipToTradeParty': {
            'ram:PostalTradeAddress': {
              ...(a.postCode ? { 'ram:PostcodeCode': a.postCode } : {}),
              ...(a.line1 ? { 'ram:LineOne': a.line1 } : {}),
              ...(a.city ? { 'ram:CityName': a.city } : {}),
              'ram:CountryID': a.country,
            },
          },
        }
      : {}),
    ...(d.date ? { 'ram:ActualDeliverySupplyChainEvent': { 'ram:OccurrenceDateTime': date(d.date) } } : {}),
  };
}

export function ciiInvoiceXml(plan: EInvoicePlan, specification = EN16931_SPECIFICATION): string {
  const t = plan.totals;
  const settlement: Node = {
    'ram:InvoiceCurrencyCode': plan.currency,
    ...(plan.payment
      ? {
          'ram:SpecifiedTradeSettlementPaymentMeans': {
            'ram:TypeCode': plan.payment.meansCode,
            'ram:PayeePartyCreditorFinancialAccount': { 'ram:IBANID': plan.payment.iban },
            ...(plan.payment.bic ? { 'ram:PayeeSpecifiedCreditorFinancialInstitution': { 'ram:BICID': plan.payment.bic } } : {}),
          },
        }
      : {}),
    'ram:ApplicableTradeTax': plan.vat.map((row) => ({
      'ram:CalculatedAmount': row.amount,
      'ram:TypeCode': 'VAT',
      ...(row.exemptionReason ? { 'ram:ExemptionReason': row.exemptionReason } : {}),
      'ram:BasisAmount': row.base,
      'ram:CategoryCode': row.category,
      ...(row.exemptionReasonCode ? { 'ram:ExemptionReasonCode': row.exemptionReasonCode } : {}),
      ...rate(row.rate),
    })),
    ...(plan.delivery?.period
      ? {
          'ram:BillingSpecifiedPeriod': {
            ...(plan.delivery.period.start ? { 'ram:StartDateTime': date(plan.delivery.period.start) } : {}),
            ...(plan.delivery.period.end ? { 'ram:EndDateTime': date(plan.delivery.period.end) } : {}),
          },
        }
      : {}),
    ...(plan.allowanceCharges.length > 0
      ? {
          'ram:SpecifiedTradeAllowanceCharge': plan.allowanceCharges.map((a) => ({
            'ram:ChargeIndicator': { 'udt:Indicator': a.charge ? 'true' : 'false' },
            'ram:ActualAmount': a.amount,
            ...(a.reasonCode ? { 'ram:ReasonCode': a.reasonCode } : {}),
            ...(a.reason ? { 'ram:Reason': a.reason } : {}),
            'ram:CategoryTradeTax': { 'ram:TypeCode': 'VAT', 'ram:CategoryCode': a.category, ...rate(a.rate) },
          })),
        }
      : {}),
    ...(plan.paymentTerms || plan.dueDate
      ? {
          'ram:SpecifiedTradePaymentTerms': {
            ...(plan.paymentTerms ? { 'ram:Description': plan.paymentTerms } : {}),
            ...(plan.dueDate ? { 'ram:DueDateDateTime': date(plan.dueDate) } : {}),
          },
        }
      : {}),
    'ram:SpecifiedTradeSettlementHeaderMonetarySummation': {
      'ram:LineTotalAmount': t.lineTotal,
      ...(t.charges ? { 'ram:ChargeTotalAmount': t.charges } : {}),
      ...(t.allowances ? { 'ram:AllowanceTotalAmount': t.allowances } : {}),
      'ram:TaxBasisTotalAmount': t.taxExclusive,
      'ram:TaxTotalAmount': { '#text': t.tax, '@_currencyID': plan.currency },
      ...(t.rounding ? { 'ram:RoundingAmount': t.rounding } : {}),
      'ram:GrandTotalAmount': t.taxInclusive,
      ...(t.prepaid ? { 'ram:TotalPrepaidAmount': t.prepaid } : {}),
      'ram:DuePayableAmount': t.payable,
    },
  };
  const invoice: Node = {
    '@_xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
    '@_xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
    '@_xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
    'rsm:ExchangedDocumentContext': {
      ...(specification === XRECHNUNG_SPECIFICATION ? { 'ram:BusinessProcessSpecifiedDocumentContextParameter': { 'ram:ID': BILLING_PROCESS } } : {}),
      'ram:GuidelineSpecifiedDocumentContextParameter': { 'ram:ID': specification },
    },
    'rsm:ExchangedDocument': { 'ram:ID': plan.number, 'ram:TypeCode': plan.typeCode, 'ram:IssueDateTime': date(plan.issueDate) },
    'rsm:SupplyChainTradeTransaction': {
      'ram:IncludedSupplyChainTradeLineItem': plan.lines.map((l) => ({
        'ram:AssociatedDocumentLineDocument': { 'ram:LineID': l.id },
        'ram:SpecifiedTradeProduct': { 'ram:Name': l.name },
        'ram:SpecifiedLineTradeAgreement': { 'ram:NetPriceProductTradePrice': { 'ram:ChargeAmount': l.price } },
        'ram:SpecifiedLineTradeDelivery': { 'ram:BilledQuantity': { '#text': l.quantity, '@_unitCode': l.unitCode } },
        'ram:SpecifiedLineTradeSettlement': {
          'ram:ApplicableTradeTax': { 'ram:TypeCode': 'VAT', 'ram:CategoryCode': l.category, ...rate(l.rate) },
          ...(l.allowanceCharges.length > 0
            ? {
                'ram:SpecifiedTradeAllowanceCharge': l.allowanceCharges.map((a) => ({
                  'ram:ChargeIndicator': { 'udt:Indicator': a.charge ? 'true' : 'false' },
                  'ram:ActualAmount': a.amount,
                  ...(a.reasonCode ? { 'ram:ReasonCode': a.reasonCode } : {}),
                  ...(a.reason ? { 'ram:Reason': a.reason } : {}),
                })),
              }
            : {}),
          'ram:SpecifiedTradeSettlementLineMonetarySummation': { 'ram:LineTotalAmount': l.netAmount },
        },
      })),
      'ram:ApplicableHeaderTradeAgreement': {
        ...(plan.buyerReference ? { 'ram:BuyerReference': plan.buyerReference } : {}),
        'ram:SellerTradeParty': party(plan.seller),
        'ram:BuyerTradeParty': party(plan.buyer),
        ...(plan.purchaseOrder ? { 'ram:BuyerOrderReferencedDocument': { 'ram:IssuerAssignedID': plan.purchaseOrder } } : {}),
        ...(plan.contract ? { 'ram:ContractReferencedDocument': { 'ram:IssuerAssignedID': plan.contract } } : {}),
      },
      'ram:ApplicableHeaderTradeDelivery': delivery(plan),
      'ram:ApplicableHeaderTradeSettlement': settlement,
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ 'rsm:CrossIndustryInvoice': invoice })}`;
}
