/**
 * One page cap for every way a document enters or is rendered again (issue 23, holes 3 and 4): a standalone XML
 * whose layout runs past the cap is refused before a page is drawn; the page-image cache renders only the page it
 * lost, under the user's cap, and only from a source that matches its SHA-256.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectFile } from '../composition/createRectoSession.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { importDocument } from './importDocument.js';
import { ImportError } from './importError.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-page-limits-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function pdfOfPages(count: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < count; i++) pdf.addPage([200, 200]);
  return Buffer.from(await pdf.save());
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the page-image cache', () => {
  it('renders only the lost page of a 300-page source', async () => {
    const bytes = await pdfOfPages(300);
    const cache = new PageImageCache(path.join(dir, 'cache-a'), inspectFile, () => 2000);
    const image = await cache.ensure(sha256(bytes), 7, 'long.pdf', () => bytes);
    expect(fs.existsSync(image)).toBe(true);
    expect(fs.readdirSync(path.dirname(image))).toEqual(['7.png']);
  });

  it('refuses a source past the user’s page cap', async () => {
    const bytes = await pdfOfPages(50);
    const cache = new PageImageCache(path.join(dir, 'cache-b'), inspectFile, () => 10);
    await expect(cache.ensure(sha256(bytes), 1, 'long.pdf', () => bytes)).rejects.toThrow(/50 pages, over the limit of 10 pages/);
  });

  it('refuses a source whose bytes are not its SHA-256', async () => {
    const bytes = await pdfOfPages(1);
    const cache = new PageImageCache(path.join(dir, 'cache-c'), inspectFile, () => 2000);
    await expect(cache.ensure(sha256(bytes), 1, 'swapped.pdf', () => Buffer.concat([bytes, Buffer.from(' ')]))).rejects.toThrow(
      /does not match its SHA-256/,
    );
  });
});

const ciiDir = path.join(defaultTestdataRoot, 'einvoices', 'xml', 'cii');
const haveCii = fs.existsSync(ciiDir);
if (!haveCii) console.log(`SKIPPED: a long standalone XML against the page cap: ${ciiDir} is absent`);

describe.skipIf(!haveCii)('a standalone e-invoice XML', () => {
  it('whose layout runs past the page cap is refused before a page is drawn', async () => {
    const xml = fs.readFileSync(path.join(ciiDir, 'EN16931_Miete.cii.xml'), 'utf8');
    // The same line item 3,000 times: the readable layout runs to well over 20 pages.
    const item = /<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>/.exec(xml)![0];
    const long = xml.replace(item, item.repeat(3000));
    const file = path.join(dir, 'long.xml');
    fs.writeFileSync(file, long);
    const error = await importDocument(file, path.join(dir, 'xml-cache'), { maxPages: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message).toMatch(/pages, over the limit of 20 pages/);
    expect(fs.readdirSync(path.join(dir, 'xml-cache'))).toEqual([]);
  });
});
