/**
 * The child of the kill -9 approval test (main/services/approvalAtomic.test.ts): approves a whole document, puts it
 * back in review (one transaction too), and again, printing "approved N" after each approval has returned, until
 * killed.
 *   tsx testing/approveLoop.ts PROJECT.recto PAGE_ID
 */
import { approve, setReviewStatusBy } from '../main/services/approval.js';
import { ProjectStore } from '../main/store/projectStore.js';

const [file, pageId] = process.argv.slice(2) as [string, string];
const store = ProjectStore.open(file);
const pages = store.documents.getDocument(store.documents.getPage(pageId).documentId).pages.map((p) => p.id);
process.stdout.write('ready\n');
for (let n = 1; ; n++) {
  approve(store, { pageId, scope: 'document', reviewer: 'Loop' });
  process.stdout.write(`approved ${n}\n`);
  store.transaction(() => pages.forEach((id) => setReviewStatusBy(store, id, 'in-review', 'Loop')));
  await new Promise((resolve) => setImmediate(resolve));
}
