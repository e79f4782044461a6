/**
 * A document's stored e-invoice read in a worker thread (readEInvoiceOffThread): the XML is untrusted bytes of up to
 * MAX_EINVOICE_BYTES, and the reading queue needs it for every page it reads — on the main thread a large one held the
 * browser shell's request loop once per page.
 */
import { EInvoiceError } from '../../app/einvoice/index.js';
import { readEInvoiceOffThread } from '../import/readEInvoiceOffThread.js';
import type { DocumentEInvoicesRepository, StoredEInvoice } from '../store/einvoices.js';

/** As DocumentEInvoicesRepository.get, with the XML read off the main thread. */
export async function readStoredEInvoice(repository: Pick<DocumentEInvoicesRepository, 'getStored'>, documentId: string): Promise<StoredEInvoice | null> {
  const stored = repository.getStored(documentId);
  if (stored?.status !== 'stored') return stored;
  const { fileName, xml } = stored;
  try {
    return { status: 'read', fileName, invoice: await readEInvoiceOffThread(xml, fileName), xml };
  } catch (error) {
    if (error instanceof EInvoiceError) return { status: 'refused', fileName, message: error.message };
    throw error;
  }
}
