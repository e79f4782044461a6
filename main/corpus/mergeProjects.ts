/**
 * Merging another project into this one without loss: every document (with its source file), page, engine run and
 * revision of the other project that this one lacks is added; nothing here is changed except the order of a page's
 * revisions (by time, so the latest is the one saved last on either side), an "unreviewed" status that the other
 * side had reviewed, and a status the other side changed later (its review events say when). The other project is opened read-only and never written. Invoice field revisions come with the
 * documents, under the same policy as text revisions (applyFieldRevisions.ts). The merge is one transaction: a
 * malformed field revision in the other project refuses the merge, naming it, and leaves this project as it was.
 * The other project's invoices exports come too (invoiceExports.ts `carry`): an invoice one analyst exported is known
 * as exported in the merged project, so each invoice still goes out once per channel after a merge.
 */
import path from 'node:path';
import type { ProjectStore } from '../store/projectStore.js';
import { approvedContentOf, changesSince, reopenChanged, sealAdopted, type ApprovedContent } from '../store/approvalSeals.js';
import { reopenFourEyesBreaches } from '../store/fourEyes.js';
import { countOutcome, type SameFile, type ApplyOutcome } from '../store/transfer/applyBundles.js';
import { FieldRevisionBundleError } from '../store/transfer/applyFieldRevisions.js';
import { BundleRowError } from '../store/transfer/bundleRows.js';
import { ProjectFileError } from '../store/projectStore.js';
import { openProjectReadOnly } from '../store/transfer/readOnlyProject.js';

export interface MergeSummary {
  pages: number;
  documentsAdded: number;
  pagesAdded: number;
  runsAdded: number;
  revisionsAdded: number;
  /** Pages edited on both sides since they parted (both lines of revisions kept). */
  diverged: number;
  /** Pages decided differently on both sides: the local decision kept, the other in the history, the page flagged. */
  reviewConflicts: number;
  decisionConflicts: number;
  /** Pages nobody here had decided that took the other side's decision. */
  decisionsAdopted: number;
  /** The other side's review events with an impossible time (future, or before the page existed): never deciding. */
  untrustedTimes: number;
  /** Approved invoices here that the merge changed: reopened, with what changed (approvalSeals.ts). */
  approvalsReopened: { document: string; changes: string[] }[];
  /** Payment data (IBAN, BIC, VAT ID, terms) of invoices already here that the merge changed. */
  paymentChanges: { document: string; changes: string[] }[];
  fieldRevisionsAdded: number;
  /** Invoice fields corrected on both sides since they parted (both kept; the later correction shows). */
  fieldConflicts: number;
  /** Review status changes (who approved or rejected a page, when, why) added. */
  reviewEventsAdded: number;
  /** Documents whose bytes match another document already in the project: their pages went to it (each named). */
  sameFile: SameFile[];
  /** Invoices exports the other project recorded that this one lacked (which invoices went out, on which channel). */
  invoiceExportsAdded: number;
}

export function mergeProjectInto(target: ProjectStore, otherFile: string, limits: { maxPages?: number } = {}): MergeSummary {
  // Checked first (header and schema exactly Recto's): nothing the other file defines runs here.
  const other = openProjectReadOnly(otherFile);
  try {
    const reader = other.bundles;
    const writer = target.bundleWriter({ ...limits, origin: `merge of ${path.basename(otherFile)}` });
    const summary: MergeSummary = {
      pages: 0,
      documentsAdded: 0,
      pagesAdded: 0,
      runsAdded: 0,
      revisionsAdded: 0,
      diverged: 0,
      reviewConflicts: 0,
      decisionConflicts: 0,
      decisionsAdopted: 0,
      untrustedTimes: 0,
      approvalsReopened: [],
      paymentChanges: [],
      fieldRevisionsAdded: 0,
      fieldConflicts: 0,
      reviewEventsAdded: 0,
      sameFile: [],
      invoiceExportsAdded: 0,
    };
    const copiedSources = new Set<string>();
    const touched = new Set<string>();
    writer.all(() => {
      // The content of each invoice already here before the merge touches it, to say what the merge changed.
      const before = new Map<string, ApprovedContent>();
      for (const pageId of reader.pageIds()) {
        const bundle = reader.read(pageId, { allRuns: true });
        const sha = bundle.document.sha256;
        const existing = target.documents.imported.documentIdBySha(sha);
        if (existing && !before.has(existing)) before.set(existing, approvedContentOf(target, existing));
        const bytes = copiedSources.has(sha) || target.documents.hasDocument(sha) ? null : reader.sourceBytes(sha);
        copiedSources.add(sha);
        let outcome: ApplyOutcome;
        try {
          outcome = writer.apply(bundle, bytes);
        } catch (error) {
          if (!(error instanceof FieldRevisionBundleError) && !(error instanceof BundleRowError)) throw error;
          const where = `${bundle.document.name.slice(0, 200)}, page ${bundle.page.pageNumber}`;
          throw new ProjectFileError(otherFile, `${where}: ${error.message}; nothing was merged`);
        }
        summary.pages += 1;
        countOutcome(summary, outcome);
        if (outcome.reviewConflict) summary.reviewConflicts += 1;
        touched.add(target.documents.getPage(outcome.pageId).documentId);
      }
      // After the documents (an export names its invoices by their files here) and in the same transaction.
      try {
        summary.invoiceExportsAdded = target.invoiceExports.carry(other.invoiceExports(), (sha) => target.documents.imported.documentIdBySha(sha));
      } catch (error) {
        if (!(error instanceof BundleRowError)) throw error;
        throw new ProjectFileError(otherFile, `${error.message}; nothing was merged`);
      }
      summarizeApprovals(target, before, touched, `merge of ${path.basename(otherFile)}`, summary);
    });
    return summary;
  } finally {
    other.close();
  }
}

/**
 * After bundles are in (inside their transaction): the approvals they broke, and in a team project those that break
 * four eyes, are reopened, the decisions adopted are
 * sealed, and what changed about approvals and payment data is listed for the summary a merge or import prints.
 */
export function summarizeApprovals(
  target: ProjectStore,
  before: ReadonlyMap<string, ApprovedContent>,
  touched: ReadonlySet<string>,
  via: string,
  summary: { approvalsReopened: { document: string; changes: string[] }[]; paymentChanges: { document: string; changes: string[] }[] },
): void {
  for (const documentId of touched) {
    const name = target.documents.getDocument(documentId).name;
    const old = before.get(documentId);
    if (old) {
      const payment = changesSince(old, approvedContentOf(target, documentId)).filter((c) => c.startsWith('payment.') || c.startsWith('seller'));
      if (payment.length > 0) summary.paymentChanges.push({ document: name, changes: payment });
    }
    // Decisions adopted on pages nobody here decided are sealed first (with the content they now stand on); then every
    // approval taken here whose content the merge changed is reopened.
    sealAdopted(target, documentId);
    const reopened = reopenChanged(target, documentId, via);
    if (reopened.length > 0) summary.approvalsReopened.push({ document: name, changes: reopened[0]!.changes });
    // In a team project, an approval that breaks four eyes after the merge is not kept (docs/team-mode.md).
    const breaches = reopenFourEyesBreaches(target, documentId, via);
    if (breaches.length > 0) summary.approvalsReopened.push({ document: name, changes: breaches[0]!.changes });
  }
}
