/** What validation returns: the rules that fired, in the schematron's words, and the rules a page could not feed. */
export type RuleFlag = 'fatal' | 'warning';

export interface RuleFailure {
  id: string;
  flag: RuleFlag;
  message: string;
  /** The business terms / groups the rule concerns (BT-…, BG-…). */
  bt: string[];
  /** The invoice line's BT-126 identifier, for rules evaluated per line. */
  line?: string;
  /** `schema` for an XSD finding (schemaLayer.ts); absent for a rule's. */
  layer?: 'schema';
  /** The line of the XML text a schema finding is on (libxml2 names lines, not columns, for schema errors). */
  xmlLine?: number;
}

/**
 * The XML schema (XSD) a document is checked against before its rules, as the official validators do (KoSIT: XSD,
 * then schematron): the XSD of its syntax and, for CII, of its declared Factur-X / ZUGFeRD 2 level.
 */
export type SchemaTarget =
  | { syntax: 'CII'; facturXLevel: 'MINIMUM' | 'BASICWL' | 'BASIC' | 'EN16931' | 'EXTENDED' }
  | { syntax: 'UBL-Invoice' | 'UBL-CreditNote' }
  | { syntax: 'ZUGFeRD-1.0' };

/** The schema layer's outcome: checked against a named XSD (and whether it passed), or not checked and why. */
export type SchemaVerdict = { checked: true; schema: string; valid: boolean } | { checked: false; schema: string; reason: string };

export type EInvoiceSyntax = 'UBL-Invoice' | 'UBL-CreditNote' | 'CII';

/**
 * The rule sets a report applies: `en16931` the EN 16931 business rules (BR-*), `en16931-syntax` the syntax binding
 * rules of the document's syntax (UBL-CR/SR/DT, CII-SR/DT), `zugferd1` ZUGFeRD 1.0's own rules (zugferd1/),
 * `xrechnung` the subset of KoSIT's XRechnung 3.0 rules that is implemented (xrechnung/).
 */
export type RuleSet = 'en16931' | 'en16931-syntax' | 'zugferd1' | 'xrechnung';

export interface ValidationReport {
  syntax: EInvoiceSyntax;
  /** BT-24, the specification identifier (e.g. urn:cen.eu:en16931:2017). */
  profile: string | null;
  /** The profile BT-24 declares, by name ("XRechnung 3.0", "Factur-X MINIMUM", "ZUGFeRD 1.0 COMFORT"; profiles.ts). */
  profileName?: string;
  /**
   * Set when the profile is not a complete invoice (Factur-X MINIMUM, BASIC WL): says so, and that only the rules on
   * the terms it carries were applied.
   */
  incomplete?: string;
  /** The rule sets applied, in order (what the document declares, or what the caller forced). */
  ruleSets: RuleSet[];
  /** True when no fatal rule fired. */
  valid: boolean;
  failed: RuleFailure[];
  /** Ids of rules whose inputs the source does not carry (page-read invoices); never counted as failed. */
  notApplicable: string[];
  /** The XSD the document is to be checked against (set by validateEInvoiceXml; the check itself needs main/). */
  schemaTarget?: SchemaTarget;
  /** The schema layer's outcome, once checked (withSchemaVerdict); absent where no schema layer ran. */
  schema?: SchemaVerdict;
}
