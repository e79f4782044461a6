/**
 * What XRechnung 3.0 (the German CIUS of EN 16931, rules BR-DE-*) requires of an invoice beyond EN 16931, for the
 * terms Recto holds (paymentFieldCatalogue's `xrechnung` column): the buyer reference or Leitweg-ID (BR-DE-15), the
 * seller contact's name, telephone and e-mail (BR-DE-2, -5, -6, -7), the seller's and buyer's city and post code
 * (BR-DE-3, -4, -8, -9), the parties' electronic addresses (cardinality 1..1 in XRechnung 3.0) and payment
 * instructions (BR-DE-1: the invoices export writes a credit transfer, so an IBAN, valid for SEPA: BR-DE-19).
 * Checked before writing: an invoice that lacks any is listed with those BTs, never written as a half XRechnung.
 */
import { paymentFieldCatalogue } from '../../invoice/fieldCatalogue.js';
import { ibanProblem } from '../../invoice/identifiers.js';
import type { ReviewedInvoice } from '../reviewedInvoice.js';
import { plannedEndpoint, type MissingTerm } from './einvoicePlan.js';

/** BR-DE-27: a telephone number has at least three digits. */
const MIN_PHONE_DIGITS = 3;
/** BR-DE-28: an e-mail address is one @ with text on both sides, neither side starting or ending with a dot. */
const EMAIL_SHAPE = /^[^@\s.][^@\s]*@[^@\s.][^@\s]*\.[^@\s.]+$/;

export function xrechnungMissing(invoice: ReviewedInvoice): MissingTerm[] {
  const p = invoice.payment;
  const missing: MissingTerm[] = [];
  for (const entry of paymentFieldCatalogue) {
    if (entry.xrechnung === null || (p[entry.key] ?? '').trim() !== '') continue;
    const rule = entry.xrechnung === 'XR-1..1' ? 'mandatory in XRechnung 3.0' : entry.xrechnung;
    missing.push({ bt: entry.bt, why: `XRechnung requires the ${entry.term.toLowerCase()} (${rule})` });
  }
  const phone = p.seller_contact_phone?.trim();
  if (phone && phone.replace(/\D/g, '').length < MIN_PHONE_DIGITS) missing.push({ bt: 'BT-42', why: `the telephone number has fewer than ${MIN_PHONE_DIGITS} digits (BR-DE-27)` });
  const email = p.seller_contact_email?.trim();
  if (email && !EMAIL_SHAPE.test(email)) missing.push({ bt: 'BT-43', why: 'the contact e-mail is not an e-mail address (BR-DE-28)' });
  for (const [key, bt] of [['seller_endpoint', 'BT-34'], ['buyer_endpoint', 'BT-49']] as const) {
    if ((p[key] ?? '').trim() !== '' && !plannedEndpoint(p[key])) missing.push({ bt: `${bt}-1`, why: 'the electronic address needs its scheme (an e-mail address, or `scheme:id` such as 0204:…)' });
  }
  const iban = p.iban?.trim();
  if (iban && invoice.fields.currency === 'EUR' && ibanProblem(iban) !== null) missing.push({ bt: 'BT-84', why: `a SEPA credit transfer needs a valid IBAN (BR-DE-19): ${ibanProblem(iban)}` });
  return missing;
}
