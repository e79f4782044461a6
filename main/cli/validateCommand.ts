/**
 * `recto validate FILE… [--json F]`: the verdict of each e-invoice — a UBL Invoice / CreditNote or CII XML, or a PDF
 * with one embedded (ZUGFeRD, Factur-X, XRechnung) — in layers: well-formedness, the XSD (libxml2,
 * main/import/einvoiceSchemaCheck.ts) and the native rule engine (app/en16931), whose verdicts are tested against the
 * official validation XSLT (docs/en16931.md).
 *
 * Exit code: 2 when any file cannot be read (its reason is printed and, with --json, written), else 1 when a schema
 * error or a fatal rule fired in any file, else 0.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RuleFailure, RuleSet, RulesChoice, SchemaVerdict, ValidationReport } from '../../app/en16931/index.js';
import { MAX_EINVOICE_BYTES } from '../../app/einvoice/index.js';
import { readEmbeddedEInvoice } from '../import/pdfAttachments.js';
import { SNIFF_BYTES, sniffMediaType } from '../import/sniffMediaType.js';
import { EINVOICE_VALIDATION_TIMEOUT_MS, validateEInvoiceReportsOffThread } from '../services/validateEInvoiceOffThread.js';

export const validateUsage = `  recto validate FILE… [--rules en16931|xrechnung] [--json F]
      Checks each e-invoice (UBL or CII XML, or a PDF with an embedded one) in layers, as the official validators:
      well-formed XML first, then the XML schema (CII: the Factur-X 1.07.3 XSD of its declared level, EN16931 where
      it declares none; UBL: the OASIS UBL 2.1 Invoice or CreditNote XSD; ZUGFeRD 1.0: its own XSD), then the
      business rules of the profile it declares (EN 16931 and its syntax binding; ZUGFeRD 1.0 by its own rules;
      Factur-X MINIMUM / BASIC WL by the EN 16931 rules on the terms they carry). A schema error is fatal; the rules
      are still run and reported beside it. --rules en16931 applies every EN 16931 business rule whatever the
      document declares; --rules xrechnung those and KoSIT's XRechnung 3.0 rules (BR-DE-*, and the PEPPOL-EN16931-R*
      it includes; docs/en16931.md lists which are implemented).
      --json F writes
      [{file, attachment?: {fileName, reason, candidates}, syntax, profile, profileName, ruleSets, layersChecked, schema, incomplete?, valid,
        failed: [{id, flag, layer, message, bt, line?, xmlLine?}]}]
      (schema: {checked, schema, valid} or {checked: false, schema, reason}; schema findings have id "XSD" and
      layer "schema"; {file, error, layer?} for an unreadable file, layer "xml" when the XML is not well-formed).
      Exit 0: valid (no fatal finding); 1: a fatal schema or rule finding; 2: a file could not be read.`;

/** A PDF may carry large attachments and images; its embedded XML is capped by the e-invoice reader itself. */
const MAX_PDF_BYTES = 200 * 1024 * 1024;

export interface FileVerdict {
  file: string;
  syntax: ValidationReport['syntax'];
  profile: string | null;
  /** The declared profile by name (app/en16931/profiles.ts). */
  profileName: string;
  ruleSets: RuleSet[];
  /** For a PDF: the attachment whose XML was validated. */
  attachment?: AttachmentChoice;
  /**
   * The layers that were checked, in order. `schema` only where the document's XSD could be checked (CII: the
   * Factur-X XSDs; UBL 2.1; ZUGFeRD 1.0): `schema` then says which, or why it was not checked.
   */
  layersChecked: FindingLayer[];
  schema: SchemaVerdict;
  /** Set for Factur-X MINIMUM / BASIC WL: not a complete invoice, and which rules that left. */
  incomplete?: string;
  valid: boolean;
  failed: (Pick<RuleFailure, 'id' | 'flag' | 'message' | 'bt' | 'line' | 'xmlLine'> & { layer: FindingLayer })[];
}

/**
 * The validation layer a finding comes from, as the official validators order them: `xml` (well-formedness), `schema`
 * (XSD), `rules` (business and syntax binding rules).
 */
export type FindingLayer = 'xml' | 'schema' | 'rules';

export interface FileError {
  file: string;
  error: string;
  /** `xml` when the file was read but is not well-formed XML (or declares a DOCTYPE, or exceeds the XML size cap). */
  layer?: 'xml';
}

class UnreadableFile extends Error {}

/** The attachment of a PDF whose XML was validated. */
export interface AttachmentChoice {
  fileName: string;
  /** Why it was chosen (its /AFRelationship, its name, its syntax, or "the only e-invoice attachment"). */
  reason?: string;
  /** How many attachments were e-invoice candidates. */
  candidates?: number;
}

/** The e-invoice XML of a file: the file itself, or the PDF's embedded e-invoice (and which attachment it is). */
async function eInvoiceXmlOf(file: string): Promise<{ xml: Uint8Array; attachment?: AttachmentChoice }> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch (error) {
    throw new UnreadableFile((error as NodeJS.ErrnoException).code ?? String(error));
  }
  if (!stat.isFile()) throw new UnreadableFile('not a file');
  const handle = await fs.promises.open(file, 'r');
  let head: Uint8Array;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const type = sniffMediaType(head);
  if (type === 'application/xml') {
    // Checked before reading, so an oversized file costs nothing (the same cap as the import's).
    if (stat.size > MAX_EINVOICE_BYTES) throw new UnreadableFile(`the XML is ${(stat.size / 1024 / 1024).toFixed(1)} MB; e-invoices over ${MAX_EINVOICE_BYTES / 1024 / 1024} MB are refused`);
    // Bytes, not text: the XML reader decodes them by the encoding they declare and refuses bytes that are not text.
    return { xml: new Uint8Array(await fs.promises.readFile(file)) };
  }
  if (type === 'application/pdf') {
    if (stat.size > MAX_PDF_BYTES) throw new UnreadableFile(`the PDF is ${(stat.size / 1024 / 1024).toFixed(0)} MB; over ${MAX_PDF_BYTES / 1024 / 1024} MB is refused`);
    let embedded;
    try {
      embedded = await readEmbeddedEInvoice(new Uint8Array(await fs.promises.readFile(file)));
    } catch (error) {
      throw new UnreadableFile(`not a readable PDF: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (embedded.status === 'none') throw new UnreadableFile('the PDF has no embedded e-invoice (no CII or UBL attachment)');
    if (embedded.status === 'refused') throw new UnreadableFile(`its embedded ${embedded.fileName} is refused: ${embedded.message}`);
    return { xml: embedded.bytes, attachment: { fileName: embedded.fileName, ...(embedded.reason ? { reason: embedded.reason } : {}), ...(embedded.candidates ? { candidates: embedded.candidates } : {}) } };
  }
  throw new UnreadableFile('neither an e-invoice XML nor a PDF');
}

/** A file's e-invoice XML, or why it has none. */
type XmlOfFile = { ok: true; xml: Uint8Array; attachment?: AttachmentChoice } | { ok: false; error: string };

/**
 * Validates the files: each one's XML read here, then all of them in one validation worker (well-formedness, schema
 * and rules; main/services/validateEInvoiceOffThread.ts) under its time and heap limits. An unreadable file (I/O, not
 * an e-invoice, malformed XML) becomes a FileError with its reason.
 */
export async function validateFiles(files: readonly string[], rules: RulesChoice = 'declared'): Promise<(FileVerdict | FileError)[]> {
  const read: XmlOfFile[] = [];
  for (const file of files) {
    try {
      read.push({ ok: true, ...(await eInvoiceXmlOf(file)) });
    } catch (error) {
      read.push({ ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  }
  const readable = read.flatMap((r) => (r.ok ? [r.xml] : []));
  const validated = readable.length > 0 ? await validateEInvoiceReportsOffThread(readable, EINVOICE_VALIDATION_TIMEOUT_MS, { rules }) : [];
  let next = 0;
  return files.map((file, i) => {
    const r = read[i]!;
    if (!r.ok) return { file, error: r.error };
    const result = validated[next++]!;
    if (!result.ok) {
      const xmlLayer = result.code === 'malformed' || result.code === 'doctype' || result.code === 'too-large';
      return { file, error: result.message, ...(xmlLayer ? { layer: 'xml' as const } : {}) };
    }
    return verdictOf(file, result.report, r.attachment);
  });
}

/** Validates one file (validateFiles for one). */
export async function validateFile(file: string, rules: RulesChoice = 'declared'): Promise<FileVerdict | FileError> {
  return (await validateFiles([file], rules))[0]!;
}

function verdictOf(file: string, report: ValidationReport, attachment: AttachmentChoice | undefined): FileVerdict {
  const failed = [...report.failed].sort((a, b) => layerRank(a) - layerRank(b) || flagRank(a.flag) - flagRank(b.flag));
  const schema = report.schema;
  return {
    file,
    ...(attachment ? { attachment } : {}),
    syntax: report.syntax,
    profile: report.profile,
    profileName: report.profileName ?? 'no profile declared',
    ruleSets: report.ruleSets,
    layersChecked: schema?.checked ? ['xml', 'schema', 'rules'] : ['xml', 'rules'],
    schema: schema ?? { checked: false, schema: 'none', reason: 'no schema layer ran' },
    ...(report.incomplete ? { incomplete: report.incomplete } : {}),
    valid: report.valid,
    failed: failed.map(({ id, flag, message, bt, line, layer, xmlLine }) => ({
      id,
      flag,
      layer: layer ?? ('rules' as const),
      message,
      bt,
      ...(line !== undefined ? { line } : {}),
      ...(xmlLine !== undefined ? { xmlLine } : {}),
    })),
  };
}

function layerRank(f: RuleFailure): number {
  return f.layer === 'schema' ? 0 : 1;
}

function flagRank(flag: RuleFailure['flag']): number {
  return flag === 'fatal' ? 0 : 1;
}

/** The text report of one file: a verdict line, then one line per fired rule (fatal first). */
export function formatVerdict(result: FileVerdict | FileError): string {
  if ('error' in result) return `${result.file}: cannot be read: ${result.error}\n`;
  const fatal = result.failed.filter((f) => f.flag === 'fatal').length;
  const warnings = result.failed.length - fatal;
  const lines = [
    `${result.file}: ${result.valid ? 'valid' : 'INVALID'} (${result.syntax}, ${result.profileName}${result.profile ? ` ${result.profile}` : ''}) — ` +
      `${fatal} fatal, ${warnings} warning${warnings === 1 ? '' : 's'}; rules: ${result.ruleSets.join(', ')}`,
  ];
  if (result.attachment) lines.push(`  attachment: ${result.attachment.fileName}${result.attachment.reason ? ` (${result.attachment.reason})` : ''}`);
  const schema = result.schema;
  lines.push(`  schema: ${schema.checked ? `${schema.schema}: ${schema.valid ? 'valid' : 'INVALID'}` : `not checked (${schema.reason})`}`);
  if (result.incomplete) lines.push(`  note: ${result.incomplete}`);
  for (const f of result.failed) {
    const where = [
      f.bt.length > 0 ? f.bt.join(', ') : null,
      f.line !== undefined ? `line ${f.line}` : null,
      f.xmlLine !== undefined ? `XML line ${f.xmlLine}` : null,
    ]
      .filter(Boolean)
      .join('; ');
    lines.push(`  ${f.flag.padEnd(7)} ${f.id.padEnd(12)} ${where ? `[${where}] ` : ''}${f.message}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes JSON next to its destination, then renames: a reader never sees a half-written report. */
function writeJsonAtomically(file: string, value: unknown): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

export async function validateCommand(args: string[], stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  let values: { json?: string; rules?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'string' }, rules: { type: 'string' } } }));
  } catch (error) {
    stderr.write(`recto validate: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (values.rules !== undefined && values.rules !== 'en16931' && values.rules !== 'xrechnung') {
    stderr.write(`recto validate: --rules ${values.rules}: the rule sets are en16931 and xrechnung\n`);
    return 2;
  }
  const rules: RulesChoice = values.rules === 'en16931' || values.rules === 'xrechnung' ? values.rules : 'declared';
  if (positionals.length === 0) {
    stderr.write(`recto validate: give at least one file\n\n${validateUsage}\n`);
    return 2;
  }
  const results = await validateFiles(positionals, rules);
  for (const result of results) ('error' in result ? stderr : stdout).write(formatVerdict(result));
  if (values.json) {
    try {
      writeJsonAtomically(path.resolve(values.json), results);
    } catch (error) {
      stderr.write(`recto validate: cannot write ${values.json}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return 2;
    }
  }
  if (results.some((r) => 'error' in r)) return 2;
  return results.some((r) => !('error' in r) && !r.valid) ? 1 : 0;
}
