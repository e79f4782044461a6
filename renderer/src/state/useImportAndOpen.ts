/**
 * Importing on the review screen, by the Import button or by dropping files anywhere on it: the document list is
 * refetched and the first imported page opens.
 */
import { useCallback } from 'react';
import type { ImportResult } from '../../../app/contract/methods.js';
import { useFileDrop } from './useFileDrop.js';
import { useImport } from './useImport.js';

export function useImportAndOpen(goTo: (pageId: string) => void, reloadDocuments: () => Promise<void>) {
  const onImported = useCallback(
    (result: ImportResult) => {
      void reloadDocuments();
      const firstPage = result.imported[0]?.pages[0]?.id;
      if (firstPage) goTo(firstPage);
    },
    [goTo, reloadDocuments],
  );
  const imports = useImport(onImported);
  const dragging = useFileDrop((files) => void imports.importFiles(files));
  return { imports, dragging };
}
