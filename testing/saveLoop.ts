/**
 * The child of the kill -9 durability test (main/store/killDurability.test.ts): saves revisions of one page in a loop
 * and prints each save's number on stdout once saveRevision has returned (the save is acknowledged), until killed.
 *   tsx testing/saveLoop.ts PROJECT.recto PAGE_ID FIRST_NUMBER
 */
import { ProjectStore } from '../main/store/projectStore.js';

const [file, pageId, first] = process.argv.slice(2) as [string, string, string];
const store = ProjectStore.open(file);
for (let n = Number(first); ; n++) {
  store.revisions.saveRevision(pageId, `Acknowledged save ${n}.`, 'Loop', null);
  process.stdout.write(`${n}\n`);
  // A turn of the event loop so the line leaves before the next save (stdout to a pipe is asynchronous).
  await new Promise((resolve) => setImmediate(resolve));
}
