import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageInput } from '../../../app/model/engine.js';
import { extractionSchema } from '../../../app/model/extraction.js';
import { referencePackDir } from '../../../testing/referencePack/referencePackCache.js';
import { cropGridFor } from '../preprocess/cropGrid.js';
import { imageModes, imageTokenCount } from '../preprocess/imageModes.js';
import { VlmEngine } from './vlmEngine.js';

describe('VlmEngine on the reference pack (worker thread)', () => {
  let page: PageInput;
  let packDir: string;
  const engines: VlmEngine[] = [];
  const engine = (options: Partial<ConstructorParameters<typeof VlmEngine>[0]> = {}) => {
    const e = new VlmEngine({ packDir, provider: 'cpu', threads: 1, maxNewTokens: 48, ...options });
    engines.push(e);
    return e;
  };

  beforeAll(async () => {
    packDir = await referencePackDir('high');
    const dir = mkdtempSync(join(tmpdir(), 'recto-vlm-engine-'));
    const imagePath = join(dir, 'page.png');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="850" height="1100"><rect width="100%" height="100%" fill="white"/><text x="80" y="120" font-size="48">INVOICE 2024-17</text></svg>`;
    writeFileSync(imagePath, await sharp(Buffer.from(svg)).png().toBuffer());
    page = { imagePath, width: 850, height: 1100, dpi: 100, textLayer: null, label: 'page.png p1' };
  }, 120_000);

  afterAll(async () => {
    await Promise.all(engines.map((e) => e.dispose()));
  });

  it('reads a page into a valid Extraction, streaming tokens, with FastMTP stats — and the same text as greedy', async () => {
    const streamed: string[] = [];
    let stats = 0;
    const fast = await engine({ decoder: 'fastmtp', draftDepth: 3 }).read(page, {
      onEvent: (e) => (e.type === 'token' ? streamed.push(e.text) : e.type === 'stats' ? stats++ : undefined),
    });
    expect(() => extractionSchema.parse(fast)).not.toThrow();
    expect(fast.engine.provider).toBe('cpu');
    expect(fast.engine.packSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(fast.engine.licence).toMatch(/MIT/);
    expect(fast.engine.settings.visualTokens).toBe(273); // Base mode: 16 × 17 + 1
    expect(fast.stats.tokens).toBeGreaterThan(0);
    expect(fast.stats.meanAcceptedLength).toBeGreaterThan(1.5);
    expect(fast.stats.acceptancePerPosition).toHaveLength(3);
    expect(streamed.length).toBeGreaterThan(0);
    expect(stats).toBeGreaterThanOrEqual(1); // live statistics (throttled) + the final ones
    const greedy = await engine({ decoder: 'greedy' }).read(page);
    expect(greedy.markdown).toBe(fast.markdown);
    expect(greedy.stats.meanAcceptedLength).toBeUndefined();
  });

  it('reads in Gundam mode: global view + tiles by the grid rule, in DeepSeek-OCR token counts', async () => {
    const grid = cropGridFor(page.width, page.height, imageModes.gundam.imageSize);
    expect(grid).toEqual([2, 3]);
    const result = await engine({ imageMode: 'gundam', maxNewTokens: 8 }).read(page);
    expect(result.engine.settings.visualTokens).toBe(imageTokenCount(imageModes.gundam, grid)); // 273 + 21 × 30
    expect(result.stats.tokens).toBe(8);
    expect(result.stats.hitMaxTokens).toBe(true);
    expect(result.warnings.join('\n')).toMatch(/stopped at 8 tokens: probable repetition/);
  });

  it('streams live statistics while a long page decodes', async () => {
    const live: number[] = [];
    let fractions = 0;
    const result = await engine({ maxNewTokens: 600 }).read(page, {
      onEvent: (e) => {
        if (e.type === 'stats') live.push(e.stats.tokens ?? 0);
        if (e.type === 'progress' && e.fraction > 0) fractions++;
      },
    });
    expect(live.length).toBeGreaterThan(1);
    expect(live.at(-1)).toBe(result.stats.tokens);
    expect(live.slice(0, -1).every((t) => t <= (result.stats.tokens ?? 0))).toBe(true);
    expect(fractions).toBeGreaterThan(0);
  });

  it('can be cancelled while decoding', async () => {
    const controller = new AbortController();
    const e = engine({ maxNewTokens: 400 });
    const reading = e.read(page, { signal: controller.signal, onEvent: (ev) => ev.type === 'token' && controller.abort() });
    await expect(reading).rejects.toThrow(/page\.png p1: reading was cancelled/);
    // the worker is still usable afterwards
    const again = await e.read(page);
    expect(again.stats.tokens).toBeGreaterThan(100); // the cancelled read stopped after its first piece of text
  });

  it('reports a worker crash as a failed read and recovers on the next read', async () => {
    const e = engine();
    await e.read(page); // worker up
    const reading = e.read(page);
    e.crashWorkerForTest();
    await expect(reading).rejects.toThrow(/page\.png p1: the VLM engine crashed/);
    const after = await e.read(page);
    expect(after.stats.tokens).toBeGreaterThan(0);
  });

  it('keeps the main event loop free while the worker decodes', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    await engine({ maxNewTokens: 64 }).read(page);
    clearInterval(timer);
    const elapsed = performance.now() - started;
    // A blocked loop would tick ~once; a free one ticks throughout (lenient: a quarter of the possible ticks).
    expect(ticks).toBeGreaterThan(Math.min(20, elapsed / 5 / 4));
  });

  it('refuses a tampered pack with a clear error naming the page and the file', async () => {
    const tampered = mkdtempSync(join(tmpdir(), 'recto-vlm-tampered-'));
    cpSync(packDir, tampered, { recursive: true });
    const draft = join(tampered, 'draft.onnx');
    const bytes = readFileSync(draft);
    bytes[bytes.length - 5] ^= 0x01;
    writeFileSync(draft, bytes);
    await expect(engine({ packDir: tampered }).read(page)).rejects.toThrow(/page\.png p1: cannot open model pack: .*draft\.onnx: refused — SHA-256/);
  });

  it('is unavailable with a clear reason when the pack folder is missing', async () => {
    const e = new VlmEngine({ packDir: join(tmpdir(), 'no-such-pack-folder') });
    expect(e.descriptor.available).toBe(false);
    await expect(e.read(page)).rejects.toThrow(/not available .*manifest\.json not found/);
  });
});
