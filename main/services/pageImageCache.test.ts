import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InspectFile } from './documentImporter.js';
import { PageImageCache } from './pageImageCache.js';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-page-cache-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The source's bytes and their hash, as the project keeps them (ensure() checks one against the other). */
const sourceBytes = Buffer.from('source bytes');
const sha = createHash('sha256').update(sourceBytes).digest('hex');

/** An import of one page `width` pixels wide (A4's shape), a black bar on white so a copy's pixels can be checked. */
function inspectOnePage(width: number): InspectFile {
  return async (_file, outDir) => {
    const height = Math.round(width * 1.414);
    const imagePath = path.join(outDir, '1.png');
    await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: Math.round(width / 2), height: Math.round(height / 10), channels: 3, background: '#000000' } }, top: 0, left: 0 }])
      .png()
      .toFile(imagePath);
    return { sha256: sha, mediaType: 'image/png', pages: [{ pageNumber: 1, width, height, dpi: 150, imagePath, textLayer: null }] };
  };
}

async function importOnePage(width: number): Promise<PageImageCache> {
  const cache = new PageImageCache(path.join(dir, 'cache'), inspectOnePage(width));
  fs.writeFileSync(path.join(dir, 'source'), sourceBytes);
  await cache.inspectIntoCache(path.join(dir, 'source'), 'page.png');
  return cache;
}

describe('PageImageCache screen copies', () => {
  it('makes the copies a page is wide enough for when it is imported: the page scaled to that width, whole', async () => {
    const cache = await importOnePage(2480);
    for (const step of [768, 1536] as const) {
      const copy = cache.screenCopyPath(sha, 1, step)!;
      expect(path.basename(copy)).toBe(`1.w${step}.png`);
      const { data, info } = await sharp(copy).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([step, Math.round(step * 1.414)]);
      // The black bar is in the copy's top-left corner and nowhere on its right half.
      expect(data[((5 * info.width) + 5) * info.channels]).toBeLessThan(40);
      expect(data[((5 * info.width) + info.width - 5) * info.channels]).toBeGreaterThan(215);
    }
    expect(fs.readdirSync(path.join(dir, 'cache', 'pages', sha)).sort()).toEqual(['1.png', '1.w1536.png', '1.w768.png']);
  });

  it('makes none wider than it saves: a 150 dpi A4 page has the 768 copy only, a small image none', async () => {
    const a4 = await importOnePage(1240);
    expect(a4.screenCopyPath(sha, 1, 768)).not.toBeNull();
    expect(a4.screenCopyPath(sha, 1, 1536)).toBeNull();
    fs.rmSync(path.join(dir, 'cache'), { recursive: true });
    const small = await importOnePage(900);
    expect(small.screenCopyPath(sha, 1, 768)).toBeNull();
  });

  it('makes them again with the page image when the cache lost both', async () => {
    const cache = await importOnePage(1240);
    fs.rmSync(path.join(dir, 'cache'), { recursive: true });
    expect(cache.screenCopyPath(sha, 1, 768)).toBeNull();
    await cache.ensure(sha, 1, 'page.png', () => sourceBytes);
    expect(cache.screenCopyPath(sha, 1, 768)).not.toBeNull();
  });

  it('never serves a link planted in place of a copy: it is removed and the copy counts as missing', async () => {
    const cache = await importOnePage(1240);
    const copy = cache.screenCopyPath(sha, 1, 768)!;
    fs.rmSync(copy);
    fs.symlinkSync(path.join(dir, 'source'), copy);
    expect(cache.screenCopyPath(sha, 1, 768)).toBeNull();
    expect(fs.existsSync(copy)).toBe(false);
  });
});
