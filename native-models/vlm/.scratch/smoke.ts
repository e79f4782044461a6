import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReferencePack } from '../pack/writeReferencePack.js';
import { loadPack } from '../pack/loadPack.js';
import { createDecodeModels, decodeOptionsFor } from '../decoding/decodeModels.js';
import { greedyDecode } from '../decoding/greedyDecode.js';
import { fastMtpDecode } from '../decoding/fastMtpDecode.js';
import { acceptanceRates, meanAcceptedLength } from '../decoding/decodeTypes.js';
import { Rng } from '../pack/rng.js';

for (const variant of ['high', 'mid', 'zero'] as const) {
  const dir = mkdtempSync(join(tmpdir(), 'pack-'));
  let t = performance.now();
  await writeReferencePack({ dir, variant, seed: 7 });
  const gen = performance.now() - t;
  t = performance.now();
  const pack = await loadPack(dir, { provider: 'cpu' });
  const models = createDecodeModels(pack);
  const load = performance.now() - t;
  const rng = new Rng(3);
  let same = 0, total = 0; const acc = [0, 0, 0]; let drafted = 0; let tauSum = 0;
  t = performance.now();
  for (let n = 0; n < 10; n++) {
    const ids = [0, ...Array.from({ length: 3 + rng.int(8) }, () => 10 + rng.int(96))];
    const emb = await models.embedder.embed(ids);
    const opts = decodeOptionsFor(pack, { maxNewTokens: 40 });
    const g = await greedyDecode(models, emb, ids.length, opts);
    for (const k of [1, 2, 3]) {
      const f = await fastMtpDecode(models, emb, ids.length, k, opts);
      total++;
      if (f.tokens.join() === g.tokens.join()) same++;
      else console.log('DIFF', variant, k, g.tokens.join(), '\n     ', f.tokens.join());
      if (k === 3) { const r = acceptanceRates(f.stats); r.forEach((v, i) => (acc[i]! += v)); tauSum += meanAcceptedLength(f.stats); drafted++; }
    }
  }
  console.log(variant, { gen: gen.toFixed(0), load: load.toFixed(0), run: (performance.now() - t).toFixed(0), same, total, acc: acc.map((a) => (a / drafted).toFixed(2)), tau: (tauSum / drafted).toFixed(2) });
}
