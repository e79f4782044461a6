/**
 * `npx tsx bench/fields/lineRereadLines.ts --boxes DIR [--records FILE] [--json FILE]`: the second reader of weak
 * lines (native-models/bundled/lineReread.ts) measured line by line on the development receipts of
 * `../shared/testdata/receipts/` (held-out vendors left out entirely: their lines are never read here).
 *
 * Each receipt is read by the bundled engine's OCR (tesseract, its amount bands, then the weak lines by PP-OCR); each
 * weak line is matched to the box transcripts (`--boxes`: NNN.txt, x1,y1,…,x4,y4,text per line) whose centres lie
 * in its box (lines over one row of the truth only), and three texts are scored against them (upper case, spaces ignored): tesseract's, PP-OCR's and the
 * one the rule chose. The rule's thresholds are then swept over the same records (what a different PP_SURE or
 * TESSERACT_DOUBTFUL would have chosen). `--records FILE` keeps the readings (read afresh where FILE is missing).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PSM } from 'tesseract.js';
import { levenshtein } from '../../app/checks/textDistance.js';
import { LineRecognizer } from '../../native-models/bundled/lineRecognizer.js';
import { PP_SURE, TESSERACT_DOUBTFUL, type LineRereadRecord } from '../../native-models/bundled/lineReread.js';
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
  tesseractErrors: number;
  ppErrors: number;
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
    scored.push({ record, truth: text, tesseractErrors: levenshtein(norm(record.tesseract), text), ppErrors: levenshtein(norm(record.pp), text) });
  }
}
const characters = scored.reduce((a, s) => a + s.truth.length, 0);
const STRUCTURAL = new Set(['outside-dictionary', 'cjk', 'letters-in-digits', 'length', 'same', 'empty']);
/** Errors of the texts a rule with thresholds (sure, doubtful) would have chosen, and the lines it replaced. */
function chosen(sure: number, doubtful: number): { errors: number; replaced: number; better: number; worse: number } {
  let [errors, replaced, better, worse] = [0, 0, 0, 0];
  for (const s of scored) {
    const keep = !(s.record.refusal && STRUCTURAL.has(s.record.refusal)) && s.record.ppProbability >= sure && s.record.tesseractConfidence < doubtful;
    errors += keep ? s.ppErrors : s.tesseractErrors;
    if (keep) {
      replaced++;
      if (s.ppErrors < s.tesseractErrors) better++;
      if (s.ppErrors > s.tesseractErrors) worse++;
    }
  }
  return { errors, replaced, better, worse };
}
const pct = (errors: number): string => `${((100 * errors) / Math.max(1, characters)).toFixed(1)} %`;
const tesseract = scored.reduce((a, s) => a + s.tesseractErrors, 0);
const pp = scored.reduce((a, s) => a + s.ppErrors, 0);
const rule = chosen(PP_SURE, TESSERACT_DOUBTFUL);
const readMs = Object.values(records).reduce((a, r) => a + r.milliseconds, 0);
console.log(`development receipts ${Object.keys(records).length}, weak lines on one row of the box truth ${scored.length} (${unmatched} not: two rows, or no text), ${characters} characters`);
console.log(`| reading | CER (spaces ignored) | lines replaced (better / worse) |`);
console.log(`|---|---|---|`);
console.log(`| tesseract | ${pct(tesseract)} | – |`);
console.log(`| PP-OCR everywhere | ${pct(pp)} | ${scored.length} |`);
console.log(`| rule (PP_SURE ${PP_SURE}, TESSERACT_DOUBTFUL ${TESSERACT_DOUBTFUL}) | ${pct(rule.errors)} | ${rule.replaced} (${rule.better} / ${rule.worse}) |`);
console.log(`second reader's wall time: ${(readMs / 1000 / Math.max(1, Object.keys(records).length)).toFixed(2)} s per receipt`);
const sweep: Array<{ sure: number; doubtful: number; cer: number; replaced: number; better: number; worse: number }> = [];
for (const sure of [0.7, 0.8, 0.85, 0.9, 0.95]) {
  for (const doubtful of [0.7, 0.8, 0.85, 0.9, 1.01]) {
    const c = chosen(sure, doubtful);
    sweep.push({ sure, doubtful, cer: c.errors / Math.max(1, characters), replaced: c.replaced, better: c.better, worse: c.worse });
  }
}
console.log('sweep (PP_SURE × TESSERACT_DOUBTFUL → CER, replaced, better/worse):');
for (const s of sweep) console.log(`  ${s.sure} × ${s.doubtful}: ${pct(s.cer * characters)} ${s.replaced} (${s.better}/${s.worse})`);
const json = option('--json');
if (json) writeFileSync(json, JSON.stringify({ characters, lines: scored.length, unmatched, tesseract: tesseract / characters, pp: pp / characters, rule: { sure: PP_SURE, doubtful: TESSERACT_DOUBTFUL, ...rule, cer: rule.errors / characters }, sweep }, null, 2));
