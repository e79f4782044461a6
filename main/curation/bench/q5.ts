import { ProjectStore } from '../../store/projectStore.js';
import { listCuration } from '../curationQueries.js';
import { curationListRequestSchema } from '../../../app/contract/curation.js';
const store = ProjectStore.open(process.argv[2]!);
const db = store.database;
for (const r of [{ elementKind: 'table', elementKindChanged: true }, { elementKind: 'formula', elementKindChanged: true }, { elementKind: 'table' }]) {
  const p = curationListRequestSchema.parse(r);
  for (let i = 0; i < 2; i++) { const s = performance.now(); listCuration(db, p); console.log(JSON.stringify(r), (performance.now() - s).toFixed(1)); }
}
const sub = `SELECT c.rowid AS rid FROM page_checks c WHERE c.page_id IN (SELECT k.page_id FROM page_check_kinds k WHERE k.kind = ? AND k.changed_chars > 0) ORDER BY c.score ASC, c.rowid ASC LIMIT 50`;
console.log(db.prepare('EXPLAIN QUERY PLAN ' + sub).all('table').map((r: any) => r.detail));
let s = performance.now(); db.prepare(sub).all('table'); console.log('sub', performance.now() - s);
const sub2 = sub.replace('WHERE c.page_id IN', 'WHERE +c.page_id IN');
console.log(db.prepare('EXPLAIN QUERY PLAN ' + sub2).all('table').map((r: any) => r.detail));
s = performance.now(); db.prepare(sub2).all('table'); console.log('sub2', performance.now() - s);
s = performance.now(); db.prepare(`SELECT COUNT(*) FROM page_check_kinds k CROSS JOIN page_checks c ON c.page_id = k.page_id WHERE k.kind = ? AND k.changed_chars > 0`).get('table'); console.log('count', performance.now() - s);
console.log(db.prepare(`EXPLAIN QUERY PLAN SELECT COUNT(*) FROM page_check_kinds k CROSS JOIN page_checks c ON c.page_id = k.page_id WHERE k.kind = ? AND k.changed_chars > 0`).all('table').map((r: any) => r.detail));
