/**
 * Every complete EN 16931 e-invoice in ../shared/testdata: the CEN's examples, the standalone e-invoice XMLs, and the
 * CII embedded in the e-invoice PDFs (read with the import's attachment reader). The differential tests mutate them;
 * the validation benchmark times them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readEmbeddedEInvoiceHere } from '../main/import/pdfAttachments.js';
import { defaultTestdataRoot } from './testdataPaths.js';

export interface CompleteEInvoice {
  /** Path under testdata, with `#embedded` for a PDF's attachment. */
  name: string;
  group: 'examples' | 'einvoices' | 'einvoice-corpus';
  xml: string;
}

const XML_FOLDERS: { dir: string; group: CompleteEInvoice['group'] }[] = [
  { dir: 'en16931/examples/ubl', group: 'examples' },
  { dir: 'en16931/examples/cii', group: 'examples' },
  { dir: 'einvoices/xml/ubl', group: 'einvoices' },
  { dir: 'einvoices/xml/cii', group: 'einvoices' },
  { dir: 'einvoice-corpus/xml/ubl', group: 'einvoice-corpus' },
  { dir: 'einvoice-corpus/xml/cii', group: 'einvoice-corpus' },
];

const PDF_FOLDERS: { dir: string; group: CompleteEInvoice['group'] }[] = [
  { dir: 'einvoices/pdfs', group: 'einvoices' },
  { dir: 'einvoice-corpus/pdfs', group: 'einvoice-corpus' },
];

export function eInvoiceCorpusAvailable(testdataRoot = defaultTestdataRoot): boolean {
  return XML_FOLDERS.every(({ dir }) => existsSync(path.join(testdataRoot, dir)));
}

function listFiles(testdataRoot: string, dir: string, extension: string): string[] {
  const full = path.join(testdataRoot, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .filter((name) => name.toLowerCase().endsWith(extension))
    .sort()
    .map((name) => path.join(dir, name));
}

/** The standalone XMLs, then (with `withPdfs`) the XML embedded in each PDF that has one. */
export async function completeEInvoices(options: { withPdfs?: boolean; testdataRoot?: string } = {}): Promise<CompleteEInvoice[]> {
  const root = options.testdataRoot ?? defaultTestdataRoot;
  const found: CompleteEInvoice[] = [];
  for (const { dir, group } of XML_FOLDERS) {
    for (const name of listFiles(root, dir, '.xml')) found.push({ name, group, xml: await readFile(path.join(root, name), 'utf8') });
  }
  if (!options.withPdfs) return found;
  for (const { dir, group } of PDF_FOLDERS) {
    for (const name of listFiles(root, dir, '.pdf')) {
      const embedded = await readEmbeddedEInvoiceHere(new Uint8Array(await readFile(path.join(root, name))));
      if (embedded.status !== 'read') continue;
      found.push({ name: `${name}#embedded`, group, xml: new TextDecoder().decode(embedded.bytes) });
    }
  }
  return found;
}
