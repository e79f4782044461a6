/**
 * BR-CL-*: coded terms take their values from the code lists the standard names (versions: docs/en16931.md; the
 * lists themselves are generated from the schematron into ../codeLists/lists.ts). A code is tested as the schematron
 * tests it: normalized, without inner spaces, a whole token of the list.
 */
import * as lists from '../codeLists/lists.js';
import type { Party, SemanticInvoice, Term } from '../model/semanticInvoice.js';
import { code, forEach, type Rule } from './rule.js';

const inList = (list: ReadonlySet<string>, value: string): boolean => !/\s/.test(value) && list.has(value);
const codeIn = (list: ReadonlySet<string>) => (t: Term): boolean => inList(list, code(t));
const attrIn = (list: ReadonlySet<string>, attr: string) => (t: Term): boolean => inList(list, (t.attrs[attr] ?? '').trim().replace(/\s+/g, ' '));
const withAttr = (terms: readonly Term[], attr: string): Term[] => terms.filter((t) => attr in t.attrs);
const parties = (inv: SemanticInvoice): Party[] => [inv.seller, inv.buyer, inv.payee, inv.taxRepresentative].filter((p): p is Party => p !== undefined);

const ALLOWED_MIME_CODES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.oasis.opendocument.spreadsheet']);
const VAT_CATEGORY_CODES = new Set(['AE', 'L', 'M', 'E', 'S', 'Z', 'G', 'O', 'K', 'B']);
/** UBL writes the subject code of a note (BT-21) as `#CODE#` in front of its text; only a three-letter one is checked. */
const SUBJECT_CODE_LENGTH = 3;
const SUBJECT_TEXT = ` ${[...lists.textSubjectUbl].join(' ')} `;

function ublNoteSubjectHolds(note: Term): boolean {
  const text = note.text;
  const afterHash = text.includes('#') ? text.slice(text.indexOf('#') + 1) : '';
  const subject = afterHash.includes('#') ? afterHash.slice(0, afterHash.indexOf('#')) : '';
  if (!text.includes('#') || [...subject].length !== SUBJECT_CODE_LENGTH) return true;
  return SUBJECT_TEXT.includes(subject);
}

const allTaxCategories = (inv: SemanticInvoice) => [
  ...inv.taxTotals.flatMap((t) => t.subtotals.flatMap((s) => s.categories)),
  ...inv.allowanceCharges.flatMap((a) => a.taxCategories),
  ...inv.lines.flatMap((l) => l.allowances.flatMap((a) => a.taxCategories)),
];
const everyAllowanceCharge = (inv: SemanticInvoice) => [...inv.allowanceCharges, ...inv.lines.flatMap((l) => l.allowances)];
const present = <T>(x: T | undefined): x is T => x !== undefined;

export const codeListRules: Rule[] = [
  forEach('BR-CL-01', ['BT-3'], (inv) => (inv.typeCode ? [inv.typeCode] : []), (t, inv) =>
    codeIn(inv.syntax === 'cii' ? lists.invoiceTypeCii : inv.creditNote ? lists.creditNoteTypeUbl : lists.invoiceTypeUbl)(t),
  ),
  forEach('BR-CL-03', ['BT-5'], (inv) => inv.amountCurrencies, attrIn(lists.currency, 'currencyID')),
  forEach('BR-CL-04', ['BT-5'], (inv) => inv.currencies, codeIn(lists.currency)),
  forEach('BR-CL-05', ['BT-6'], (inv) => inv.taxCurrencies, codeIn(lists.currency)),
  forEach('BR-CL-06', ['BT-8'], (inv) => (inv.syntax === 'cii' ? inv.dueDateTypeCodes : [...inv.periods, ...inv.lines.flatMap((l) => l.periods)].map((p) => p.descriptionCode).filter(present)), (t, inv) =>
    inList(inv.syntax === 'cii' ? new Set(['5', '29', '72']) : new Set(['3', '35', '432']), code(t)),
  ),
  forEach('BR-CL-07', ['BT-18-1'], (inv) => inv.documents.filter((d) => d.typeCode?.text === '130' && d.id && 'schemeID' in d.id.attrs).map((d) => d.id!), attrIn(lists.objectIdScheme, 'schemeID')),
  forEach('BR-CL-08', ['BT-21'], (inv) => (inv.syntax === 'cii' ? inv.notes.map((n) => n.subjectCode).filter(present) : inv.notes.map((n) => n.text).filter(present)), (t, inv) =>
    inv.syntax === 'cii' ? codeIn(lists.textSubjectCii)(t) : ublNoteSubjectHolds(t),
  ),
  forEach('BR-CL-10', ['BT-29', 'BT-46', 'BT-60'], (inv) => [
    ...[inv.seller, inv.payee].filter(present).flatMap((p) => withAttr([...p.ids, ...p.globalIds], 'schemeID').map((t) => ({ t, sepaAllowed: true }))),
    ...[inv.buyer, inv.taxRepresentative].filter(present).flatMap((p) => withAttr([...p.ids, ...p.globalIds], 'schemeID').map((t) => ({ t, sepaAllowed: false }))),
  ], ({ t, sepaAllowed }) => attrIn(lists.icd, 'schemeID')(t) || (sepaAllowed && code({ text: t.attrs.schemeID ?? '', attrs: {} }) === 'SEPA')),
  forEach('BR-CL-11', ['BT-30', 'BT-47', 'BT-61'], (inv) => parties(inv).flatMap((p) => withAttr(p.legalIds, 'schemeID')), attrIn(lists.icd, 'schemeID')),
  forEach('BR-CL-13', ['BT-158-1'], (inv) => inv.lines.flatMap((l) => withAttr(l.classifications, 'listID')), attrIn(lists.itemClassification, 'listID')),
  forEach('BR-CL-14', ['BT-40', 'BT-55', 'BT-69', 'BT-80'], (inv) => [...parties(inv).map((p) => p.address?.country), ...inv.delivery.map((d) => d.address?.country)].filter(present), codeIn(lists.country)),
  forEach('BR-CL-15', ['BT-159'], (inv) => inv.lines.flatMap((l) => l.originCountries), (t, inv) => codeIn(inv.syntax === 'cii' ? lists.countryCii : lists.country)(t)),
  forEach('BR-CL-16', ['BT-81'], (inv) => inv.paymentMeans.map((p) => p.code).filter(present), codeIn(lists.paymentMeans)),
  forEach('BR-CL-17', ['BT-95', 'BT-102', 'BT-118'], (inv) => allTaxCategories(inv).map((c) => c.code).filter(present), codeIn(VAT_CATEGORY_CODES)),
  forEach('BR-CL-18', ['BT-151'], (inv) => inv.lines.flatMap((l) => l.taxCategories.map((c) => c.code)).filter(present), codeIn(VAT_CATEGORY_CODES)),
  forEach('BR-CL-19', ['BT-98', 'BT-140'], (inv) => everyAllowanceCharge(inv).filter((a) => a.indicator === 'false' || a.indicator === '0').flatMap((a) => a.reasonCodes), codeIn(lists.allowanceReason)),
  forEach('BR-CL-20', ['BT-105', 'BT-145'], (inv) => everyAllowanceCharge(inv).filter((a) => a.indicator === 'true' || a.indicator === '1').flatMap((a) => a.reasonCodes), codeIn(lists.chargeReason)),
  forEach('BR-CL-21', ['BT-157-1'], (inv) => inv.lines.flatMap((l) => withAttr(l.standardIds, 'schemeID')), attrIn(lists.icd, 'schemeID')),
  forEach('BR-CL-22', ['BT-121'], (inv) => allTaxCategories(inv).map((c) => c.exemptionReasonCode).filter(present), (t) => !/\s/.test(code(t)) && lists.exemptionReason.has(code(t).toUpperCase())),
  forEach('BR-CL-23', ['BT-130', 'BT-150'], (inv) => inv.unitCodes, attrIn(lists.unit, 'unitCode')),
  forEach('BR-CL-24', ['BT-125'], (inv) => inv.documents.flatMap((d) => withAttr(d.attachments, 'mimeCode')), (t) => ALLOWED_MIME_CODES.has(t.attrs.mimeCode ?? '')),
  forEach('BR-CL-25', ['BT-34', 'BT-49'], (inv) => parties(inv).flatMap((p) => withAttr(p.endpoints, 'schemeID')), attrIn(lists.eas, 'schemeID')),
  forEach('BR-CL-26', ['BT-71'], (inv) => inv.delivery.flatMap((d) => withAttr(d.locationIds, 'schemeID')), attrIn(lists.icd, 'schemeID')),
];
