/**
 * npx tsx bench/decode/draftVocabAB.ts [--draft-vocab N] [--reps R] [--threads T] [--json FILE] [--packs DIR]
 *
 * A/B of FastMTP's draft head over the full vocabulary and over a compressed one (ids < N + added tokens + EOS,
 * draftVocabulary.ts) on the shape-faithful pack (jina-ocr-v1's decoder size; the same packs `bench:decode
 * --real-size [--draft-vocab N]` generates, same weights but the draft head). Both packs stay loaded and are measured
 * alternately within every repetition (the order flips each time), so load from other processes hits them alike:
 * a greedy step and a K = 1, 2, 3 step at 100 cached positions (stepsAtContexts), and one draft run. Prints the fastest
 * and median per pack and the ratios compressed ÷ full. Acceptance is not measured: with random weights it says nothing
 * once the vocabulary is cut (bench:decode's τ column is for the full pack only).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDecodeModels } from '../../native-models/vlm/decoding/decodeModels.js';
import { loadPack } from '../../native-models/vlm/pack/loadPack.js';
import { MANIFEST_FILE } from '../../native-models/vlm/pack/manifest.js';
import { realSizeDims } from '../../testing/referencePack/referenceDims.js';
import { writeReferencePack } from '../../testing/referencePack/writeReferencePack.js';
import { draftRunTime, stepsAtContexts } from './decodeBenchmark.js';

const { values } = parseArgs({
  options: {
    'draft-vocab': { type: 'string', default: '32768' },
    reps: { type: 'string', default: '8' },
    threads: { type: 'string', default: '2' },
    json: { type: 'string' },
    packs: { type: 'string', default: join(tmpdir(), 'recto-vlm-packs') },
  },
});
const cut = Number(values['draft-vocab']);
const reps = Number(values.reps);
const KS = [0, 1, 2, 3];
const CONTEXT = 100;

/** bench:decode's pack names (benchDecode.ts): fused experts, 'views' caches. */
async function ensurePack(draftVocabulary?: number): Promise<string> {
  const dir = join(values.packs, `real-size-v8${draftVocabulary === undefined ? '' : `-dv${draftVocabulary}`}`);
  if (!existsSync(join(dir, MANIFEST_FILE))) {
    process.stderr.write(`generating ${dir} …\n`);
    mkdirSync(dir, { recursive: true });
    await writeReferencePack({ dir, variant: 'high', seed: 1, dims: realSizeDims, draftVocabulary });
  }
  return dir;
}

const loadBefore = loadavg();
const variants = [
  { name: 'full', pack: await loadPack(await ensurePack(), { provider: 'cpu', intraOpThreads: Number(values.threads) }) },
  { name: `ids < ${cut}`, pack: await loadPack(await ensurePack(cut), { provider: 'cpu', intraOpThreads: Number(values.threads) }) },
].map((v) => ({ ...v, models: createDecodeModels(v.pack), steps: new Map(KS.map((k) => [k, [] as number[]])), draft: [] as number[] }));

for (let rep = 0; rep <= reps; rep++) {
  for (const v of rep % 2 === 0 ? variants : [...variants].reverse()) {
    const steps = await stepsAtContexts(v.models, [CONTEXT], KS, 1);
    const draft = await draftRunTime(v.models, CONTEXT, 1);
    if (rep === 0) continue; // warm-up
    for (const k of KS) v.steps.get(k)!.push(steps.get(k)!.get(CONTEXT)!.ms);
    v.draft.push(draft.ms);
  }
  process.stderr.write(`  repetition ${rep}/${reps}\n`);
}

const fastest = (t: number[]) => Math.min(...t);
const median = (t: number[]) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)]!;
const [full, small] = variants as [(typeof variants)[0], (typeof variants)[0]];
const rows = [...KS.map((k) => ({ what: k === 0 ? 'greedy step' : `K = ${k} step`, a: full.steps.get(k)!, b: small.steps.get(k)! })), { what: 'one draft run', a: full.draft, b: small.draft }];
const loadAfter = loadavg();
console.log(`draft head over ${full.pack.manifest.dims.vocab} ids vs ${small.pack.manifest.draftVocabulary} ids; ${reps} alternating repetitions at ${CONTEXT} positions; intra-op threads ${values.threads}; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' / ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' / ')}`);
console.log('| | full: fastest ms | median | compressed: fastest ms | median | ratio (fastest) | ratio (median) |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.what} | ${fastest(r.a).toFixed(1)} | ${median(r.a).toFixed(1)} | ${fastest(r.b).toFixed(1)} | ${median(r.b).toFixed(1)} | ${(fastest(r.b) / fastest(r.a)).toFixed(2)} | ${(median(r.b) / median(r.a)).toFixed(2)} |`);
}
if (values.json) {
  const out = rows.map((r) => ({ what: r.what, full_ms: r.a, compressed_ms: r.b, ratio_fastest: fastest(r.b) / fastest(r.a), ratio_median: median(r.b) / median(r.a) }));
  writeFileSync(values.json, JSON.stringify({ rows: out, settings: { draftVocab: cut, draftVocabulary: small.pack.manifest.draftVocabulary, reps, threads: Number(values.threads), context: CONTEXT, load_average: { before: loadBefore, after: loadAfter } } }, null, 2));
}
for (const v of variants) await Promise.all(Object.values(v.pack.sessions).map((s) => s.release()));
