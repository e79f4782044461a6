/**
 * Adapters from a real engine to the benchmark harnesses' callbacks (ReadPage, ReadInvoice): each file is imported
 * once through main/import (pages rendered to PNG + PDF text layer, cached by content hash under `cacheDir`), each
 * page is read once by the engine, and reads run concurrently up to `concurrency` so that an engine with several OCR
 * workers keeps them busy even though the harnesses ask for pages one at a time (see `prefetch`).
 */
import type { Engine, PageInput } from '../../app/model/engine.js';
import type { Extraction, Word } from '../../app/model/extraction.js';
import { importDocument, type ImportedDocument, type ImportedPage } from '../../main/import/index.js';
import type { InvoiceReading, ReadInvoice } from './invoiceFieldBench.js';
import type { ReadPage } from './olmocrBench.js';

/** The error for invoice2data's one text-file sample (Orlen.txt): there is no page for an engine to read. */
export const TEXT_ONLY_SAMPLE = 'a text-only sample: engines read PDFs and images, not text files (not scored)';

export function pageInputOf(page: ImportedPage, filePath: string): PageInput {
  return {
    imagePath: page.imagePath,
    width: page.width,
    height: page.height,
    dpi: page.dpi,
    textLayer: page.textLayer,
    label: `${filePath} p. ${page.pageNumber}`,
  };
}

/** Undoes Markdown backslash escapes (`\$4.11` → `$4.11`): for comparing the engine's text with plain references. */
export function unescapeMarkdown(markdown: string): string {
  return markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** Runs async jobs with at most `limit` in flight. */
export function limiter(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: Array<() => void> = [];
  const next = (): void => {
    if (active >= limit) return;
    const start = queue.shift();
    if (start) {
      active++;
      start();
    }
  };
  return <T>(job: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        job()
          .then(resolve, reject)
          .finally(() => {
            active--;
            next();
          });
      });
      next();
    });
}

export interface EnginePageReader {
  /** The page's whole extraction (memoised: a page is read once). */
  extraction(filePath: string, pageNumber: number): Promise<Extraction>;
  /** The harnesses' callback: the page's Markdown. */
  markdown: ReadPage;
  /** The document as an invoice: every page's words (boxes stacked page under page) and Markdown. */
  invoice: ReadInvoice;
  /** Starts reading these pages now, `concurrency` at a time; errors surface later through the readers. */
  prefetch(pages: { filePath: string; pageNumber: number }[]): Promise<void>;
  /** Imported documents (memoised). */
  document(filePath: string): Promise<ImportedDocument>;
}

export function enginePageReader(engine: Engine, options: { cacheDir: string; concurrency?: number }): EnginePageReader {
  const imports = new Map<string, Promise<ImportedDocument>>();
  const reads = new Map<string, Promise<Extraction>>();
  const limit = limiter(Math.max(1, options.concurrency ?? 1));

  const document = (filePath: string): Promise<ImportedDocument> => {
    let imported = imports.get(filePath);
    if (!imported) {
      imported = importDocument(filePath, options.cacheDir);
      imports.set(filePath, imported);
    }
    return imported;
  };

  const extraction = (filePath: string, pageNumber: number): Promise<Extraction> => {
    const key = `${filePath}\u0000${pageNumber}`;
    let read = reads.get(key);
    if (!read) {
      read = document(filePath).then((doc) => {
        const page = doc.pages.find((p) => p.pageNumber === pageNumber);
        if (!page) throw new Error(`${filePath} has ${doc.pages.length} page(s); page ${pageNumber} asked for`);
        return limit(() => engine.read(pageInputOf(page, filePath)));
      });
      reads.set(key, read);
    }
    return read;
  };

  const invoice: ReadInvoice = async (filePath) => {
    if (/\.txt$/i.test(filePath)) throw new Error(TEXT_ONLY_SAMPLE);
    const doc = await document(filePath);
    const pages = await Promise.all(doc.pages.map((p) => extraction(filePath, p.pageNumber)));
    const words: Word[] = [];
    let top = 0;
    doc.pages.forEach((page, i) => {
      for (const w of pages[i]!.words ?? []) words.push({ ...w, box: [w.box[0], w.box[1] + top, w.box[2], w.box[3] + top] });
      top += page.height;
    });
    const reading: InvoiceReading = { words, markdown: pages.map((p) => unescapeMarkdown(p.markdown)).join('\n\n') };
    return reading;
  };

  return {
    extraction,
    markdown: async (filePath, pageNumber) => (await extraction(filePath, pageNumber)).markdown,
    invoice,
    document,
    async prefetch(pages) {
      await Promise.allSettled(pages.map((p) => extraction(p.filePath, p.pageNumber)));
    },
  };
}

/**
 * The pages a harness will ask for, found by running it once with an engine that records the request and answers
 * nothing (scoring empty pages is cheap). Lets the caller prefetch them concurrently before the real run.
 */
export async function pagesAskedBy(run: (readPage: ReadPage) => Promise<unknown>): Promise<{ filePath: string; pageNumber: number }[]> {
  const asked: { filePath: string; pageNumber: number }[] = [];
  await run(async (filePath, pageNumber) => {
    asked.push({ filePath, pageNumber });
    return '';
  });
  return asked;
}
