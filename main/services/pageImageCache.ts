/**
 * Page images live in the cache folder under the source file's SHA-256: `<cache>/pages/<sha256>/<page>.png`, with
 * their screen copies beside them (`<page>.w768.png`, app/contract/screenImage.ts), made when the page is rendered.
 * They are a cache: when one is missing (a project copied from another machine, a cleaned cache) the page is
 * rendered again from the source bytes kept in the project; a missing copy is not made again on its own (the viewer
 * is then sent the page image).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lstatInside, mkdirInside, UnsafePathError, writeFileInside } from '../util/containedPaths.js';
import sharp from 'sharp';
import { DEFAULT_MAX_PAGES } from '../../app/model/pageLimits.js';
import { screenCopyWidthsFor, type ScreenImageWidth } from '../../app/contract/screenImage.js';
import type { InspectFile, InspectedFile, InspectOptions } from './documentImporter.js';

export class PageImageCache {
  constructor(
    private readonly cacheDir: string,
    private readonly inspect: InspectFile,
    /** The user's page cap (Settings: maxPagesPerDocument), read when a page is rendered again. */
    private readonly maxPages: () => number = () => DEFAULT_MAX_PAGES,
  ) {}

  pathFor(sha256: string, pageNumber: number): string {
    return path.join(this.cacheDir, ...this.relativeFor(sha256, pageNumber).split('/'));
  }

  private relativeFor(sha256: string, pageNumber: number, screenWidth: ScreenImageWidth | null = null): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`Not a SHA-256: ${sha256}`);
    if (!Number.isSafeInteger(pageNumber) || pageNumber < 1) throw new Error(`Not a page number: ${pageNumber}`);
    return screenWidth === null ? `pages/${sha256}/${pageNumber}.png` : `pages/${sha256}/${pageNumber}.w${screenWidth}.png`;
  }

  /** The page's screen copy of that width, if the cache has one. */
  screenCopyPath(sha256: string, pageNumber: number, width: ScreenImageWidth): string | null {
    return this.cachedFile(this.relativeFor(sha256, pageNumber, width));
  }

  /**
   * Makes the page's screen copies (the widths its image is wide enough for) from its cached image. A copy is written
   * under a temporary name and renamed, so a reader never gets half of one. Failing, it leaves that copy out: the
   * viewer is sent the page image instead.
   */
  async makeScreenCopies(sha256: string, pageNumber: number): Promise<void> {
    const source = this.cachedFile(this.relativeFor(sha256, pageNumber));
    if (!source) return;
    try {
      const { width } = await sharp(source).metadata();
      for (const step of screenCopyWidthsFor(width ?? 0)) {
        const relative = this.relativeFor(sha256, pageNumber, step);
        const staging = `${relative}.partial`;
        this.clearUnsafe(relative);
        this.clearUnsafe(staging);
        // Fast to encode (level 3): the copy is read by the browser once per visit and never leaves the cache.
        writeFileInside(this.cacheDir, staging, await sharp(source).resize({ width: step }).png({ compressionLevel: 3 }).toBuffer());
        fs.renameSync(path.join(this.cacheDir, ...staging.split('/')), path.join(this.cacheDir, ...relative.split('/')));
      }
    } catch {
      // A page image sharp cannot read was already refused at import; anything else only costs the viewer a decode.
    }
  }

  /**
   * The cached image as a regular file, or null. The cache is ours: a link or anything else planted on the way
   * (in place of `pages/`, the document's folder or the image) is removed — never followed — and the image made again.
   */
  private cachedFile(relative: string): string | null {
    try {
      const stat = lstatInside(this.cacheDir, relative);
      return stat?.isFile() ? path.join(this.cacheDir, ...relative.split('/')) : null;
    } catch (error) {
      if (!(error instanceof UnsafePathError)) throw error;
      this.clearUnsafe(relative);
      return null;
    }
  }

  /** Removes whatever on the path to `relative` is not a plain folder (or, at the end, a regular file). */
  private clearUnsafe(relative: string): void {
    const parts = relative.split('/');
    for (let index = 1; index <= parts.length; index++) {
      const partial = path.join(this.cacheDir, ...parts.slice(0, index));
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(partial);
      } catch {
        return;
      }
      const fine = index < parts.length ? stat.isDirectory() : stat.isFile();
      if (!fine) {
        fs.rmSync(partial, { recursive: true, force: true });
        return;
      }
    }
  }

  /** Puts checked PNG bytes in the cache for a page (nothing when it already has an image). */
  seed(sha256: string, pageNumber: number, png: Buffer): void {
    const relative = this.relativeFor(sha256, pageNumber);
    if (this.cachedFile(relative)) return;
    this.clearUnsafe(relative);
    fs.mkdirSync(this.cacheDir, { recursive: true });
    writeFileInside(this.cacheDir, relative, png);
  }

  /** Inspects a file, moving its page images into the cache. Nothing is left behind when it fails. */
  async inspectIntoCache(filePath: string, displayName?: string, options?: InspectOptions): Promise<InspectedFile> {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-import-'));
    try {
      const inspected = await this.inspect(filePath, staging, displayName, options);
      fs.mkdirSync(this.cacheDir, { recursive: true });
      const pages = inspected.pages.map((page) => {
        const relative = this.relativeFor(inspected.sha256, page.pageNumber);
        this.clearUnsafe(relative);
        mkdirInside(this.cacheDir, path.posix.dirname(relative));
        const target = this.pathFor(inspected.sha256, page.pageNumber);
        moveFile(page.imagePath, target);
        return { ...page, imagePath: target };
      });
      for (const page of pages) await this.makeScreenCopies(inspected.sha256, page.pageNumber);
      return { ...inspected, pages };
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }

  /** The cached image of a page, rendered again from the source bytes if it is missing. */
  async ensure(sha256: string, pageNumber: number, name: string, sourceBytes: () => Buffer): Promise<string> {
    const relative = this.relativeFor(sha256, pageNumber);
    const cached = this.cachedFile(relative);
    if (cached) return cached;
    const target = this.pathFor(sha256, pageNumber);
    // The project's copy of the source is checked before use: a hostile project may store other bytes under a
    // document's hash (a million-page PDF under a one-page document's).
    const bytes = sourceBytes();
    if (createHash('sha256').update(bytes).digest('hex') !== sha256) {
      throw new Error(`${name}: the project's copy of the source does not match its SHA-256; page ${pageNumber} not rendered`);
    }
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-rerender-'));
    try {
      const source = path.join(staging, 'source');
      fs.writeFileSync(source, bytes);
      // Only the lost page is rendered, under the same page cap as an import (a project is no licence to skip it).
      await this.inspectIntoCache(source, name, { maxPages: this.maxPages(), pages: [pageNumber] });
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
    if (!this.cachedFile(relative)) throw new Error(`${name}: page ${pageNumber} could not be rendered again`);
    return target;
  }
}

/** rename() fails across devices (tmp on another filesystem); copy then. */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
    fs.rmSync(from, { force: true });
  }
}
