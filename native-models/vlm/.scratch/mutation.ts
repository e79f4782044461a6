// Sensitivity check: with a broken cache cut-back, FastMTP must diverge from greedy.
import { CachedModel } from '../decoding/cachedModel.js';
import { loadPack } from '../pack/loadPack.js';
import { referencePackDir } from '../pack/referencePackCache.js';
import { createDecodeModels, decodeOptionsFor } from '../decoding/decodeModels.js';
import { greedyDecode } from '../decoding/greedyDecode.js';
import { fastMtpDecode } from '../decoding/fastMtpDecode.js';
import { Rng } from '../pack/rng.js';
const original = CachedModel.prototype.truncate;
const pack = await loadPack(await referencePackDir('mid'), { provider: 'cpu', intraOpThreads: 1 });
const models = createDecodeModels(pack);
for (const mode of ['correct', 'broken']) {
  CachedModel.prototype.truncate = mode === 'broken' ? function (this: CachedModel, n: number) { original.call(this, Math.min(n + 1, this.length)); } : original;
  const rng = new Rng(5); let diff = 0;
  for (let i = 0; i < 5; i++) {
    const ids = [0, ...Array.from({ length: 6 }, () => 10 + rng.int(90))];
    const emb = await models.embedder.embed(ids);
    const o = decodeOptionsFor(pack, { maxNewTokens: 30 });
    const g = await greedyDecode(models, emb, ids.length, o);
    const f = await fastMtpDecode(models, emb, ids.length, 2, o);
    if (g.tokens.join() !== f.tokens.join()) diff++;
  }
  console.log(mode, 'inputs differing:', diff, '/ 5');
}
