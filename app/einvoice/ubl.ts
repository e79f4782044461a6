/**
 * OASIS UBL 2.1 `Invoice` and `CreditNote` → EInvoice (EN 16931's second syntax: XRechnung UBL, Peppol BIS Billing).
 * A credit note differs from an invoice in the names of its type code, its lines and their quantity
 * (CreditNoteTypeCode, CreditNoteLine, CreditedQuantity) and in having no header DueDate (its due date, if any, is the
 * payment means'). Amounts are as written: a credit note's are positive, its type code says what it is.
 */
import { all, at, attributeOf, decimalOf, textOf, type XmlNode, type XmlValue } from './xmlInput.js';
import { isoDate, profileName, sourced, type EInvoice, type EInvoiceLine, type EInvoiceTax, type XmlSourced } from './einvoice.js';
import type { Party } from '../invoice/fieldShape.js';

function party(node: XmlValue | undefined): Party {
  const address = at(node, 'PostalAddress');
  const lines = ['StreetName', 'AdditionalStreetName', 'AddressLine/Line'].map((n) => textOf(at(address, n))).filter((t): t is string => !!t);
  const city = [textOf(at(address, 'PostalZone')), textOf(at(address, 'CityName'))].filter(Boolean).join(' ');
  if (city) lines.push(city);
  const country = textOf(at(address, 'Country/IdentificationCode'));
  if (country) lines.push(country);
  const vat = all(node, 'PartyTaxScheme').find((s) => textOf(at(s, 'TaxScheme/ID')) === 'VAT');
  return {
    name: textOf(at(node, 'PartyName/Name')) ?? textOf(at(node, 'PartyLegalEntity/RegistrationName')),
    address: lines,
    vatId: textOf(at(vat, 'CompanyID')),
  };
}

function partyNamePath(role: string, node: XmlValue | undefined): string {
  return textOf(at(node, 'PartyName/Name')) ? `${role}/Party/PartyName/Name` : `${role}/Party/PartyLegalEntity/RegistrationName`;
}

function money(root: XmlValue, path: string, currency: string | null): XmlSourced<number> | null {
  const nodes = all(root, path);
  const node = nodes.find((n) => currency !== null && attributeOf(n, 'currencyID') === currency) ?? nodes[0];
  return sourced(decimalOf(node), textOf(node), path);
}

export function readUbl(root: XmlNode, rootName: 'Invoice' | 'CreditNote'): EInvoice {
  const credit = rootName === 'CreditNote';
  const lineName = credit ? 'CreditNoteLine' : 'InvoiceLine';
  const quantityName = credit ? 'CreditedQuantity' : 'InvoicedQuantity';
  const typeName = credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode';
  const profileId = textOf(at(root, 'CustomizationID'));
  const currencyText = textOf(at(root, 'DocumentCurrencyCode'));
  const sellerNode = at(root, 'AccountingSupplierParty/Party');
  const buyerNode = at(root, 'AccountingCustomerParty/Party');
  const seller = party(sellerNode);
  const buyer = party(buyerNode);

  const lines: EInvoiceLine[] = all(root, lineName).map((line) => {
    const quantity = at(line, quantityName);
    return {
      id: textOf(at(line, 'ID')),
      description: textOf(at(line, 'Item/Name')) ?? '',
      quantity: decimalOf(quantity),
      unitCode: attributeOf(quantity, 'unitCode'),
      unit_price: decimalOf(at(line, 'Price/PriceAmount')),
      amount: decimalOf(at(line, 'LineExtensionAmount')),
      taxRate: decimalOf(at(line, 'Item/ClassifiedTaxCategory/Percent')),
      taxCategory: textOf(at(line, 'Item/ClassifiedTaxCategory/ID')),
    };
  });

  // The TaxTotal in the document currency (a second one may state the tax in the accounting currency).
  const taxTotal = all(root, 'TaxTotal').find((t) => attributeOf(at(t, 'TaxAmount'), 'currencyID') === currencyText) ?? at(root, 'TaxTotal');
  const taxes: EInvoiceTax[] = all(taxTotal, 'TaxSubtotal').map((sub) => ({
    category: textOf(at(sub, 'TaxCategory/ID')),
    rate: decimalOf(at(sub, 'TaxCategory/Percent')),
    basis: decimalOf(at(sub, 'TaxableAmount')),
    amount: decimalOf(at(sub, 'TaxAmount')),
  }));
  const issueText = textOf(at(root, 'IssueDate'));
  const dueText = textOf(at(root, 'DueDate')) ?? textOf(at(root, 'PaymentMeans/PaymentDueDate'));
  const duePath = textOf(at(root, 'DueDate')) ? 'DueDate' : 'PaymentMeans/PaymentDueDate';
  const taxText = textOf(at(taxTotal, 'TaxAmount'));

  return {
    info: { syntax: 'UBL', flavour: `UBL 2.1 ${rootName}`, profileId, profile: profileName(profileId), typeCode: textOf(at(root, typeName)), fileName: null },
    fields: {
      invoice_number: sourced(textOf(at(root, 'ID')), null, 'ID'),
      issue_date: sourced(isoDate(issueText, null), issueText, 'IssueDate'),
      due_date: sourced(isoDate(dueText, null), dueText, duePath),
      seller: sourced(seller.name, null, partyNamePath('AccountingSupplierParty', sellerNode)),
      buyer: sourced(buyer.name, null, partyNamePath('AccountingCustomerParty', buyerNode)),
      currency: sourced(currencyText, null, 'DocumentCurrencyCode'),
      subtotal: money(root, 'LegalMonetaryTotal/TaxExclusiveAmount', currencyText),
      tax: sourced(decimalOf(at(taxTotal, 'TaxAmount')), taxText, 'TaxTotal/TaxAmount'),
      total: money(root, 'LegalMonetaryTotal/TaxInclusiveAmount', currencyText),
      amount_due: money(root, 'LegalMonetaryTotal/PayableAmount', currencyText),
    },
    seller,
    buyer,
    lines,
    taxes,
    adjustments: {
      line_total: money(root, 'LegalMonetaryTotal/LineExtensionAmount', currencyText)?.value ?? null,
      allowances: money(root, 'LegalMonetaryTotal/AllowanceTotalAmount', currencyText)?.value ?? null,
      charges: money(root, 'LegalMonetaryTotal/ChargeTotalAmount', currencyText)?.value ?? null,
      prepaid: money(root, 'LegalMonetaryTotal/PrepaidAmount', currencyText)?.value ?? null,
      rounding: money(root, 'LegalMonetaryTotal/PayableRoundingAmount', currencyText)?.value ?? null,
    },
    notes: all(root, 'Note').map(textOf).filter((t): t is string => !!t),
    payment: [
      ...all(root, 'PaymentTerms/Note').map(textOf),
      ...all(root, 'PaymentMeans/PayeeFinancialAccount/ID').map((n) => (textOf(n) ? `IBAN ${textOf(n)}` : null)),
    ].filter((t): t is string => !!t),
  };
}
