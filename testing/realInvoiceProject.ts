/**
 * A project made from real invoices of the shared test set (../shared/testdata/invoice2data), read by the bundled
 * engine and corrected through the contract, as an analyst would: for tests of everything that starts from a
 * corrected project (evaluation, export formats). `available` is false where the test set is absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRectoSession } from '../main/composition/createRectoSession.js';
import { createDispatch } from '../main/services/dispatch.js';
import { createHandlers } from '../main/services/handlers.js';
import type { RectoSession } from '../main/services/rectoSession.js';
import { defaultTestdataRoot } from './testdataPaths.js';

const compare = path.join(defaultTestdataRoot, 'invoice2data', 'tests', 'compare');
export const realInvoices = ['QualityHosting.pdf', 'AmazonWebServices.pdf'].map((name) => path.join(compare, name));
export const realInvoicesAvailable = realInvoices.every((file) => fs.existsSync(file));

export interface RealInvoiceProject {
  project: string;
  /** Pages in document order with the engine's Markdown as read. */
  pages: { id: string; engineMarkdown: string }[];
}

/** A session whose data and page-image cache live under `dir`. */
export function sessionIn(dir: string): RectoSession {
  return createRectoSession({ paths: { dataDir: path.join(dir, 'data'), cacheDir: path.join(dir, 'cache') } });
}

export function contractOf(session: RectoSession) {
  return createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: (id) => `/img/${id}` }), { validateReplies: true });
}

/** The contract of `session` as a function that returns a method's result, or throws naming the method and the reply. */
export function okDispatch(session: RectoSession) {
  const dispatch = contractOf(session);
  return async <T>(method: Parameters<typeof dispatch>[0], params: unknown): Promise<T> => {
    const reply = await dispatch(method, params as never);
    if (!reply.ok) throw new Error(`${method}: ${JSON.stringify(reply)}`);
    return reply.result as T;
  };
}

/**
 * Two invoices of one seller family of `einvoice-corpus` ("Global Supplies Ltd.", a development family), rendered by
 * the same producer: the supplier-memory tests correct the first and read the second. `available` is false where the
 * testdata folder is absent (the tests print SKIPPED with `folder`).
 */
export const sameSupplierPdfs = (() => {
  const folder = path.join(defaultTestdataRoot, 'einvoice-corpus', 'pdfs');
  const first = path.join(folder, 'correct-intarsys-EN16931__zugferd_2p0_EN16931_Innergemeinschaftliche_Lieferungen.pdf');
  const next = path.join(folder, 'correct-intarsys-EXTENDED__zugferd_2p0_EXTENDED_InnergemeinschLieferungMehrereBestellungen.pdf');
  return { folder, first, next, available: fs.existsSync(first) && fs.existsSync(next) };
})();

/**
 * Imports the invoices into `dir/invoices.recto`, reads them, and saves `correct(engineMarkdown, index)` as a
 * revision of every page for which it returns a text (null leaves the page uncorrected).
 */
export async function makeRealInvoiceProject(
  dir: string,
  correct: (engineMarkdown: string, index: number) => string | null,
): Promise<RealInvoiceProject> {
  const session = sessionIn(dir);
  const dispatch = contractOf(session);
  try {
    const project = path.join(dir, 'invoices.recto');
    await dispatch('project.create', { path: project });
    await dispatch('documents.importPaths', { paths: realInvoices });
    await session.queue.idle();
    const listed = await dispatch('documents.list', {});
    if (!listed.ok) throw new Error('documents.list failed');
    const ids = (listed.result as { pages: { id: string }[] }[]).flatMap((document) => document.pages.map((page) => page.id));
    const pages = ids.map((id) => ({ id, engineMarkdown: session.store.readings.latestExtraction(id)!.markdown }));
    for (const [index, page] of pages.entries()) {
      const text = correct(page.engineMarkdown, index);
      if (text === null) continue;
      const saved = await dispatch('revisions.save', { pageId: page.id, text, parentId: null });
      if (!saved.ok) throw new Error(`revisions.save failed: ${JSON.stringify(saved)}`);
    }
    return { project, pages };
  } finally {
    await session.dispose();
  }
}
