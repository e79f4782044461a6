/**
 * Which profile an e-invoice declares (BT-24: UBL CustomizationID, CII GuidelineSpecifiedDocumentContextParameter/ID)
 * and what that means for validation. Profiles are recognised by the identifiers their specifications publish:
 * EN 16931 `urn:cen.eu:en16931:2017`, CIUS and extensions after `#compliant#` / `#conformant#` (XRechnung
 * `urn:xeinkauf.de:kosit:xrechnung_…`, Peppol BIS `urn:fdc:peppol.eu:2017:poacc:billing:3.0`, Factur-X / ZUGFeRD 2
 * `urn:factur-x.eu:1p0:…`, `urn:zugferd.de:2p0:…`), ZUGFeRD 1.0 `urn:ferd:CrossIndustryDocument:invoice:1p0:…`.
 *
 * Factur-X / ZUGFeRD 2 MINIMUM and BASIC WL are not EN 16931 invoices (their identifiers carry no `urn:cen.eu`): they
 * are a header without lines, for booking, not for VAT deduction. They are checked against the EN 16931 rules on the
 * terms the profile carries — a rule reading any term outside it is not applicable — so a MINIMUM invoice is not
 * failed for lacking lines or addresses its profile has no place for.
 */
export type ProfileFamily = 'en16931' | 'xrechnung' | 'peppol' | 'factur-x' | 'zugferd1' | 'unknown';

export interface DeclaredProfile {
  /** A reader's name for it: "XRechnung 3.0", "Factur-X MINIMUM", "ZUGFeRD 1.0 COMFORT", "EN 16931". */
  name: string;
  family: ProfileFamily;
  /** False for MINIMUM and BASIC WL: not a complete invoice in EN 16931's sense. */
  complete: boolean;
  /** For an incomplete profile: whether a rule's term is one the profile carries. */
  carries?: (term: string) => boolean;
  /** The Factur-X / ZUGFeRD 2 level the identifier names (its XSD is that level's), if any. */
  facturXLevel?: FacturXLevel;
}

export type FacturXLevel = 'MINIMUM' | 'BASICWL' | 'BASIC' | 'EN16931' | 'EXTENDED';

/**
 * Factur-X 1.0 MINIMUM (FNFE/FeRD semantic model, MINIMUM column): document number, date, type, currency, buyer
 * reference, purchase order reference, process and specification identifiers, seller name, identifiers, VAT and tax
 * registration and country, buyer name and legal registration, and the totals without VAT, VAT, with VAT and due.
 */
const MINIMUM_TERMS = new Set([
  'BG-2', 'BT-1', 'BT-2', 'BT-3', 'BT-5', 'BT-10', 'BT-13', 'BT-23', 'BT-24',
  'BG-4', 'BT-27', 'BT-30', 'BT-31', 'BT-32', 'BG-5', 'BT-40',
  'BG-7', 'BT-44', 'BT-47',
  'BG-22', 'BT-109', 'BT-110', 'BT-112', 'BT-115',
]);

/** BASIC WL ("without lines") is EN 16931's document level: every term except the invoice lines BG-25…BG-31 (BT-126…BT-161). */
function basicWlCarries(term: string): boolean {
  const [kind, number] = [term.slice(0, 2), Number(term.slice(3))];
  if (kind === 'BG') return number < 25 || number > 31;
  return !(number >= 126 && number <= 161);
}

const FACTURX_LEVEL = /urn:(?:factur-x\.eu:1p0|zugferd\.de:2p0):(minimum|basicwl|basic|extended|en16931)\b/i;
const XRECHNUNG = /urn:xeinkauf\.de:kosit:xrechnung_(\d+(?:\.\d+)?)|urn:xoev-de:kosit:standard:xrechnung_(\d+(?:\.\d+)?)/i;
const ZUGFERD1 = /^urn:ferd:CrossIndustryDocument:invoice:1p0(?::(basic|comfort|extended))?/i;

export function declaredProfile(specification: string | null): DeclaredProfile {
  const id = specification?.trim() ?? '';
  const zugferd1 = ZUGFERD1.exec(id);
  if (zugferd1) return { name: `ZUGFeRD 1.0${zugferd1[1] ? ` ${zugferd1[1].toUpperCase()}` : ''}`, family: 'zugferd1', complete: true };
  const level = FACTURX_LEVEL.exec(id)?.[1]?.toLowerCase();
  const facturXLevel = level ? (level.toUpperCase() as FacturXLevel) : undefined;
  if (level === 'minimum') return { name: 'Factur-X MINIMUM', family: 'factur-x', complete: false, carries: (t) => MINIMUM_TERMS.has(t), facturXLevel: 'MINIMUM' };
  if (level === 'basicwl') return { name: 'Factur-X BASIC WL', family: 'factur-x', complete: false, carries: basicWlCarries, facturXLevel: 'BASICWL' };
  const xrechnung = XRECHNUNG.exec(id);
  if (xrechnung) return { name: `XRechnung ${xrechnung[1] ?? xrechnung[2]}`, family: 'xrechnung', complete: true };
  if (/urn:fdc:peppol\.eu:2017:poacc:billing:3\.0/i.test(id)) return { name: 'Peppol BIS Billing 3.0', family: 'peppol', complete: true };
  if (level) return { name: `Factur-X ${level === 'en16931' ? 'EN 16931 (COMFORT)' : level.toUpperCase()}`, family: 'factur-x', complete: true, ...(facturXLevel ? { facturXLevel } : {}) };
  if (/^urn:cen\.eu:en16931:2017/i.test(id)) return { name: 'EN 16931', family: 'en16931', complete: true };
  return { name: id ? `undeclared profile (${id.slice(0, 120)})` : 'no profile declared', family: 'unknown', complete: true };
}
