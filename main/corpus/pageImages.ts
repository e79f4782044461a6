/**
 * Page images for the export: the cached PNG of a page, rendered again from the project's copy of the source when
 * the cache lost it (PageImageCache.ensure). A page whose source is missing too cannot have an image.
 */
import { readRegularFile } from '../util/containedPaths.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { PageImageRequest } from './exportCorpus.js';

/** What the export needs of the page image cache (main/services/pageImageCache.ts, which sits above corpus/). */
export interface PageImageCache {
  pathFor(sha256: string, pageNumber: number): string;
  /** Puts checked PNG bytes in the cache for a page (nothing when it already has an image). */
  seed(sha256: string, pageNumber: number, png: Buffer): void;
  ensure(sha256: string, pageNumber: number, name: string, sourceBytes: () => Buffer): Promise<string>;
}

export function projectPageImages(store: ProjectStore, cache: PageImageCache): (page: PageImageRequest) => Promise<Buffer> {
  return async (page) =>
    // ensure() hands back a regular file of the cache (never a link); it is read without following one all the same.
    readRegularFile(
      await cache.ensure(page.documentSha256, page.pageNumber, page.documentName, () => store.documents.getSourceBytes(page.documentSha256)),
    );
}

/** For corpus import: the corpus's page image (checked PNG bytes) becomes the cached image of the imported page. */
export function seedPageImage(cache: PageImageCache): (sourceSha256: string, pageNumber: number, png: Buffer) => void {
  return (sourceSha256, pageNumber, png) => cache.seed(sourceSha256, pageNumber, png);
}
