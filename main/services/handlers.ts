/**
 * The contract's methods, bound to a session. Each handler receives parameters already validated against the
 * contract (dispatch.ts) and returns the reply; shells add only what differs between them (dialogs, image URLs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MethodName, ReplyOf } from '../../app/contract/methods.js';
import type { z } from 'zod';
import type { contractMethods } from '../../app/contract/methods.js';
import { PAGE_ID_SLOT } from '../../app/contract/methods.js';
import type { RectoSession } from './rectoSession.js';
import { packageVersion } from '../util/packageRoot.js';
import { ExportJobs } from '../corpus/exportJob.js';
import { EvaluationJobs } from '../evaluate/evaluationJobs.js';
import { importCorpus } from '../corpus/importCorpus.js';
import { mergeProjectInto } from '../corpus/mergeProjects.js';
import { validateProjectFile } from '../store/file/validateProjectFile.js';
import { seedPageImage } from '../corpus/pageImages.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { einvoiceValidation, prepareEInvoiceReports, withEInvoiceSignals } from './einvoiceValidation.js';
import { learnFromApproval, learnFromDocument, takeSupplierMemoryFromCorpus, takeSupplierMemoryFromProject } from './supplierLearning.js';
import { supplierHandlers } from './supplierHandlers.js';
import { matchingHandlers } from './matchingHandlers.js';
import { invoiceQueueHandlers } from './invoiceQueueHandlers.js';
import { withMatchSignals } from './poMatchExceptions.js';
import { approvalCheck, approve, setReviewStatusBy, withApprovalSignals, withDuplicateSignals, withReviewedBy } from './approval.js';
import { exportInvoices } from '../corpus/invoicesExport/writeInvoicesExport.js';
import { loadSchemaLayer } from '../import/einvoiceSchemaCheck.js';
import { paymentFieldsOf } from '../corpus/invoicesExport/paymentFieldsOf.js';
import { reopenChanged } from '../store/approvalSeals.js';
import { publicEvent } from '../store/reviewEvents.js';
import { documentFieldsOf, pageReviewOf } from './pageReview.js';
import { actorOf, singleUser, type RequestContext } from './requestContext.js';
import { settingsFor, setSettingsFor } from './teamSettings.js';
import { conflictHandlers, saveFieldEdit, saveTextEdit } from './conflictHandlers.js';

type Params<M extends MethodName> = z.output<(typeof contractMethods)[M]['request']>;
/** A method's handler: its validated parameters and who the request acts for (requestContext.ts; absent: the single-user app). */
export type Handlers = { [M in MethodName]: (params: Params<M>, context?: RequestContext) => Promise<ReplyOf<M>> | ReplyOf<M> };

/** What each shell provides. */
export interface ShellBindings {
  shell: 'electron' | 'browser';
  /** URL under which the renderer can load a page's image in this shell (for the request's person: team mode). */
  pageImageUrl(pageId: string, context?: RequestContext): string;
  /** URL under which this shell serves the open project's latest evaluation report (absent: no link is offered). */
  evaluationReportUrl?(context?: RequestContext): string;
  /** Native dialogs; absent in the browser shell. */
  dialogs?: {
    chooseProject(): Promise<{ path: string; create: boolean } | null>;
    chooseFilesToImport(): Promise<string[] | null>;
    /** A folder to export the corpus into (may be created in the dialog); null when cancelled. */
    chooseExportFolder(defaultPath: string | undefined): Promise<string | null>;
  };
}

export class UnsupportedInShellError extends CodedError {
  override name = 'UnsupportedInShellError';
  constructor(message: string) {
    super(errorCodes.unsupported, message);
  }
}


export function createHandlers(session: RectoSession, shell: ShellBindings): Handlers {
  const exportJobs = new ExportJobs();
  const evaluationJobs = new EvaluationJobs();
  return {
    ...supplierHandlers(session),
    ...matchingHandlers(session),
    ...conflictHandlers(session),
    ...invoiceQueueHandlers(session),
    'app.info': (_params, context) => ({
      version: packageVersion(),
      user: context?.account ? { name: context.account.name, role: context.account.role } : null,
      shell: shell.shell,
      project: session.project,
      samplesAvailable: session.sampleFiles().length > 0,
      nativeDialogs: shell.dialogs !== undefined,
      pageImageUrlTemplate: shell.pageImageUrl(PAGE_ID_SLOT, context),
    }),
    'project.create': ({ path: file }) => session.createProject(file),
    'project.open': ({ path: file }) => session.openProject(file),
    'project.openSamples': () => session.openSamples(),
    'dialog.openProject': async () => {
      if (!shell.dialogs) throw new UnsupportedInShellError('Native dialogs exist only in the desktop app');
      const choice = await shell.dialogs.chooseProject();
      if (!choice) return null;
      return choice.create ? session.createProject(choice.path) : session.openProject(choice.path);
    },
    'dialog.importFiles': async () => {
      if (!shell.dialogs) throw new UnsupportedInShellError('Native dialogs exist only in the desktop app');
      const files = await shell.dialogs.chooseFilesToImport();
      if (!files || files.length === 0) return null;
      return session.importFiles(files.map((filePath) => ({ filePath })));
    },
    'dialog.chooseExportFolder': async ({ defaultPath }) => {
      if (!shell.dialogs) throw new UnsupportedInShellError('Native dialogs exist only in the desktop app');
      const folder = await shell.dialogs.chooseExportFolder(defaultPath);
      return folder ? { path: folder } : null;
    },
    'settings.get': (_params, context) => settingsFor(session, context ?? singleUser),
    'settings.set': (patch, context) => setSettingsFor(session, context ?? singleUser, patch),
    'engines.list': () => session.engines.list(),
    'documents.importPaths': ({ paths, engine }) =>
      session.importFiles(
        paths.map((filePath) => ({ filePath })),
        engine,
      ),
    'documents.importData': async ({ name, dataBase64, engine }) => {
      // The upload is staged under a neutral name; the user's file name is only ever used as a label.
      const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-upload-'));
      try {
        const file = path.join(staging, 'upload');
        fs.writeFileSync(file, Buffer.from(dataBase64, 'base64'));
        return await session.importFiles([{ filePath: file, displayName: path.basename(name) }], engine);
      } finally {
        fs.rmSync(staging, { recursive: true, force: true });
      }
    },
    'documents.list': () => session.store.documents.listDocuments().map((doc) => ({ ...doc, pages: withReviewedBy(session.store, doc.pages) })),
    'pages.getReview': ({ pageId }, context) => pageReviewOf(session.store, pageId, shell.pageImageUrl(pageId, context)),
    'pages.getReviewAndFields': ({ pageId }, context) => ({
      review: pageReviewOf(session.store, pageId, shell.pageImageUrl(pageId, context)),
      fields: documentFieldsOf(session.store, pageId),
    }),
    'pages.reread': ({ pageId, engine }) => ({ jobId: session.reread(pageId, engine) }),
    'pages.setReviewStatus': ({ pageId, status }, context) => {
      const { textLayer: _t, documentName: _n, documentSha256: _s, mediaType: _m, ...summary } =
        setReviewStatusBy(session.store, pageId, status, actorOf(session, context).name) as ReturnType<typeof session.store.documents.getPage>;
      if (status === 'approved') learnFromApproval(session.store, pageId);
      session.bus.emit('page.updated', { pageId, documentId: summary.documentId });
      return summary;
    },
    // On the revision the edit started from, or the error `conflict` with the text kept (conflictHandlers.ts).
    'revisions.save': (params, context) => saveTextEdit(session, params, actorOf(session, context).name),
    'revisions.list': ({ pageId }) => session.store.revisions.listRevisions(pageId),
    'jobs.cancel': ({ jobId }) => ({
      cancelled: session.queue.cancel(jobId) || exportJobs.cancel(jobId) || evaluationJobs.cancel(jobId),
    }),
    'curation.list': async (request) => {
      session.store.checks.recomputeMissing();
      await prepareEInvoiceReports(session.store, session.store.einvoices.readDocumentIds());
      const list = session.store.curation.list(request, () => withMatchSignals(session.store, withApprovalSignals(session.store, withDuplicateSignals(session.store, withEInvoiceSignals(session.store, session.store.attention.list())))));
      return { ...list, items: withReviewedBy(session.store, list.items) };
    },
    'curation.summary': (filter) => {
      session.store.checks.recomputeMissing();
      return { ...session.store.curation.summarize(filter), fieldCorrections: session.store.fieldRevisions.stats(filter.documentId) };
    },
    'curation.page': ({ pageId }) => {
      session.store.documents.getPage(pageId);
      return session.store.checks.get(pageId);
    },
    'corpus.export': (request) => {
      const { jobId } = exportJobs.start(
        { store: session.store, bus: session.bus, pageImagePath: (pageId) => session.pageImagePath(pageId) },
        request,
      );
      return { jobId };
    },
    'evaluation.start': (request) =>
      evaluationJobs.start(
        {
          store: session.store,
          bus: session.bus,
          engines: session.engines,
          pageInput: (page) => session.pageInput(page),
          dataDir: session.dataDir,
        },
        request,
      ),
    'evaluation.latest': (_params, context) => {
      const latest = evaluationJobs.latest(session.dataDir, session.store.file);
      return latest && shell.evaluationReportUrl ? { ...latest, reportUrl: shell.evaluationReportUrl(context) } : latest;
    },
    'corpus.import': ({ dir }) => {
      const summary = importCorpus(session.store, dir, { seedImage: seedPageImage(session.images), maxPages: session.settings.get().maxPagesPerDocument });
      summary.problems.push(...takeSupplierMemoryFromCorpus(session.store, dir));
      session.bus.emit('documents.changed', {});
      return summary;
    },
    'fields.document': ({ pageId }) => documentFieldsOf(session.store, pageId),
    'fields.revisions': ({ pageId }) => {
      session.store.documents.getPage(pageId);
      return session.store.fieldRevisions.list(pageId);
    },
    'fields.save': (params, context) => saveFieldEdit(session, params, actorOf(session, context).name),
    'fields.undo': ({ pageId, expected }, context) => {
      const page = session.store.documents.getPage(pageId);
      const revision = session.store.transaction(() => {
        const undone = session.store.fieldRevisions.undo(pageId, actorOf(session, context).name, expected);
        if (undone) reopenChanged(session.store, page.documentId, 'fields.undo');
        return undone;
      });
      if (revision) learnFromDocument(session.store, pageId);
      if (revision) session.store.invoiceKeys.refresh(page.documentId);
      if (revision) session.bus.emit('page.updated', { pageId, documentId: page.documentId });
      return revision;
    },
    'pages.reject': ({ pageId, reason }, context) => {
      const page = session.store.reviewNotes.reject(pageId, reason, actorOf(session, context).name);
      session.bus.emit('page.updated', { pageId, documentId: page.documentId });
      return { rejected: true as const };
    },
    'fields.stats': ({ documentId }) => session.store.fieldRevisions.stats(documentId),
    'einvoice.validation': async ({ pageId, drafts }) => {
      await prepareEInvoiceReports(session.store, [session.store.documents.getPage(pageId).documentId]);
      return einvoiceValidation(session.store, pageId, drafts);
    },
    'approval.check': async ({ pageId, scope }) => {
      await prepareEInvoiceReports(session.store, [session.store.documents.getPage(pageId).documentId]);
      const latest = session.store.reviewEvents.latest(pageId);
      return { ...approvalCheck(session.store, pageId, scope), latest: latest && publicEvent(latest) };
    },
    'approval.history': ({ pageId }) => {
      session.store.documents.getPage(pageId);
      return session.store.reviewEvents.ofPage(pageId).map(publicEvent);
    },
    'approval.approve': async ({ pageId, scope, reason }, context) => {
      await prepareEInvoiceReports(session.store, [session.store.documents.getPage(pageId).documentId]);
      const result = approve(session.store, { pageId, scope, reason, reviewer: actorOf(session, context).name });
      if (result.outcome !== 'needs-reason') {
        learnFromApproval(session.store, pageId);
        session.bus.emit('page.updated', { pageId, documentId: session.store.documents.getPage(pageId).documentId });
      }
      return result;
    },
    'invoice.paymentFields': ({ pageId }) => {
      const doc = session.store.documents.getDocument(session.store.documents.getPage(pageId).documentId);
      const first = doc.pages[0]!.id;
      const revisions = session.store.fieldRevisions.list(first);
      const { fields: views } = paymentFieldsOf(session.store, doc, revisions);
      const fields = views.map((view) => ({ ...view, revisionId: revisions.findLast((r) => r.field === `payment.${view.key}`)?.id ?? null }));
      const stored = session.store.einvoices.get(doc.id);
      const xmlLines = stored?.status === 'read' ? stored.invoice.lines.map(({ description, quantity, unit_price, amount }) => ({ description, quantity, unit_price, amount })) : null;
      return { fields, pageLines: session.store.fieldRevisions.currentValues(first).lines, xmlLines };
    },
    'invoice.matches': ({ pageId }) => {
      const documentId = session.store.documents.getPage(pageId).documentId;
      return session.store.invoiceKeys.recordedMatches(documentId).map((m) => ({ ...m, pageId: session.store.documents.getDocument(m.documentId).pages[0]?.id ?? null }));
    },
    'invoices.export': async ({ outDir, syntax, xrechnung, allApproved }, context) => {
      await loadSchemaLayer(); // each e-invoice is checked against its XSD before it is written
      const { files: _files, ...summary } = exportInvoices(session.store, { outDir, syntax, xrechnung, allApproved, reviewer: actorOf(session, context).name });
      return summary;
    },
    'attention.list': async () => {
      // Structure and repetition come from the check rows: computed first where a page lacks them.
      session.store.checks.recomputeMissing();
      const items = session.store.attention.list();
      await prepareEInvoiceReports(session.store, items.map((item) => item.documentId));
      return { items: withMatchSignals(session.store, withApprovalSignals(session.store, withDuplicateSignals(session.store, withEInvoiceSignals(session.store, items)))) };
    },
    'project.merge': async ({ path: other }) => {
      const target = session.store; // a project must be open before the other file is even checked
      await validateProjectFile(other);
      const summary = mergeProjectInto(target, other, { maxPages: session.settings.get().maxPagesPerDocument });
      const supplierChanges = takeSupplierMemoryFromProject(target, other);
      session.bus.emit('documents.changed', {});
      return { ...summary, supplierChanges };
    },
  };
}
