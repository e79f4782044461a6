/**
 * Another project opened read-only, to read its pages as bundles (a merge takes from it and never writes it): the
 * same checks as opening for writing — a Recto project, not written by a newer Recto, its schema exactly Recto's —
 * then nothing but reads.
 */
import { openProjectDatabaseReadOnly } from '../file/openProjectDatabase.js';
import { bundleReader, type BundleReader } from './pageBundles.js';
import { invoiceExportsToCarry, type CarriedInvoiceExport } from '../invoiceExports.js';

export interface ReadOnlyProject {
  bundles: BundleReader;
  /** Its invoices exports, to carry (invoiceExports.ts). */
  invoiceExports(): CarriedInvoiceExport[];
  close(): void;
}

/** Checked before any query: header, and a schema exactly Recto's (projectFileCheck.ts). */
export function openProjectReadOnly(file: string): ReadOnlyProject {
  const db = openProjectDatabaseReadOnly(file);
  return { bundles: bundleReader(db), invoiceExports: () => invoiceExportsToCarry(db), close: () => db.close() };
}
