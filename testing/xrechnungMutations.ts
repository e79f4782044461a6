/**
 * Mutants aimed at what XRechnung's rules read (contacts, addresses, buyer reference, payment means and their
 * accounts, VAT rates, type codes, the specification identifier), for the differential test against KoSIT's XSLT.
 * The general EN 16931 mutants (en16931Mutations.ts) rarely touch these; these are built from the rules' vocabulary —
 * the UBL and CII element names of BT-10, BG-6, BT-37/38/41–43/52/53/77/78, BG-16…19, BT-119, BT-3, BT-24, BT-31/32
 * and BG-11, BT-84/89/90/91, BT-125, and for the Peppol rules XRechnung includes BT-23, BT-34/49, BT-6, BT-110/111,
 * BT-128, BT-149, and the allowances, charges, line amounts, line periods and VAT totals of R040–R043, R055,
 * R110/R111 and R120 — never from a test file. Each mutant changes one thing; string edits on the text keep everything else byte for byte.
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
  // BR-DE-16: the seller's VAT / tax registration and the tax representative; BR-DE-30/31: direct debit's parts.
  'PartyTaxScheme', 'SpecifiedTaxRegistration', 'TaxRepresentativeParty', 'SellerTaxRepresentativeTradeParty', 'PartyIdentification',
  'PaymentMandate', 'PayerFinancialAccount', 'DirectDebitMandateID', 'CreditorReferenceID', 'PayerPartyDebtorFinancialAccount',
  // The PEPPOL-EN16931 rules XRechnung includes: process id, electronic addresses, tax totals.
  'ProfileID', 'BusinessProcessSpecifiedDocumentContextParameter', 'EndpointID', 'URIUniversalCommunication', 'TaxTotal', 'TaxTotalAmount',
  // R040–R042: an allowance's or charge's percentage or base amount alone.
  'MultiplierFactorNumeric', 'BaseAmount', 'CalculationPercent', 'BasisAmount',
];
/** Elements removed all at once (a seller with two registrations keeps one when a single one goes). */
const REMOVED_ALL = ['PartyTaxScheme', 'SpecifiedTaxRegistration', 'PartyIdentification'];
/** At most this many occurrences of one name are removed, each in its own mutant. */
const PER_NAME = 3;

const elementPattern = (name: string): RegExp => new RegExp(`<([\\w.-]+:)?${name}\\b[^>]*?(?:/>|>[\\s\\S]*?</\\1?${name}>)`, 'g');

export function xrechnungMutants(xml: string): TargetedMutant[] {
  const out: TargetedMutant[] = [];
  for (const name of REMOVED) {
    const matches = [...xml.matchAll(elementPattern(name))].slice(0, PER_NAME);
    matches.forEach((m, i) => out.push({ change: `remove ${name} #${i + 1}`, xml: xml.slice(0, m.index) + xml.slice(m.index + m[0].length) }));
  }
  for (const name of REMOVED_ALL) {
    const stripped = xml.replace(elementPattern(name), '');
    if (stripped !== xml) out.push({ change: `remove every ${name}`, xml: stripped });
  }
  // Texts replaced: telephone numbers with fewer than three digits (BR-DE-27), e-mail addresses KoSIT's shape refuses
  // (BR-DE-28), IBANs with a wrong check, in lower case, spaced (BR-DE-19/20), a SEPA scheme spelled otherwise (BR-DE-30).
  const replacements: [string, string][] = [
    ['Telephone', '12'], ['CompleteNumber', '+49 (0) 1x'], ['Telephone', 'call 1 2 3'],
    ['ElectronicMail', 'seller@example'], ['ElectronicMail', 'seller @example.org'], ['ElectronicMail', 'a@b@example.org'],
  ];
  for (const [name, text] of replacements) {
    const m = new RegExp(`(<([\\w.-]+:)?${name}\\b[^>/]*>)[^<]*(</\\2?${name}>)`).exec(xml);
    if (m) out.push({ change: `${name} "${text}"`, xml: xml.slice(0, m.index) + `${m[1]}${text}${m[3]}` + xml.slice(m.index + m[0].length) });
  }
  // CII's e-mail address (BT-43) is the URIID inside EmailURIUniversalCommunication (other URIIDs are BT-34/49).
  const ciiEmail = /(<([\w.-]+:)?EmailURIUniversalCommunication>\s*<([\w.-]+:)?URIID\b[^>/]*>)[^<]*(<\/\3?URIID>)/.exec(xml);
  for (const text of ['seller@example', 'a@b@example.org', 'seller@.example.org']) {
    if (ciiEmail) out.push({ change: `EmailURIUniversalCommunication "${text}"`, xml: xml.slice(0, ciiEmail.index) + `${ciiEmail[1]}${text}${ciiEmail[4]}` + xml.slice(ciiEmail.index + ciiEmail[0].length) });
  }
  for (const account of ['IBANID', 'PayeeFinancialAccount', 'PayerFinancialAccount']) {
    const pattern = account === 'IBANID' ? /(<([\w.-]+:)?IBANID>)([^<]*)(<\/\2?IBANID>)/g : new RegExp(`(<([\\w.-]+:)?${account}>\\s*<([\\w.-]+:)?ID>)([^<]*)(</\\3?ID>)`, 'g');
    for (const m of [...xml.matchAll(pattern)].slice(0, 2)) {
      const [open, iban, close] = account === 'IBANID' ? [m[1]!, m[3]!, m[4]!] : [m[1]!, m[4]!, m[5]!];
      const last = iban.trim().slice(-1);
      const variants: [string, string][] = [
        ['check digit changed', iban.trim().slice(0, -1) + (last === '9' ? '0' : String(Number.isNaN(Number(last)) ? 1 : Number(last) + 1))],
        ['lower case', iban.toLowerCase()],
        ['spaced', iban.trim().replace(/(.{4})/g, '$1 ').trim()],
      ];
      for (const [what, text] of variants) out.push({ change: `${account} ${what}`, xml: xml.slice(0, m.index) + open + text + close + xml.slice(m.index! + m[0].length) });
    }
  }
  // PEPPOL-EN16931-R121: a base quantity of zero; R005/R054: a tax currency equal to the invoice's; R053: a tax total
  // repeated; R101: a line's document reference with another type code.
  for (const name of ['BaseQuantity', 'BasisQuantity']) {
    const m = new RegExp(`(<([\\w.-]+:)?${name}\\b[^>/]*>)[^<]*(</\\2?${name}>)`).exec(xml);
    if (m) out.push({ change: `${name} 0`, xml: xml.slice(0, m.index) + `${m[1]}0${m[3]}` + xml.slice(m.index + m[0].length) });
  }
  const currency = /<(([\w.-]+:)?)(DocumentCurrencyCode|InvoiceCurrencyCode)\b[^>]*>([^<]*)<\/\1\3>/.exec(xml);
  if (currency) {
    const element = `<${currency[1]}TaxCurrencyCode>${currency[4]}</${currency[1]}TaxCurrencyCode>`;
    const at = currency[3] === 'DocumentCurrencyCode' ? currency.index + currency[0].length : currency.index;
    out.push({ change: 'TaxCurrencyCode = the invoice currency', xml: xml.slice(0, at) + element + xml.slice(at) });
  }
  for (const name of ['TaxTotal', 'TaxTotalAmount']) {
    const m = elementPattern(name).exec(xml);
    if (m) out.push({ change: `${name} repeated`, xml: xml.slice(0, m.index + m[0].length) + m[0] + xml.slice(m.index + m[0].length) });
  }
  const lineReference = /(<([\w.-]+:)?(?:InvoiceLine|CreditNoteLine)>[\s\S]*?<([\w.-]+:)?DocumentReference>[\s\S]*?<([\w.-]+:)?DocumentTypeCode>)130(<)/.exec(xml);
  if (lineReference) out.push({ change: 'line DocumentTypeCode 916', xml: xml.slice(0, lineReference.index) + `${lineReference[1]}916${lineReference[5]}` + xml.slice(lineReference.index + lineReference[0].length) });
  // R130: a base quantity's unit other than the line quantity's; R044: a price-level charge; R046: a net price that is
  // no longer gross − allowance (UBL PriceAmount; CII the net price's ChargeAmount).
  const baseUnit = /(<([\w.-]+:)?(?:BaseQuantity|BasisQuantity)\b[^>]*unitCode=")([^"]*)(")/.exec(xml);
  if (baseUnit) out.push({ change: 'base quantity unit H87', xml: xml.slice(0, baseUnit.index) + `${baseUnit[1]}${baseUnit[3] === 'H87' ? 'C62' : 'H87'}${baseUnit[4]}` + xml.slice(baseUnit.index + baseUnit[0].length) });
  const priceCharge = /(<([\w.-]+:)?Price>[\s\S]*?<([\w.-]+:)?AllowanceCharge>\s*<([\w.-]+:)?ChargeIndicator>)false(<)/.exec(xml);
  if (priceCharge) out.push({ change: 'price allowance → charge', xml: xml.slice(0, priceCharge.index) + `${priceCharge[1]}true${priceCharge[5]}` + xml.slice(priceCharge.index + priceCharge[0].length) });
  const grossCharge = /(<([\w.-]+:)?GrossPriceProductTradePrice>[\s\S]*?<([\w.-]+:)?Indicator>)false(<)/.exec(xml);
  if (grossCharge) out.push({ change: 'gross price allowance → charge', xml: xml.slice(0, grossCharge.index) + `${grossCharge[1]}true${grossCharge[4]}` + xml.slice(grossCharge.index + grossCharge[0].length) });
  const netPrice = /(<([\w.-]+:)?(?:PriceAmount|NetPriceProductTradePrice>\s*<([\w.-]+:)?ChargeAmount)\b[^>]*>)([0-9.]+)(<)/.exec(xml);
  if (netPrice) out.push({ change: 'net price + 1', xml: xml.slice(0, netPrice.index) + `${netPrice[1]}${(Number(netPrice[4]) + 1).toString()}${netPrice[5]}` + xml.slice(netPrice.index + netPrice[0].length) });
  // R043: an allowance/charge indicator that is neither true nor false; R040: an amount no longer base × percent / 100;
  // R120: a line net amount off by one; R110/R111: a line period outside the invoice's; R055: a VAT total's sign flipped.
  for (const m of [...xml.matchAll(/(<([\w.-]+:)?(?:ChargeIndicator>\s*<([\w.-]+:)?Indicator|ChargeIndicator)>)\s*(true|false)\s*(<)/g)].slice(0, 2)) {
    out.push({ change: `charge indicator "yes" at ${m.index}`, xml: xml.slice(0, m.index) + `${m[1]}yes${m[5]}` + xml.slice(m.index! + m[0].length) });
  }
  for (const name of ['Amount', 'ActualAmount', 'LineExtensionAmount']) {
    const m = new RegExp(`(<([\\w.-]+:)?${name}\\b[^>/]*>)\\s*(-?[0-9.]+)\\s*(</\\2?${name}>)`).exec(xml);
    if (m) out.push({ change: `${name} + 1`, xml: xml.slice(0, m.index) + `${m[1]}${(Number(m[3]) + 1).toFixed(2)}${m[4]}` + xml.slice(m.index + m[0].length) });
  }
  for (const name of ['StartDate', 'EndDate']) {
    const dates = [...xml.matchAll(new RegExp(`(<([\\w.-]+:)?${name}>)(\\d{4})(-\\d{2}-\\d{2})(</\\2?${name}>)`, 'g'))];
    const last = dates[dates.length - 1];
    if (dates.length > 1 && last) {
      const year = Number(last[3]) + (name === 'StartDate' ? -1 : 1);
      out.push({ change: `last ${name} moved a year out`, xml: xml.slice(0, last.index) + `${last[1]}${year}${last[4]}${last[5]}` + xml.slice(last.index! + last[0].length) });
    }
  }
  const ciiDates = [...xml.matchAll(/(<([\w.-]+:)?(StartDateTime|EndDateTime)>\s*<([\w.-]+:)?DateTimeString\b[^>]*>)(\d{4})(\d{4})(<)/g)];
  for (const kind of ['StartDateTime', 'EndDateTime']) {
    const last = ciiDates.filter((d) => d[3] === kind).pop();
    if (last && ciiDates.filter((d) => d[3] === kind).length > 1) {
      const year = Number(last[5]) + (kind === 'StartDateTime' ? -1 : 1);
      out.push({ change: `last ${kind} moved a year out`, xml: xml.slice(0, last.index) + `${last[1]}${year}${last[6]}${last[7]}` + xml.slice(last.index! + last[0].length) });
    }
  }
  for (const name of ['TaxAmount', 'TaxTotalAmount']) {
    const m = new RegExp(`(<([\\w.-]+:)?${name}\\b[^>/]*>)\\s*([0-9.]+)\\s*(</\\2?${name}>)`).exec(xml);
    if (m && Number(m[3]) !== 0) out.push({ change: `${name} negated`, xml: xml.slice(0, m.index) + `${m[1]}-${m[3]}${m[4]}` + xml.slice(m.index + m[0].length) });
  }
  // BR-DE-18: Skonto lines in the first payment terms note (UBL Note, CII Description), well and badly formed.
  const note = /(<([\w.-]+:)?(?:PaymentTerms|SpecifiedTradePaymentTerms)>\s*<([\w.-]+:)?(?:Note|Description)>)[^<]*(<\/)/.exec(xml);
  const skonto: [string, string][] = [
    ['Skonto line', '#SKONTO#TAGE=14#PROZENT=2.00#\n'],
    ['Skonto line with base amount', 'Zahlbar binnen 30 Tagen\n#SKONTO#TAGE=7#PROZENT=3.00#BASISBETRAG=100.00#\n'],
    ['Skonto line without its line break', '#SKONTO#TAGE=14#PROZENT=2.00#'],
    ['Skonto percent without decimals', '#SKONTO#TAGE=14#PROZENT=2#\n'],
    ['Skonto lower case', '#skonto#TAGE=14#PROZENT=2.00#\n'],
    ['Skonto with CRLF', '#SKONTO#TAGE=14#PROZENT=2.00#\r\n'],
  ];
  for (const [what, text] of skonto) {
    if (note) out.push({ change: what, xml: xml.slice(0, note.index) + note[1] + text + note[4] + xml.slice(note.index + note[0].length) });
  }
  const sepa = /schemeID="SEPA"/.exec(xml);
  if (sepa) out.push({ change: 'schemeID SEPA → sepa', xml: xml.slice(0, sepa.index) + 'schemeID="sepa"' + xml.slice(sepa.index + sepa[0].length) });
  // BR-DE-22: a supporting document's reference repeated (the same attachment filename twice).
  for (const name of ['AdditionalDocumentReference', 'AdditionalReferencedDocument']) {
    const m = [...xml.matchAll(elementPattern(name))].find((r) => /filename=/.test(r[0]));
    if (m) out.push({ change: `${name} repeated`, xml: xml.slice(0, m.index! + m[0].length) + m[0] + xml.slice(m.index! + m[0].length) });
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
