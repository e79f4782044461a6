/**
 * What opening a project checks of its trail (docs/security.md): the hash chain (auditChain.ts) — a warning naming
 * the first row edited, removed or added outside Recto — and every approval whose invoice no longer matches what was
 * approved, reopened now ("found on opening": changed outside Recto, as no revision records it), so that the queue
 * shows it. Returns the warning the app shows, or null where all is well.
 */
import { reopenChanged } from '../store/approvalSeals.js';
import { describeChain } from '../store/auditChain.js';
import type { ProjectStore } from '../store/projectStore.js';

export function checkTrailOnOpening(store: ProjectStore): string | null {
  const warnings: string[] = [];
  const report = store.auditChain().verify();
  if (!report.intact) warnings.push(describeChain(store.info().name, report).slice(-2).join(' '));
  let reopened = 0;
  store.transaction(() => {
    for (const doc of store.documents.listDocuments()) {
      if (doc.pages.some((p) => p.reviewStatus === 'approved')) reopened += reopenChanged(store, doc.id, 'found on opening the project').length;
    }
  });
  if (reopened > 0) warnings.push(`${reopened} approved page(s) changed after their approval and were reopened (see the queue: "Changed after approval").`);
  return warnings.length > 0 ? warnings.join(' ') : null;
}
