/**
 * Mutants aimed at what XRechnung's rules read (contacts, addresses, buyer reference, payment means and their
 * accounts, VAT rates, type codes, the specification identifier), for the differential test against KoSIT's XSLT.
 * The general EN 16931 mutants (en16931Mutations.ts) rarely touch these; these are built from the rules' vocabulary —
 * the UBL and CII element names of BT-10, BG-6, BT-37/38/41–43/52/53/77/78, BG-16…19, BT-119, BT-3, BT-24 — never
 * from a test file. Each mutant changes one thing; string edits on the text keep everything else byte for byte.
 */
export interface TargetedMutant {
  change: string;
  xml: string;
}

/** Elements removed one occurrence at a time (local names, both syntaxes). */
const REMOVED = [
  'PaymentMeans', 'SpecifiedTradeSettlementPaymentMeans', 'BuyerReference', 'Contact', 'DefinedTradeContact', 'CityName', 'PostalZone',
  'PostcodeCode', 'Name', 'PersonName', 'DepartmentName', 'Telephone', 'TelephoneUniversalCommunication', 'ElectronicMail',
  'EmailURIUniversalCommunication', 'Percent', 'RateApplicablePercent', 'PayeeFinancialAccount', 'PayeePartyCreditorFinancialAccount',
  'PostalAddress', 'PostalTradeAddress', 'BillingReference', 'InvoiceReferencedDocument', 'CustomizationID',
];
/** At most this many occurrences of one name are removed, each in its own mutant. */
const PER_NAME = 3;

const elementPattern = (name: string): RegExp => new RegExp(`<([\\w.-]+:)?${name}\\b[^>]*?(?:/>|>[\\s\\S]*?</\\1?${name}>)`, 'g');

export function xrechnungMutants(xml: string): TargetedMutant[] {
  const out: TargetedMutant[] = [];
  for (const name of REMOVED) {
    const matches = [...xml.matchAll(elementPattern(name))].slice(0, PER_NAME);
    matches.forEach((m, i) => out.push({ change: `remove ${name} #${i + 1}`, xml: xml.slice(0, m.index) + xml.slice(m.index + m[0].length) }));
  }
  // Blank texts: an element present with nothing but spaces (the rules test normalize-space).
  for (const name of ['CityName', 'PostalZone', 'PostcodeCode', 'BuyerReference', 'Telephone', 'CompleteNumber', 'ElectronicMail', 'URIID']) {
    const m = new RegExp(`(<([\\w.-]+:)?${name}\\b[^>/]*>)[^<]*(</\\2?${name}>)`).exec(xml);
    if (m) out.push({ change: `blank ${name}`, xml: xml.slice(0, m.index) + `${m[1]}  ${m[3]}` + xml.slice(m.index + m[0].length) });
  }
  // Payment means codes: credit transfer, card, direct debit, other.
  const ublCode = /(<([\w.-]+:)?PaymentMeansCode\b[^>]*>)[^<]*(<\/\2?PaymentMeansCode>)/.exec(xml);
  const ciiMeans = /<([\w.-]+:)?SpecifiedTradeSettlementPaymentMeans>[\s\S]*?<\/\1?SpecifiedTradeSettlementPaymentMeans>/.exec(xml);
  for (const code of ['30', '58', '48', '54', '59', '1']) {
    if (ublCode) out.push({ change: `payment means code ${code}`, xml: xml.slice(0, ublCode.index) + `${ublCode[1]}${code}${ublCode[3]}` + xml.slice(ublCode.index + ublCode[0].length) });
    if (ciiMeans) {
      const block = ciiMeans[0].replace(/(<([\w.-]+:)?TypeCode>)[^<]*(<\/\2?TypeCode>)/, `$1${code}$3`);
      out.push({ change: `payment means code ${code}`, xml: xml.slice(0, ciiMeans.index) + block + xml.slice(ciiMeans.index + ciiMeans[0].length) });
    }
  }
  // Document type codes: a corrected invoice, and one XRechnung does not list.
  const ublType = /(<([\w.-]+:)?(?:InvoiceTypeCode|CreditNoteTypeCode)\b[^>]*>)[^<]*(<\/\2?(?:InvoiceTypeCode|CreditNoteTypeCode)>)/.exec(xml);
  const ciiType = /(<([\w.-]+:)?ExchangedDocument>[\s\S]*?<([\w.-]+:)?TypeCode>)[^<]*(<\/\3?TypeCode>)/.exec(xml);
  for (const code of ['384', '393']) {
    const m = ublType ?? ciiType;
    if (!m) break;
    const replaced = ublType ? `${m[1]}${code}${m[3]}` : `${m[1]}${code}${m[4]}`;
    out.push({ change: `type code ${code}`, xml: xml.slice(0, m.index) + replaced + xml.slice(m.index + m[0].length) });
  }
  // The specification identifier: plain EN 16931 (BR-DE-21), in both syntaxes.
  const spec = /(urn:cen\.eu:en16931:2017)#compliant#urn:xeinkauf\.de:kosit:xrechnung_3\.0[^<]*/.exec(xml);
  if (spec) out.push({ change: 'specification identifier EN 16931', xml: xml.slice(0, spec.index) + spec[1] + xml.slice(spec.index + spec[0].length) });
  return out;
}
