/**
 * Four eyes on the project (app/invoices/fourEyes.ts has the rule): in a project with accounts (team mode) and the
 * rule on (team_rules, on by default), an approval by the person who last changed the invoice's amounts or payment
 * fields is refused, naming the rule and the fields — through approve() and setReviewStatusBy(), which every path
 * that approves goes through (RPC, and whatever calls them), and after a merge or corpus import (an adopted approval
 * that breaks it is reopened: mergeProjects.ts). A project without accounts (the single-user app) is unaffected.
 *
 * Changed means: the newest field revision of a guarded field, or the newest text of a page where the page's text
 * gives a payment field a different value than the text before that person's saves.
 */
import { correctedLastBy, FOUR_EYES_RULE, paymentFieldsChanged, samePerson } from '../../app/invoices/fourEyes.js';
import { paymentFieldsFromText } from '../../app/invoices/paymentFieldsFromText.js';
import { labelOf, paymentPath } from '../../app/invoice/review/fieldPaths.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import type { ProjectStore } from './projectStore.js';
import { isApproval } from './reviewEvents.js';

export class FourEyesError extends CodedError {
  override name = 'FourEyesError';
  constructor(message: string) {
    super(errorCodes.forbidden, message);
  }
}

/** Whether four eyes applies to approvals in this project. */
export function fourEyesApplies(store: ProjectStore): boolean {
  return store.accounts.hasActive() && store.accounts.fourEyes();
}

/** What `approver` changed last that four eyes guards on the document, as the panel labels it (`Total`, `IBAN (text of page 1)`); empty: none. */
export function changedLastBy(store: ProjectStore, documentId: string, approver: string): string[] {
  const doc = store.documents.getDocument(documentId);
  const keyPage = doc.pages[0];
  if (!keyPage) return [];
  const changed = correctedLastBy(store.fieldRevisions.list(keyPage.id), approver).map((path) => labelOf(path));
  // The page text: payment fields are read from it where no correction or XML states them.
  const texts = doc.pages.map((p) => store.revisions.latestRevision(p.id)?.text ?? store.readings.latestExtractionOrNull(p.id)?.markdown ?? '');
  doc.pages.forEach((page, index) => {
    const revisions = store.revisions.listRevisions(page.id);
    let firstOfTheirs = revisions.length;
    while (firstOfTheirs > 0 && samePerson(revisions[firstOfTheirs - 1]!.author, approver)) firstOfTheirs -= 1;
    if (firstOfTheirs === revisions.length) return;
    const before = firstOfTheirs > 0 ? revisions[firstOfTheirs - 1]!.text : (store.readings.latestExtractionOrNull(page.id)?.markdown ?? '');
    const withBefore = texts.map((text, i) => (i === index ? before : text));
    for (const key of paymentFieldsChanged(paymentFieldsFromText(withBefore.join('\n\n')), paymentFieldsFromText(texts.join('\n\n')))) {
      changed.push(`${labelOf(paymentPath(key))} (text of page ${page.pageNumber})`);
    }
  });
  return changed;
}

/** The refusal's words: the rule, who, what they changed. */
export function fourEyesMessage(approver: string, changed: readonly string[]): string {
  const shown = changed.slice(0, 5).join(', ') + (changed.length > 5 ? ` and ${changed.length - 5} more` : '');
  return `${FOUR_EYES_RULE}: ${approver} changed ${shown} last on this invoice; another approver must approve it`;
}

/** Throws FourEyesError where four eyes applies and `approver` changed a guarded field of the document last. */
export function assertFourEyes(store: ProjectStore, documentId: string, approver: string): void {
  if (!fourEyesApplies(store)) return;
  const changed = changedLastBy(store, documentId, approver);
  if (changed.length > 0) throw new FourEyesError(fourEyesMessage(approver, changed));
}

/**
 * After a merge or corpus import (inside its transaction): every approved page of the document whose approval now
 * breaks four eyes — an approval brought from another project by someone who changed the amounts there, or one here
 * that the other side's revisions make so — is reopened (back in review, a `reopened` event naming the rule). The
 * merge keeps the other side's decision in the history; it never becomes an approval here. Returns what was reopened.
 */
export function reopenFourEyesBreaches(store: ProjectStore, documentId: string, via: string): { pageId: string; changes: string[] }[] {
  if (!fourEyesApplies(store)) return [];
  const reopened: { pageId: string; changes: string[] }[] = [];
  for (const page of store.documents.getDocument(documentId).pages) {
    if (page.reviewStatus !== 'approved') continue;
    const approval = store.reviewEvents.latest(page.id);
    if (!approval || !isApproval(approval.status)) continue;
    const changed = changedLastBy(store, documentId, approval.reviewer);
    if (changed.length === 0) continue;
    store.documents.setReviewStatus(page.id, 'in-review');
    store.reviewEvents.record({
      pageId: page.id,
      status: 'reopened',
      exceptions: changed.map((c) => `${FOUR_EYES_RULE}: ${c}`),
      reason: `${fourEyesMessage(approval.reviewer, changed)} (${via}: the approval by ${approval.reviewer} breaks four eyes)`,
      reviewer: `${FOUR_EYES_RULE} rule`,
    });
    reopened.push({ pageId: page.id, changes: changed.map((c) => `${FOUR_EYES_RULE}: ${c}`) });
  }
  return reopened;
}
