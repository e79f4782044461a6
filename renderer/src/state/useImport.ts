/**
 * Importing documents, the same for the Import button and for drag-and-drop:
 *  - browser shell: each File is read as base64 and sent with `documents.importData`, one request per file so one bad
 *    file cannot sink the others;
 *  - Electron shell: files are named by path (`rectoBridge.pathForFile` → `documents.importPaths`), or picked in the
 *    native dialog (`dialog.importFiles`).
 * Every failure names its file and the reason, for the import banner.
 */
import { useCallback, useState } from 'react';
import { maxImportBytes, type ImportResult } from '../../../app/contract/methods.js';
import { mergeImportResults, readFileAsBase64 } from '../logic/fileImport.js';
import { useConnection } from './contractContext.js';

export interface ImportReport {
  result: ImportResult;
  /** Increments per import so the banner reappears even for an identical report. */
  serial: number;
}

export function useImport(onImported: (result: ImportResult) => void) {
  const { client, bridge } = useConnection();
  const [busy, setBusy] = useState(false);
  /** The file being sent and read into pages right now (imports of large PDFs take a while before reading starts). */
  const [current, setCurrent] = useState<{ name: string; index: number; total: number } | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);

  const finish = useCallback(
    (result: ImportResult) => {
      setReport((previous) => ({ result, serial: (previous?.serial ?? 0) + 1 }));
      onImported(result);
    },
    [onImported],
  );

  const importFiles = useCallback(
    async (files: readonly File[]) => {
      if (files.length === 0) return;
      setBusy(true);
      try {
        if (bridge) {
          setCurrent({ name: files.length === 1 ? files[0]!.name : `${files.length} files`, index: 1, total: 1 });
          const paths = files.map((file) => bridge.pathForFile(file)).filter((path) => path.length > 0);
          const unnamed = files.filter((file) => !bridge.pathForFile(file));
          const result = paths.length > 0 ? await client.call('documents.importPaths', { paths }) : undefined;
          finish(
            mergeImportResults([
              result ?? { imported: [], duplicates: [], errors: [] },
              {
                imported: [],
                duplicates: [],
                errors: unnamed.map((file) => ({ file: file.name, reason: 'it is not a file on this computer' })),
              },
            ]),
          );
          return;
        }
        const results: ImportResult[] = [];
        for (const [index, file] of files.entries()) {
          setCurrent({ name: file.name, index: index + 1, total: files.length });
          results.push(await importOneFile(file));
        }
        finish(mergeImportResults(results));
      } catch (caught) {
        finish({ imported: [], duplicates: [], errors: [{ file: files.map((f) => f.name).join(', '), reason: message(caught) }] });
      } finally {
        setBusy(false);
        setCurrent(null);
      }

      async function importOneFile(file: File): Promise<ImportResult> {
        if (file.size > maxImportBytes) {
          const limitMb = Math.round(maxImportBytes / (1024 * 1024));
          return { imported: [], duplicates: [], errors: [{ file: file.name, reason: `it is larger than ${limitMb} MB` }] };
        }
        try {
          const dataBase64 = await readFileAsBase64(file);
          return await client.call('documents.importData', { name: file.name, dataBase64 });
        } catch (caught) {
          return { imported: [], duplicates: [], errors: [{ file: file.name, reason: message(caught) }] };
        }
      }
    },
    [bridge, client, finish],
  );

  const importViaDialog = useCallback(async () => {
    setBusy(true);
    try {
      setCurrent({ name: 'the chosen files', index: 1, total: 1 });
      const result = await client.call('dialog.importFiles', {});
      if (result) finish(result);
    } catch (caught) {
      finish({ imported: [], duplicates: [], errors: [{ file: 'Import', reason: message(caught) }] });
    } finally {
      setBusy(false);
      setCurrent(null);
    }
  }, [client, finish]);

  return { importFiles, importViaDialog, busy, current, report, dismissReport: () => setReport(null) };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
