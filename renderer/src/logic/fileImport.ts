/**
 * Browser-side import: each chosen or dropped File is sent by value (`documents.importData`, base64) or, in Electron,
 * by path. Results of several files are merged into one report so the banner lists every failure with its file name.
 */
import type { ImportResult } from '../../../app/contract/methods.js';

export const emptyImportResult: ImportResult = { imported: [], duplicates: [], errors: [] };

export function mergeImportResults(results: readonly ImportResult[]): ImportResult {
  return {
    imported: results.flatMap((r) => r.imported),
    duplicates: results.flatMap((r) => r.duplicates),
    duplicateOf: results.flatMap((r) => r.duplicateOf ?? []),
    errors: results.flatMap((r) => r.errors),
  };
}

/** Base64 of a data URL's payload ("data:application/pdf;base64,JVBE…" → "JVBE…"). */
export function base64FromDataUrl(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  if (!dataUrl.startsWith('data:') || comma < 0 || !dataUrl.slice(0, comma).endsWith(';base64')) {
    throw new Error('the browser could not read the file');
  }
  return dataUrl.slice(comma + 1);
}

/** Reads a File as base64 without building a giant string by hand (FileReader streams it natively). */
export function readFileAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(new Error(reader.error?.message ?? 'the browser could not read the file'));
    reader.onload = () => {
      try {
        resolve(base64FromDataUrl(String(reader.result)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    reader.readAsDataURL(file);
  });
}

/** "3 documents imported · 1 already in the project" — the summary line after an import. */
export function describeImport(result: ImportResult): string {
  const parts: string[] = [];
  if (result.imported.length > 0) {
    parts.push(`${result.imported.length} ${result.imported.length === 1 ? 'document' : 'documents'} imported`);
  }
  if (result.duplicates.length > 0) {
    const holder = new Map((result.duplicateOf ?? []).map((d) => [d.file, d.documentName]));
    const named = result.duplicates.map((file) => (holder.has(file) && holder.get(file) !== file ? `${file}, the same file as ${holder.get(file)}` : file));
    parts.push(`${result.duplicates.length} already in the project (${named.join('; ')})`);
  }
  if (result.errors.length > 0) {
    parts.push(`${result.errors.length} could not be imported`);
  }
  return parts.join(' · ');
}
