/**
 * The identifiers an invoice prints, checked by their own definitions rather than by look: an IBAN by its ISO 13616
 * length per country and mod-97 check digits, a VAT identifier by the format its member state publishes (the VIES
 * patterns; the two-letter prefix is the VAT prefix, EL for Greece, XI for Northern Ireland), a BIC by ISO 9362.
 * The one definition of each: the rules (`rules/identifierRules.ts`), the payment fields, duplicate keys, supplier
 * memory and the e-invoice writer all ask here.
 */

/** ISO 13616 IBAN length per country (the SWIFT IBAN registry), for the countries an EN 16931 invoice meets most. */
const ibanLength: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27,
  GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LI: 21, LT: 20, LU: 20,
  LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25,
  QA: 29, RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

/** VAT identifier formats per VAT prefix (EU VIES, plus GB, CH and NO which invoices into the EU carry). */
const vatIdFormat: Readonly<Record<string, RegExp>> = {
  AT: /^ATU\d{8}$/, BE: /^BE[01]\d{9}$/, BG: /^BG\d{9,10}$/, CY: /^CY\d{8}[A-Z]$/, CZ: /^CZ\d{8,10}$/,
  DE: /^DE\d{9}$/, DK: /^DK\d{8}$/, EE: /^EE\d{9}$/, EL: /^EL\d{9}$/, ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^FI\d{8}$/, FR: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/, HR: /^HR\d{11}$/, HU: /^HU\d{8}$/,
  IE: /^IE(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/, IT: /^IT\d{11}$/, LT: /^LT(\d{9}|\d{12})$/, LU: /^LU\d{8}$/,
  LV: /^LV\d{11}$/, MT: /^MT\d{8}$/, NL: /^NL\d{9}B\d{2}$/, PL: /^PL\d{10}$/, PT: /^PT\d{9}$/, RO: /^RO\d{2,10}$/,
  SE: /^SE\d{10}01$/, SI: /^SI\d{8}$/, SK: /^SK\d{10}$/, XI: /^XI(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  GB: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, CH: /^CHE\d{9}(MWST|TVA|IVA)?$/, NO: /^NO\d{9}(MVA)?$/,
};

/** VAT prefixes that are not the country's ISO 3166 code. */
const countryOfVatPrefix: Readonly<Record<string, string>> = { EL: 'GR', XI: 'GB' };

const BIC_FORMAT = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** Spaces, dots, hyphens and slashes people print inside identifiers ("DE89 3704 …"); none is part of one. */
export const compactId = (text: string): string => text.replace(/[\s.\-/]/g, '').toUpperCase();

/** ISO 7064 mod 97-10 over an IBAN (country and check digits moved to the end, letters as 10–35), digit by digit: the number is far beyond 2^53. */
function ibanRemainder(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder;
}

/** Why a text is not a valid IBAN, or null when it is. */
export function ibanProblem(text: string): string | null {
  const iban = compactId(text);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return 'not an IBAN (two letters, two check digits, then the account)';
  const expected = ibanLength[iban.slice(0, 2)];
  if (expected !== undefined && iban.length !== expected) return `${iban.length} characters, ${iban.slice(0, 2)} IBANs have ${expected}`;
  if (ibanRemainder(iban) !== 1) return 'the check digits do not match (mod 97)';
  return null;
}

/** Why a text is not a VAT identifier in its country's format, or null when it is. */
export function vatIdProblem(text: string): string | null {
  const id = compactId(text);
  const prefix = id.slice(0, 2);
  const format = vatIdFormat[prefix];
  if (!/^[A-Z]{2}/.test(id)) return 'no country prefix (two letters: DE, FR, EL, …)';
  if (prefix === 'GR') return 'Greek VAT identifiers take the prefix EL, not GR';
  if (!format) return `no VAT identifier format known for the prefix ${prefix}`;
  return format.test(id) ? null : `not in the ${prefix} VAT identifier format`;
}

/** Why a text is not a BIC (ISO 9362), or null when it is. */
export function bicProblem(text: string): string | null {
  return BIC_FORMAT.test(compactId(text)) ? null : 'a BIC has 8 or 11 characters: bank, country, location, branch';
}

/** The ISO 3166 country of a valid VAT identifier (EL → GR), null for anything else. */
export function countryOfVatId(text: string | null): string | null {
  if (!text || vatIdProblem(text) !== null) return null;
  const prefix = compactId(text).slice(0, 2);
  return countryOfVatPrefix[prefix] ?? prefix;
}
