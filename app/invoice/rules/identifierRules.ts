/**
 * The identifier checks a clerk runs by hand: an IBAN's length for its country and its ISO 7064 mod-97 check digits;
 * a VAT identifier's country prefix (BR-CO-9: ISO 3166-1 alpha-2, Greece as EL) and its national shape (the formats
 * the EU's VIES service accepts, plus GB, XI, CH and NO). One result per identifier printed.
 */
import type { RuleInvoice, RuleResult } from './ruleTypes.js';

/** IBAN length by country (SWIFT IBAN registry). A country not listed is checked by mod-97 alone. */
const ibanLengths: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27,
  GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LI: 21, LT: 20, LU: 20,
  LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25,
  QA: 29, RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TN: 24, TR: 26, UA: 29, VG: 24, XK: 20,
};

/** Printed groups of four ("DE89 3704 …") and separators are not part of the number. */
export const compactIdentifier = (text: string): string => text.replace(/[\s.\-/]/g, '').toUpperCase();

/** ISO 7064 MOD 97-10 over the rearranged IBAN, digit by digit (the number is far beyond 2^53). */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

export function checkIban(printed: string, index: number): RuleResult {
  const rule = 'IBAN';
  const title = 'IBAN check digits (mod-97) and length';
  const iban = compactIdentifier(printed);
  const fail = (why: string): RuleResult => ({ rule, title, status: 'fail', message: `IBAN ${printed}: ${why}.`, fields: [`ibans.${index}`] });
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) return fail('not an IBAN (two letters, two check digits, then letters and digits)');
  const expectedLength = ibanLengths[iban.slice(0, 2)];
  if (expectedLength !== undefined && iban.length !== expectedLength) return fail(`${iban.length} characters, ${iban.slice(0, 2)} IBANs have ${expectedLength}`);
  if (!ibanChecksumValid(iban)) return fail('check digits do not match (mod-97 ≠ 1)');
  return { rule, title, status: 'pass', message: `IBAN ${printed}: check digits valid.`, fields: [`ibans.${index}`] };
}

/** National VAT number shapes after the prefix (VIES formats; GB/XI, CH, NO outside the EU). */
const vatShapes: Record<string, RegExp> = {
  AT: /^U\d{8}$/, BE: /^[01]\d{9}$/, BG: /^\d{9,10}$/, CY: /^\d{8}[A-Z]$/, CZ: /^\d{8,10}$/, DE: /^\d{9}$/,
  DK: /^\d{8}$/, EE: /^\d{9}$/, EL: /^\d{9}$/, ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/, FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/, HR: /^\d{11}$/, HU: /^\d{8}$/, IE: /^(?:\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/, LT: /^(?:\d{9}|\d{12})$/, LU: /^\d{8}$/, LV: /^\d{11}$/, MT: /^\d{8}$/, NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/, PT: /^\d{9}$/, RO: /^\d{2,10}$/, SE: /^\d{10}01$/, SI: /^\d{8}$/, SK: /^\d{10}$/,
  GB: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, XI: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  CH: /^E\d{9}(?:MWST|TVA|IVA)?$/, NO: /^\d{9}(?:MVA)?$/,
};

export function checkVatId(printed: string, index: number): RuleResult {
  const rule = 'BR-CO-9';
  const title = 'VAT identifier: country prefix and shape';
  const vat = compactIdentifier(printed);
  const fields = [`vat_ids.${index}`];
  const fail = (why: string): RuleResult => ({ rule, title, status: 'fail', message: `VAT ID ${printed}: ${why}.`, fields });
  if (!/^[A-Z]{2}/.test(vat)) return fail('no country prefix (two letters, e.g. DE, FR, ATU…)');
  const prefix = vat.slice(0, 2);
  if (prefix === 'GR') return fail('Greek VAT identifiers take the prefix EL, not GR');
  const shape = vatShapes[prefix];
  if (!shape) return fail(`unknown VAT prefix ${prefix}`);
  if (!shape.test(vat.slice(2))) return fail(`not the shape of a ${prefix} VAT number`);
  return { rule, title, status: 'pass', message: `VAT ID ${printed}: prefix ${prefix}, shape valid.`, fields };
}

export function identifierRules(invoice: RuleInvoice): RuleResult[] {
  const ibans = (invoice.ibans ?? []).map(checkIban);
  const vatIds = (invoice.vat_ids ?? []).map(checkVatId);
  return [
    ...(ibans.length ? ibans : [{ rule: 'IBAN', title: 'IBAN check digits (mod-97) and length', status: 'not-applicable' as const, message: 'No IBAN printed.', fields: [] }]),
    ...(vatIds.length ? vatIds : [{ rule: 'BR-CO-9', title: 'VAT identifier: country prefix and shape', status: 'not-applicable' as const, message: 'No VAT identifier printed.', fields: [] }]),
  ];
}
