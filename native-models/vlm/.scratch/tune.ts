import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachedModel } from '../decoding/cachedModel.js';
import { writeReferencePack } from '../pack/writeReferencePack.js';
import { loadPack } from '../pack/loadPack.js';
import { createDecodeModels, decodeOptionsFor } from '../decoding/decodeModels.js';
import { greedyDecode } from '../decoding/greedyDecode.js';
import { fastMtpDecode } from '../decoding/fastMtpDecode.js';
import { Rng } from '../pack/rng.js';
const variant = (process.env.V ?? 'mid') as 'mid';
const dir = mkdtempSync(join(tmpdir(), 'tune-'));
await writeReferencePack({ dir, variant, seed: 1 });
const pack = await loadPack(dir, { provider: 'cpu', intraOpThreads: 1 });
const models = createDecodeModels(pack);
const original = CachedModel.prototype.truncate;
for (const mode of ['correct', 'broken']) {
  CachedModel.prototype.truncate = mode === 'broken' ? function (this: CachedModel, n: number) { original.call(this, Math.min(n + 1, this.length)); } : original;
  const rng = new Rng(5); let diff = 0; let acc = 0, dr = 0;
  for (let i = 0; i < 10; i++) {
    const ids = [0, ...Array.from({ length: 6 }, () => 10 + rng.int(90))];
    const emb = await models.embedder.embed(ids);
    const o = decodeOptionsFor(pack, { maxNewTokens: 30 });
    const g = await greedyDecode(models, emb, ids.length, o);
    const f = await fastMtpDecode(models, emb, ids.length, 2, o);
    acc += f.stats.acceptedPerPosition[0]!; dr += f.stats.draftedPerPosition[0]!;
    if (g.tokens.join() !== f.tokens.join()) diff++;
  }
  console.log(process.env.RECTO_MID_SCALE, process.env.RECTO_MID_NOSWAP ? 'noswap' : 'swap', mode, 'differing:', diff, '/ 10', 'first acc', (acc / dr).toFixed(2));
}
