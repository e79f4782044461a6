/**
 * An EN 16931 plan as an OASIS UBL 2.1 Invoice — or CreditNote, for a credit-note type code (EN 16931's UBL binding:
 * CreditNoteTypeCode, CreditNoteLine, CreditedQuantity, the due date under PaymentMeans) — elements in the order the
 * UBL schema requires. Written with
 * fast-xml-parser's XMLBuilder (it escapes text and attributes); the element tree is this file's only knowledge.
 */
import { XMLBuilder } from 'fast-xml-parser';
import { isCreditNote } from '../documentType.js';
import type { EInvoicePlan, PlannedParty } from './einvoicePlan.js';

/** EN 16931 core specification identifier (BT-24); XRechnung's CIUS identifier where asked for. */
export const EN16931_SPECIFICATION = 'urn:cen.eu:en16931:2017';
export const XRECHNUNG_SPECIFICATION = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
/**
 * BT-23, the business process: XRechnung's validation applies Peppol's PEPPOL-EN16931-R001 (BT-23 must be given),
 * and the billing process is Peppol's (as KoSIT's own test invoices state it).
 */
export const BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ', suppressEmptyNode: true });

type Node = Record<string, unknown>;
const amount = (value: string, currency: string): Node => ({ '#text': value, '@_currencyID': currency });
const vatScheme = { 'cac:TaxScheme': { 'cbc:ID': 'VAT' } };
/** A category's rate; none for category O (not subject to VAT). */
const percent = (rate: string | null): Node => (rate === null ? {} : { 'cbc:Percent': rate });

/** cac:Party in the UBL schema's order: EndpointID, PostalAddress, PartyTaxScheme, PartyLegalEntity, Contact. */
function party(p: PlannedParty): Node {
  return {
    'cac:Party': {
      ...(p.endpoint ? { 'cbc:EndpointID': { '#text': p.endpoint.id, '@_schemeID': p.endpoint.scheme } } : {}),
      'cac:PostalAddress': {
        ...(p.city ? { 'cbc:CityName': p.city } : {}),
        ...(p.postCode ? { 'cbc:PostalZone': p.postCode } : {}),
        'cac:Country': { 'cbc:IdentificationCode': p.country },
      },
      // BT-31 (TaxScheme VAT) and the seller's BT-32 (a TaxScheme other than VAT: FC, as XRechnung's examples write a Steuernummer).
      ...(p.vatId || p.taxRegistration
        ? {
            'cac:PartyTaxScheme': [
              ...(p.vatId ? [{ 'cbc:CompanyID': p.vatId, ...vatScheme }] : []),
              ...(p.taxRegistration ? [{ 'cbc:CompanyID': p.taxRegistration, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }] : []),
            ],
          }
        : {}),
      'cac:PartyLegalEntity': { 'cbc:RegistrationName': p.name },
      ...(p.contact
        ? {
            'cac:Contact': {
              ...(p.contact.name ? { 'cbc:Name': p.contact.name } : {}),
              ...(p.contact.phone ? { 'cbc:Telephone': p.contact.phone } : {}),
              ...(p.contact.email ? { 'cbc:ElectronicMail': p.contact.email } : {}),
            },
          }
        : {}),
    },
  };
}

/** BG-13: the actual delivery date (BT-72) and the deliver-to address (BG-15, BT-80 its country). */
function delivery(plan: EInvoicePlan): Node {
  const d = plan.delivery;
  if (!d || (!d.date && !d.address)) return {};
  const a = d.address;
  return {
    'cac:Delivery': {
      ...(d.date ? { 'cbc:ActualDeliveryDate': d.date } : {}),
      ...(a
        ? {
            'cac:DeliveryLocation': {
              'cac:Address': {
                ...(a.line1 ? { 'cbc:StreetName': a.line1 } : {}),
                ...(a.city ? { 'cbc:CityName': a.city } : {}),
                ...(a.postCode ? { 'cbc:PostalZone': a.postCode } : {}),
                'cac:Country': { 'cbc:IdentificationCode': a.country },
              },
            },
          }
        : {}),
    },
  };
}

export function ublInvoiceXml(plan: EInvoicePlan, specification = EN16931_SPECIFICATION): string {
  const c = plan.currency;
  const credit = isCreditNote(plan.typeCode);
  // A UBL 2.1 CreditNote has no header DueDate: BT-9 is the payment means' PaymentDueDate there (UBL-CR-412 allows it
  // only in a credit note). Without payment means (BG-16: its code cannot be guessed) the date goes into the payment
  // terms' text (BT-20), so it is not lost and BR-CO-25 (a positive amount due needs BT-9 or BT-20) still holds.
  const paymentDueDate = credit && plan.dueDate && plan.payment ? { 'cbc:PaymentDueDate': plan.dueDate } : {};
  const dueDateInTerms = credit && plan.dueDate && !plan.payment ? `Due date: ${plan.dueDate}` : null;
  const paymentTerms = [plan.paymentTerms, dueDateInTerms].filter((text): text is string => Boolean(text)).join('; ');
  const invoice: Node = {
    '@_xmlns': `urn:oasis:names:specification:ubl:schema:xsd:${credit ? 'CreditNote' : 'Invoice'}-2`,
    '@_xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
    '@_xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
    'cbc:CustomizationID': specification,
    ...(specification === XRECHNUNG_SPECIFICATION ? { 'cbc:ProfileID': BILLING_PROCESS } : {}),
    'cbc:ID': plan.number,
    'cbc:IssueDate': plan.issueDate,
    ...(plan.dueDate && !credit ? { 'cbc:DueDate': plan.dueDate } : {}),
    [credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode']: plan.typeCode,
    'cbc:DocumentCurrencyCode': c,
    ...(plan.buyerReference ? { 'cbc:BuyerReference': plan.buyerReference } : {}),
    ...(plan.delivery?.period ? { 'cac:InvoicePeriod': { ...(plan.delivery.period.start ? { 'cbc:StartDate': plan.delivery.period.start } : {}), ...(plan.delivery.period.end ? { 'cbc:EndDate': plan.delivery.period.end } : {}) } } : {}),
    ...(plan.purchaseOrder ? { 'cac:OrderReference': { 'cbc:ID': plan.purchaseOrder } } : {}),
    ...(plan.contract ? { 'cac:ContractDocumentReference': { 'cbc:ID': plan.contract } } : {}),
    'cac:AccountingSupplierParty': party(plan.seller),
    'cac:AccountingCustomerParty': party(plan.buyer),
    ...delivery(plan),
    ...(plan.payment
      ? {
          'cac:PaymentMeans': {
            'cbc:PaymentMeansCode': plan.payment.meansCode,
            ...paymentDueDate,
            'cac:PayeeFinancialAccount': {
              'cbc:ID': plan.payment.iban,
              ...(plan.payment.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': plan.payment.bic } } : {}),
            },
          },
        }
      : {}),
    ...(paymentTerms ? { 'cac:PaymentTerms': { 'cbc:Note': paymentTerms } } : {}),
    ...(plan.allowanceCharges.length > 0
      ? {
          'cac:AllowanceCharge': plan.allowanceCharges.map((a) => ({
            'cbc:ChargeIndicator': a.charge ? 'true' : 'false',
            ...(a.reasonCode ? { 'cbc:AllowanceChargeReasonCode': a.reasonCode } : {}),
            ...(a.reason ? { 'cbc:AllowanceChargeReason': a.reason } : {}),
            'cbc:Amount': amount(a.amount, c),
            'cac:TaxCategory': { 'cbc:ID': a.category, ...percent(a.rate), ...vatScheme },
          })),
        }
      : {}),
    'cac:TaxTotal': {
      'cbc:TaxAmount': amount(plan.totals.tax, c),
      'cac:TaxSubtotal': plan.vat.map((row) => ({
        'cbc:TaxableAmount': amount(row.base, c),
        'cbc:TaxAmount': amount(row.amount, c),
        'cac:TaxCategory': {
          'cbc:ID': row.category,
          ...percent(row.rate),
          ...(row.exemptionReasonCode ? { 'cbc:TaxExemptionReasonCode': row.exemptionReasonCode } : {}),
          ...(row.exemptionReason ? { 'cbc:TaxExemptionReason': row.exemptionReason } : {}),
          ...vatScheme,
        },
      })),
    },
    'cac:LegalMonetaryTotal': {
      'cbc:LineExtensionAmount': amount(plan.totals.lineTotal, c),
      'cbc:TaxExclusiveAmount': amount(plan.totals.taxExclusive, c),
      'cbc:TaxInclusiveAmount': amount(plan.totals.taxInclusive, c),
      ...(plan.totals.allowances ? { 'cbc:AllowanceTotalAmount': amount(plan.totals.allowances, c) } : {}),
      ...(plan.totals.charges ? { 'cbc:ChargeTotalAmount': amount(plan.totals.charges, c) } : {}),
      ...(plan.totals.prepaid ? { 'cbc:PrepaidAmount': amount(plan.totals.prepaid, c) } : {}),
      ...(plan.totals.rounding ? { 'cbc:PayableRoundingAmount': amount(plan.totals.rounding, c) } : {}),
      'cbc:PayableAmount': amount(plan.totals.payable, c),
    },
    [credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine']: plan.lines.map((l) => ({
      'cbc:ID': l.id,
      [credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity']: { '#text': l.quantity, '@_unitCode': l.unitCode },
      'cbc:LineExtensionAmount': amount(l.netAmount, c),
      ...(l.allowanceCharges.length > 0
        ? {
            'cac:AllowanceCharge': l.allowanceCharges.map((a) => ({
              'cbc:ChargeIndicator': a.charge ? 'true' : 'false',
              ...(a.reasonCode ? { 'cbc:AllowanceChargeReasonCode': a.reasonCode } : {}),
              ...(a.reason ? { 'cbc:AllowanceChargeReason': a.reason } : {}),
              'cbc:Amount': amount(a.amount, c),
            })),
          }
        : {}),
      'cac:Item': {
        'cbc:Name': l.name,
        'cac:ClassifiedTaxCategory': { 'cbc:ID': l.category, ...percent(l.rate), ...vatScheme },
      },
      'cac:Price': { 'cbc:PriceAmount': amount(l.price, c) },
    })),
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(credit ? { CreditNote: invoice } : { Invoice: invoice })}`;
}
