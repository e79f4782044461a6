/**
 * Page images for the export: the cached PNG of a page, rendered again from the project's copy of the source when
 * the cache lost it (PageImageCache.ensure). A page whose source is missing too cannot have an image.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProjectStore } from '../store/projectStore.js';
import type { PageImageRequest } from './exportCorpus.js';

/** What the export needs of the page image cache (main/services/pageImageCache.ts, which sits above corpus/). */
export interface PageImageCache {
  pathFor(sha256: string, pageNumber: number): string;
  ensure(sha256: string, pageNumber: number, name: string, sourceBytes: () => Buffer): Promise<string>;
}

export function projectPageImages(store: ProjectStore, cache: PageImageCache): (page: PageImageRequest) => Promise<Buffer> {
  return async (page) =>
    fs.readFileSync(
      await cache.ensure(page.documentSha256, page.pageNumber, page.documentName, () => store.getSourceBytes(page.documentSha256)),
    );
}

/** For corpus import: the corpus's page image becomes the cached image of the imported page. */
export function seedPageImage(cache: PageImageCache): (sourceSha256: string, pageNumber: number, imageFile: string) => void {
  return (sourceSha256, pageNumber, imageFile) => {
    const target = cache.pathFor(sourceSha256, pageNumber);
    if (fs.existsSync(target)) return;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(imageFile, target);
  };
}
