/**
 * `npx tsx bench/fields/lineRereadLines.ts --boxes DIR [--records FILE] [--json FILE]`: the second reader of weak
 * lines (native-models/bundled/lineReread.ts) measured line by line on the development receipts of
 * `../shared/testdata/receipts/` (held-out vendors left out entirely: their lines are never read here).
 *
 * Each receipt is read by the bundled engine's OCR (tesseract, its amount bands, then the weak lines by PP-OCR); each
 * weak line is matched to the box transcripts (`--boxes`: NNN.txt, x1,y1,…,x4,y4,text per line) whose centres lie
 * in its box (lines over one row of the truth only), and texts are scored against them (upper case, spaces
 * ignored): tesseract's, PP-OCR's whole line (everywhere, and where it is sure), and the words the rule chose.
 * PP_SURE is then swept over the same records (what another threshold would have chosen). `--records FILE` keeps the readings (read afresh where FILE is missing).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PSM } from 'tesseract.js';
import { levenshtein } from '../../app/checks/textDistance.js';
import { LineRecognizer } from '../../native-models/bundled/lineRecognizer.js';
import { chooseWord, PP_SURE, type LineRereadRecord } from '../../native-models/bundled/lineReread.js';
import { TesseractPool } from '../../native-models/bundled/tesseractPool.js';
import { hashPicksVendor, readReceiptVendors } from './heldOutVendors.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const receiptsDir = path.resolve(import.meta.dirname, '../../../shared/testdata/receipts');
const boxes = option('--boxes');
if (!boxes || !existsSync(receiptsDir)) {
  console.log(`skipped: ${!boxes ? 'no --boxes DIR given' : `${receiptsDir} is absent`}`);
  process.exit(boxes ? 0 : 2);
}
const recordsFile = option('--records');
const development = readReceiptVendors(receiptsDir).filter((r) => !hashPicksVendor(r.vendorKey)).map((r) => r.receipt);

interface Truth {
  box: [number, number, number, number];
  text: string;
}
const truthOf = (receipt: string): Truth[] =>
  readFileSync(path.join(boxes, `${receipt}.txt`), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((line) => {
      const parts = line.split(',');
      const n = parts.slice(0, 8).map(Number);
      const xs = [n[0]!, n[2]!, n[4]!, n[6]!];
      const ys = [n[1]!, n[3]!, n[5]!, n[7]!];
      return { box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], text: parts.slice(8).join(',') };
    });

type Records = Record<string, { lines: LineRereadRecord[]; milliseconds: number }>;
let records: Records = recordsFile && existsSync(recordsFile) ? (JSON.parse(readFileSync(recordsFile, 'utf8')) as Records) : {};
const missing = development.filter((r) => !records[r] && existsSync(path.join(boxes, `${r}.txt`)));
if (missing.length) {
  const recognizer = new LineRecognizer();
  const pool = new TesseractPool(1, { pageSegmentationMode: PSM.AUTO, languages: ['eng'], lineReader: recognizer });
  try {
    for (const receipt of missing) {
      const page = await pool.recognize(path.join(receiptsDir, 'img', `${receipt}.jpg`), { dpi: 144 });
      records[receipt] = { lines: page.lineReread?.lines ?? [], milliseconds: page.lineReread?.milliseconds ?? 0 };
      if (page.lineReread?.unavailable) throw new Error(page.lineReread.unavailable);
      process.stderr.write(`${receipt}: ${records[receipt].lines.length} weak lines\n`);
    }
  } finally {
    await Promise.all([pool.dispose(), recognizer.dispose()]);
  }
  if (recordsFile) writeFileSync(recordsFile, JSON.stringify(records));
}
records = Object.fromEntries(Object.entries(records).filter(([r]) => development.includes(r)));

const norm = (text: string): string => text.toUpperCase().replace(/\s+/g, '');
interface Scored {
  record: LineRereadRecord;
  truth: string;
  tesseract: string;
}
const scored: Scored[] = [];
let unmatched = 0;
for (const [receipt, { lines }] of Object.entries(records)) {
  const truth = truthOf(receipt);
  for (const record of lines) {
    const [x0, y0, x1, y1] = record.box;
    const inside = truth.filter((t) => {
      const [cx, cy] = [(t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2];
      return cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
    });
    // Scored only where the line is one row of the truth: a tesseract "line" over two rows, or on a speck with no
    // text, says nothing of either reader's characters.
    const tallest = Math.max(0, ...inside.map((t) => t.box[3] - t.box[1]));
    const centres = inside.map((t) => (t.box[1] + t.box[3]) / 2);
    if (inside.length === 0 || Math.max(...centres) - Math.min(...centres) > tallest / 2 || y1 - y0 > 2.5 * tallest) {
      unmatched++;
      continue;
    }
    const text = norm(inside.sort((a, b) => a.box[0] - b.box[0]).map((t) => t.text).join(''));
    scored.push({ record, truth: text, tesseract: record.words.map((w) => w.tesseract).join(' ') });
  }
}
const characters = scored.reduce((a, s) => a + s.truth.length, 0);
const errorsOf = (choose: (s: Scored) => string): number => scored.reduce((a, s) => a + levenshtein(norm(choose(s)), s.truth), 0);
const keeps = (w: LineRereadRecord['words'][number], sure: number): boolean => chooseWord({ text: w.tesseract, confidence: w.confidence }, w.pp, w.ppProbability, false, sure).keep;
/** The words chosen at PP probability `sure` (chooseWord, the rule as shipped but for its threshold). */
const fused = (s: Scored, sure: number): string => s.record.words.map((w) => (keeps(w, sure) ? w.pp : w.tesseract)).join(' ');
const replacedAt = (sure: number): number => scored.reduce((a, s) => a + s.record.words.filter((w) => keeps(w, sure)).length, 0);
const pct = (errors: number): string => `${((100 * errors) / Math.max(1, characters)).toFixed(1)} %`;
const tesseract = errorsOf((s) => s.tesseract);
const pp = errorsOf((s) => s.record.pp);
const lineRule = errorsOf((s) => (s.record.ppProbability >= PP_SURE ? s.record.pp : s.tesseract));
const rule = errorsOf((s) => fused(s, PP_SURE));
const readMs = Object.values(records).reduce((a, r) => a + r.milliseconds, 0);
console.log(`development receipts ${Object.keys(records).length}, weak lines on one row of the box truth ${scored.length} (${unmatched} not: two rows, or no text), ${characters} characters`);
console.log(`| reading of the weak lines | CER (spaces ignored) |`);
console.log(`|---|---|`);
console.log(`| tesseract | ${pct(tesseract)} |`);
console.log(`| PP-OCR's whole line, every line | ${pct(pp)} |`);
console.log(`| PP-OCR's whole line where its mean probability ≥ ${PP_SURE} | ${pct(lineRule)} |`);
console.log(`| the rule: weak words on tesseract's grid (PP_SURE ${PP_SURE}), ${replacedAt(PP_SURE)} words replaced | ${pct(rule)} |`);
console.log(`second reader's wall time: ${(readMs / 1000 / Math.max(1, Object.keys(records).length)).toFixed(2)} s per receipt`);
const sweep = [0.6, 0.7, 0.8, 0.85, 0.9, 0.95].map((sure) => ({ sure, cer: errorsOf((s) => fused(s, sure)) / Math.max(1, characters), replaced: replacedAt(sure) }));
console.log(`sweep of PP_SURE: ${sweep.map((s) => `${s.sure} → ${(100 * s.cer).toFixed(1)} % (${s.replaced} words)`).join(', ')}`);
const json = option('--json');
if (json) writeFileSync(json, JSON.stringify({ characters, lines: scored.length, unmatched, tesseract: tesseract / characters, pp: pp / characters, lineRule: lineRule / characters, rule: rule / characters, sure: PP_SURE, sweep }, null, 2));
