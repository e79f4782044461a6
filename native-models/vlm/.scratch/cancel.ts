import { VlmEngine } from '../engine/vlmEngine.js';
import { referencePackDir } from '../pack/referencePackCache.js';
import sharp from 'sharp';
import { writeFileSync } from 'node:fs';
writeFileSync('/tmp/pg.png', await sharp({ create: { width: 400, height: 500, channels: 3, background: '#fff' } }).png().toBuffer());
const e = new VlmEngine({ packDir: await referencePackDir('high'), provider: 'cpu', maxNewTokens: 3000 });
const c = new AbortController();
let n = 0;
const t = performance.now();
try {
  await e.read({ imagePath: '/tmp/pg.png', width: 400, height: 500, dpi: 72, textLayer: null, label: 'x' }, { signal: c.signal, onEvent: (ev) => { n++; if (ev.type === 'token' && !c.signal.aborted) { console.log('abort at', n, performance.now() - t); c.abort(); } } });
} catch (err) { console.log('ERR', (err as Error).message, n, performance.now() - t); }
await e.dispose();
