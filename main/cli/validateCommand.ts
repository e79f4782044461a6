/**
 * `recto validate FILE… [--json F]`: the EN 16931 verdict of each e-invoice — a UBL Invoice / CreditNote or CII XML,
 * or a PDF with one embedded (ZUGFeRD, Factur-X, XRechnung) — from the native rule engine (app/en16931), whose
 * verdicts are tested against the official validation XSLT (docs/en16931.md).
 *
 * Exit code: 2 when any file cannot be read (its reason is printed and, with --json, written), else 1 when a fatal
 * rule fired in any file, else 0.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { validateEInvoiceXml, type RuleFailure, type ValidationReport } from '../../app/en16931/index.js';
import { MAX_EINVOICE_BYTES } from '../../app/einvoice/index.js';
import { readEmbeddedEInvoice } from '../import/pdfAttachments.js';
import { SNIFF_BYTES, sniffMediaType } from '../import/sniffMediaType.js';

export const validateUsage = `  recto validate FILE… [--json F]
      Checks each e-invoice (UBL or CII XML, or a PDF with an embedded one) against every EN 16931 business rule
      and prints the rules that fire, fatal first. --json F writes
      [{file, syntax, profile, valid, failed: [{id, flag, message, bt, line}]}] ({file, error} for an unreadable file).
      Exit 0: no fatal rule fired; 1: a fatal rule fired; 2: a file could not be read.`;

/** A PDF may carry large attachments and images; its embedded XML is capped by the e-invoice reader itself. */
const MAX_PDF_BYTES = 200 * 1024 * 1024;

export interface FileVerdict {
  file: string;
  syntax: ValidationReport['syntax'];
  profile: string | null;
  valid: boolean;
  failed: Pick<RuleFailure, 'id' | 'flag' | 'message' | 'bt' | 'line'>[];
}

export interface FileError {
  file: string;
  error: string;
}

class UnreadableFile extends Error {}

/** The e-invoice XML of a file: the file itself, or the PDF's embedded e-invoice. */
async function eInvoiceXmlOf(file: string): Promise<Uint8Array> {
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
    return new Uint8Array(await fs.promises.readFile(file));
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
    return embedded.bytes;
  }
  throw new UnreadableFile('neither an e-invoice XML nor a PDF');
}

/** Validates one file; an unreadable file (I/O, not an e-invoice, malformed XML) becomes a FileError with its reason. */
export async function validateFile(file: string): Promise<FileVerdict | FileError> {
  try {
    const report = validateEInvoiceXml(await eInvoiceXmlOf(file));
    const failed = [...report.failed].sort((a, b) => flagRank(a.flag) - flagRank(b.flag));
    return {
      file,
      syntax: report.syntax,
      profile: report.profile,
      valid: report.valid,
      failed: failed.map(({ id, flag, message, bt, line }) => ({ id, flag, message, bt, ...(line !== undefined ? { line } : {}) })),
    };
  } catch (error) {
    return { file, error: error instanceof Error ? error.message : String(error) };
  }
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
    `${result.file}: ${result.valid ? 'valid' : 'INVALID'} (${result.syntax}${result.profile ? `, ${result.profile}` : ''}) — ` +
      `${fatal} fatal, ${warnings} warning${warnings === 1 ? '' : 's'}`,
  ];
  for (const f of result.failed) {
    const where = [f.bt.length > 0 ? f.bt.join(', ') : null, f.line !== undefined ? `line ${f.line}` : null].filter(Boolean).join('; ');
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
  let values: { json?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'string' } } }));
  } catch (error) {
    stderr.write(`recto validate: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (positionals.length === 0) {
    stderr.write(`recto validate: give at least one file\n\n${validateUsage}\n`);
    return 2;
  }
  const results: (FileVerdict | FileError)[] = [];
  for (const file of positionals) {
    const result = await validateFile(file);
    results.push(result);
    ('error' in result ? stderr : stdout).write(formatVerdict(result));
  }
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
