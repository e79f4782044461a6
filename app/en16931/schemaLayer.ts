/**
 * The schema layer between well-formedness and the rules, as the official validators order them (KoSIT: XSD, then
 * schematron): which XSD a document is checked against, and its findings merged into the rule report. The check itself
 * runs on the main side (libxml2 in WebAssembly, main/einvoice/xsdValidation.ts); this part is pure.
 *
 * A schema-invalid document is never valid, but its rules are still run and reported beside the schema findings, as
 * KoSIT's report shows both, so rule verdicts stay comparable with the official XSLT.
 */
import type { RuleFailure, SchemaTarget, SchemaVerdict, ValidationReport } from './model/report.js';
import type { DeclaredProfile } from './profiles.js';

/**
 * A CII CrossIndustryInvoice is checked against the Factur-X / ZUGFeRD 2 XSD of the level it declares; one declaring
 * no level (EN 16931, XRechnung, Peppol on CII) against the EN16931 level's, which is CII D16B restricted to the
 * elements EN 16931 uses — every CII technical case of KoSIT's XRechnung 3.0 test suite passes it (docs/en16931.md).
 * A ZUGFeRD 1.0 CrossIndustryDocument predates D16B and has its own XSD.
 */
export function schemaTarget(rootName: string, declared: DeclaredProfile): SchemaTarget {
  if (rootName === 'CrossIndustryDocument') return { syntax: 'ZUGFeRD-1.0' };
  if (rootName === 'CreditNote') return { syntax: 'UBL-CreditNote' };
  if (rootName === 'Invoice') return { syntax: 'UBL-Invoice' };
  return { syntax: 'CII', facturXLevel: declared.facturXLevel ?? 'EN16931' };
}

/** A schema finding: libxml2's message, on the XML line it names. */
export interface SchemaFinding {
  message: string;
  xmlLine?: number;
}

/** The id schema findings carry in a report (KoSIT's report lists XSD errors apart from rule ids). */
export const SCHEMA_FINDING_ID = 'XSD';

/**
 * The report with the schema layer's verdict and findings: each finding fatal, first in the list; the document valid
 * only when no rule fired fatally and the schema, where it was checked, passed.
 */
export function withSchemaVerdict(report: ValidationReport, verdict: SchemaVerdict, findings: readonly SchemaFinding[] = []): ValidationReport {
  const schemaFailures: RuleFailure[] = findings.map((f) => ({
    id: SCHEMA_FINDING_ID,
    flag: 'fatal',
    message: f.message,
    bt: [],
    layer: 'schema',
    ...(f.xmlLine !== undefined ? { xmlLine: f.xmlLine } : {}),
  }));
  const schemaFailed = verdict.checked && !verdict.valid;
  return {
    ...report,
    schema: verdict,
    failed: [...schemaFailures, ...report.failed.filter((f) => f.layer !== 'schema')],
    valid: report.failed.every((f) => f.layer === 'schema' || f.flag !== 'fatal') && !schemaFailed,
  };
}
