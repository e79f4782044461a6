/**
 * A ZUGFeRD 1.0 tax in EN 16931's terms, for an e-invoice generated from a 1.0 document. EN 16931 (2017) has no 1.0
 * binding and the ZUGFeRD 1 → 2 migration (Mustang's ZF1ToZF2.xsl) only renames elements, so the meaning comes from
 * the two code lists — FeRD's "Das ZUGFeRD-Format 1.0, Codelisten" (tax type, tax category) and EN 16931's UNCL 5305
 * subset:
 * - the tax type (ram:TypeCode): 1.0 knows VAT, ZF_INSURANCE_TAX (insurance tax) and AAJ (tax on replacement part).
 *   EN 16931 represents VAT only — its breakdown (BG-23) and categories (BT-95, BT-102, BT-118, BT-151) are VAT's — so
 *   a tax of another type is no VAT category at all: it is reported as that tax, never turned into one;
 * - the category (ram:CategoryCode): 1.0's S, Z, E, AE and O are EN 16931's codes; 1.0's IC (intra-community supply,
 *   "the VAT is levied from the invoicee") is EN 16931's K (VAT exempt for EEA intra-community supply, BR-IC-*);
 * - an absent category (the BASIC profile has no CategoryCode; COMFORT may leave it out): of 1.0's categories only S
 *   has a rate above zero ("Standard rate. Valid for regular VAT rates, e.g. 7 % or 19 % in Germany"; Z, E, AE, IC and
 *   O are 0 %), so a VAT rate above zero is S. A 0 % or absent rate could be any of the others and stays unknown.
 * A line's tax without a type (BASIC's lines state only the rate) is the document's tax of that rate: the type of the
 * header's tax rows of the same rate where they all have one type (every line's category has its breakdown row:
 * BR-CO-18 and the BR-x-08 sums), else VAT, as a tax without a stated scheme is read everywhere else.
 */
import type { Opt, TaxCategory } from '../model/semanticInvoice.js';

const VAT = 'VAT';
/** 1.0 category codes whose EN 16931 code differs. */
const EN16931_CODE_OF: Readonly<Record<string, string>> = { IC: 'K' };
/** The only 1.0 category with a rate above zero. */
const STANDARD_RATE = 'S';

export type Zugferd1Tax =
  | { vat: true; category: string | null; rate: string | null; exemptionReason: string | null; exemptionReasonCode: string | null }
  | { vat: false; taxType: string };

const text = (term: Opt): string | null => term?.text.trim() || null;
const sameRate = (a: string | null, b: string | null): boolean => a !== null && b !== null && Number(a) === Number(b);

function typeOfRate(rate: string | null, header: readonly TaxCategory[]): string {
  const types = new Set(header.filter((row) => sameRate(text(row.rate), rate)).map((row) => text(row.scheme) ?? VAT));
  return types.size === 1 ? [...types][0]! : VAT;
}

/** One 1.0 tax (a breakdown row, a line's or an allowance's tax) as EN 16931 reads it; `header`: the document's breakdown rows. */
export function zugferd1Tax(tax: TaxCategory, header: readonly TaxCategory[] = []): Zugferd1Tax {
  const rate = text(tax.rate);
  const type = text(tax.scheme) ?? typeOfRate(rate, header);
  if (type !== VAT) return { vat: false, taxType: type };
  const written = text(tax.code);
  const category = written ? (EN16931_CODE_OF[written] ?? written) : rate !== null && Number(rate) > 0 ? STANDARD_RATE : null;
  return { vat: true, category, rate, exemptionReason: text(tax.exemptionReason), exemptionReasonCode: text(tax.exemptionReasonCode) };
}

/** ZUGFeRD 1.0's tax types other than VAT, as the 1.0 code list names them. */
const TAX_TYPE_NAMES: Readonly<Record<string, string>> = { ZF_INSURANCE_TAX: 'insurance tax', AAJ: 'tax on replacement part' };

/** A tax type code with its name where 1.0's code list gives one: "ZF_INSURANCE_TAX (insurance tax)". */
export function taxTypeName(type: string): string {
  const name = TAX_TYPE_NAMES[type];
  return name ? `${type} (${name})` : type;
}
