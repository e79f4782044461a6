/**
 * The payment fields as page rules: a value that fails its check (an IBAN whose mod-97 check digits do not match, a
 * VAT identifier not in its country's format, a malformed BIC) and a page that states another identifier than its
 * e-invoice XML are failing rules like BR-CO-15 — in the pinned failure summary, a needs-attention signal, and an
 * exception an approval must give a reason for. The checks themselves are ../invoice/identifiers.ts' (paymentFieldViews.ts).
 */
import { paymentFieldCatalogue, type PaymentFieldKey } from '../invoice/fieldCatalogue.js';
import type { RuleResult } from '../invoice/rules/ruleTypes.js';
import type { PaymentFieldView } from './paymentFieldViews.js';

/** The rule each checked field fails under (the identifier rules' names: IBAN, BR-CO-9 for VAT identifiers). */
const CHECK_RULES: Partial<Record<PaymentFieldKey, { rule: string; title: string }>> = {
  iban: { rule: 'IBAN', title: 'IBAN check digits (mod-97) and length' },
  bic: { rule: 'BIC', title: 'BIC (ISO 9362): bank, country, location, branch' },
  seller_vat_id: { rule: 'BR-CO-9', title: 'VAT identifier: country prefix and shape' },
  buyer_vat_id: { rule: 'BR-CO-9', title: 'VAT identifier: country prefix and shape' },
};

/**
 * Fields compared with the XML: identifiers, which are the same string wherever they are written. Payment terms are
 * free text that a page and its XML word differently ("30 days net" / "Zahlbar innerhalb 30 Tagen"), so a difference
 * there is no disagreement.
 */
const COMPARED_WITH_XML: ReadonlySet<PaymentFieldKey> = new Set(paymentFieldCatalogue.filter((f) => f.comparedWithXml).map((f) => f.key));

export const PAYMENT_XML_RULE = 'PAYMENT-XML';

/** The failing payment rules of a document (none where every given value passes and page and XML agree). */
export function paymentRules(fields: readonly PaymentFieldView[]): RuleResult[] {
  const results: RuleResult[] = [];
  for (const field of fields) {
    const check = CHECK_RULES[field.key];
    const path = `payment.${field.key}`;
    if (check && field.problem) {
      results.push({ ...check, status: 'fail', message: `${field.label} ${field.value}: ${field.problem}.`, fields: [path] });
    }
    if (field.disagrees && COMPARED_WITH_XML.has(field.key)) {
      results.push({
        rule: PAYMENT_XML_RULE,
        title: 'Payment field as on the page = as in the e-invoice XML',
        status: 'fail',
        message: `${field.label} (${field.bt}): page ${field.page} — XML ${field.xml}.`,
        fields: [path],
      });
    }
  }
  return results;
}
