import { readFileSync } from 'node:fs';
import { readCorpusTruth } from './corpusTruth.js';
import { extractInvoiceFields, toPlainFields, wordsToLines } from '../../app/invoice/index.js';
import { learnLesson, readWithMemory, SupplierIndex } from '../../app/invoice/supplierMemory/index.js';
const dir = '/work/wt/shared/testdata/einvoice-corpus';
const words = JSON.parse(readFileSync('/tmp/f_words_cache.json', 'utf8'));
const docs = readCorpusTruth(dir);
const fam = docs.filter((d) => d.family.startsWith(process.argv[2]!));
const lesson = learnLesson(words[fam[0]!.name], fam[0]!.confirmed);
console.log(fam.map((d) => d.name));
console.log(JSON.stringify(lesson.hints), lesson.format, lesson.identity.name);
const idx = new SupplierIndex([{ supplierId: 'x', supplierName: 'x', pageId: 'p', lesson }]);
for (const d of fam.slice(1)) {
  const w = words[d.name];
  const m = readWithMemory(w, toPlainFields(extractInvoiceFields({ words: w })), idx, new Map());
  console.log(d.name, JSON.stringify(d.printed));
  console.log(JSON.stringify(m?.fields));
  if (process.argv[3]) console.log(wordsToLines(w).map((l) => l.text).join('\n'));
}
