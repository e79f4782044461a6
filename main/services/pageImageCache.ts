/**
 * Page images live in the cache folder under the source file's SHA-256: `<cache>/pages/<sha256>/<page>.png`.
 * They are a cache: when one is missing (a project copied from another machine, a cleaned cache) the page is
 * rendered again from the source bytes kept in the project.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InspectFile, InspectedFile } from './documentImporter.js';

export class PageImageCache {
  constructor(
    private readonly cacheDir: string,
    private readonly inspect: InspectFile,
  ) {}

  pathFor(sha256: string, pageNumber: number): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`Not a SHA-256: ${sha256}`);
    return path.join(this.cacheDir, 'pages', sha256, `${pageNumber}.png`);
  }

  /** Inspects a file, moving its page images into the cache. Nothing is left behind when it fails. */
  async inspectIntoCache(filePath: string, displayName?: string): Promise<InspectedFile> {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-import-'));
    try {
      const inspected = await this.inspect(filePath, staging, displayName);
      const pages = inspected.pages.map((page) => {
        const target = this.pathFor(inspected.sha256, page.pageNumber);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        moveFile(page.imagePath, target);
        return { ...page, imagePath: target };
      });
      return { ...inspected, pages };
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }

  /** The cached image of a page, rendered again from the source bytes if it is missing. */
  async ensure(sha256: string, pageNumber: number, name: string, sourceBytes: () => Buffer): Promise<string> {
    const target = this.pathFor(sha256, pageNumber);
    if (fs.existsSync(target)) return target;
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-rerender-'));
    try {
      const source = path.join(staging, 'source');
      fs.writeFileSync(source, sourceBytes());
      await this.inspectIntoCache(source, name);
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
    if (!fs.existsSync(target)) throw new Error(`${name}: page ${pageNumber} could not be rendered again`);
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
