/**
 * `recto export P.recto --out DIR --format invoices [--syntax ubl|cii] [--xrechnung] [--all-approved]`: the approved
 * invoices this channel has not sent yet (each once; `--all-approved`: every approved one again) as tables and EN 16931
 * e-invoices (main/corpus/invoicesExport). Prints what it wrote ("nothing new to export" where nothing was new) and
 * every approved invoice it could not turn into a valid e-invoice with the BTs it lacks; exit 0, 1 when any was left
 * out, 2 for bad usage or a refused folder. The export is recorded with the OS account (no reviewer name: the command
 * line has no settings).
 */
import path from 'node:path';
import { InvoicesExportNotRecordedError, InvoicesExportRefusedError, exportInvoices } from '../corpus/invoicesExport/writeInvoicesExport.js';
import { loadSchemaLayer } from '../import/einvoiceSchemaCheck.js';
import { ProjectFileError, ProjectStore } from '../store/projectStore.js';
import { UnsafePathError } from '../util/containedPaths.js';

type Err = NodeJS.WritableStream;

export async function invoicesExportCommand(
  positionals: string[],
  values: { out?: string; syntax?: string; xrechnung?: boolean; 'all-approved'?: boolean; status?: string; since?: string; images?: string },
  stderr: Err,
): Promise<number> {
  const fail = (message: string) => {
    stderr.write(`${message}\n`);
    return 2;
  };
  if (positionals.length !== 1) return fail('recto export: give one project file (P.recto)');
  if (!values.out) return fail('recto export: --out DIR is required');
  const syntax = values.syntax ?? 'ubl';
  if (syntax !== 'ubl' && syntax !== 'cii') return fail('recto export: --syntax must be ubl or cii');
  for (const option of ['status', 'since', 'images'] as const) {
    if (values[option] !== undefined) return fail(`recto export: --${option} is for the corpus formats, not --format invoices`);
  }
  let store: ProjectStore;
  try {
    store = await ProjectStore.openChecked(path.resolve(positionals[0]!));
  } catch (error) {
    if (error instanceof ProjectFileError) return fail(`recto export: ${error.message}`);
    throw error;
  }
  try {
    const allApproved = values['all-approved'] ?? false;
    await loadSchemaLayer(); // each e-invoice is checked against its XSD before it is written
    const summary = exportInvoices(store, { outDir: values.out, syntax, xrechnung: values.xrechnung, allApproved });
    const channel = `${syntax.toUpperCase()}${values.xrechnung ? ' XRechnung' : ''}`;
    if (allApproved) stderr.write(`recto: --all-approved: writing every approved invoice again, ${summary.alreadyExported} of them exported before as ${channel}\n`);
    for (const left of summary.notWritten) stderr.write(`recto: no e-invoice for ${left.file}: lacks ${left.missing.join(' ')}\n`);
    if (summary.invoices === 0) {
      stderr.write(`recto: nothing new to export as ${channel} (${summary.alreadyExported} approved invoice(s) exported before; --all-approved writes them again); ${summary.outDir} holds header-only tables\n`);
    } else {
      stderr.write(
        `recto: exported ${summary.invoices} invoice(s) to ${summary.outDir}: invoices.csv, lines.csv, invoices.jsonl, ` +
          `${summary.einvoicesWritten} ${syntax.toUpperCase()} e-invoice(s); ${summary.notWritten.length} approved invoice(s) without one` +
          `${summary.corrections > 0 ? `; ${summary.corrections} correction(s) of an earlier export (correction_of)` : ''}` +
          `${!allApproved && summary.alreadyExported > 0 ? `; ${summary.alreadyExported} exported before, not written again` : ''}\n`,
      );
    }
    return summary.notWritten.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof InvoicesExportRefusedError || error instanceof UnsafePathError) return fail(`recto export: ${error.message}`);
    if (error instanceof InvoicesExportNotRecordedError) {
      stderr.write(`recto export: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    store.close();
  }
}
