import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importDocument, ImportError } from './index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = path.join(repoRoot, 'resources', 'samples');
const testdata = path.resolve(repoRoot, '..', 'shared', 'testdata');
const awsPdf = path.join(testdata, 'invoice2data', 'tests', 'compare', 'AmazonWebServices.pdf');
const awsLayoutText = path.join(testdata, 'invoice2data', 'groundtruth_pdftotext', 'AmazonWebServices.layout.txt');
const hasTestdata = existsSync(awsPdf) && existsSync(awsLayoutText);
if (!hasTestdata) console.warn(`[skip] real-invoice import tests: ${testdata} is absent (it exists in CI)`);

let work: string;
let cache: string;
beforeEach(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'recto-import-test-'));
  cache = path.join(work, 'cache');
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

async function writeInput(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(work, name);
  await writeFile(file, bytes);
  return file;
}

/** Everything under the cache folder (empty when nothing was left behind). */
async function cacheEntries(): Promise<string[]> {
  return existsSync(cache) ? readdir(cache, { recursive: true }) : [];
}

describe.skipIf(!hasTestdata)('importDocument on a real invoice PDF', () => {
  it('renders the page at 180 dpi (its 8 pt body at a 10 px x-height) and keeps a text layer with the words pdftotext finds', async () => {
    const document = await importDocument(awsPdf, cache);
    expect(document.mediaType).toBe('application/pdf');
    expect(document.sha256).toMatch(/^[0-9a-f]{64}$/u);
    expect(document.pages).toHaveLength(1);
    const [page] = document.pages;
    expect(page).toMatchObject({ pageNumber: 1, width: 1530, height: 1980, dpi: 180 });
    const png = await sharp(page.imagePath).metadata();
    expect([png.format, png.width, png.height]).toEqual(['png', 1530, 1980]);

    const words = page.textLayer!.words;
    const ours = new Set(words.map((w) => w.text));
    const theirs = (await readFile(awsLayoutText, 'utf8')).split(/\s+/u).filter(Boolean);
    const found = theirs.filter((token) => ours.has(token)).length;
    expect(found / theirs.length).toBeGreaterThan(0.95);

    // Boxes lie on the page where the invoice prints them: the invoice number top right, in the heading's font size.
    for (const word of words) {
      expect(word.box[0]).toBeGreaterThanOrEqual(0);
      expect(word.box[2]).toBeLessThanOrEqual(page.width);
      expect(word.box[1]).toBeLessThan(word.box[3]);
    }
    const number = words.find((w) => w.text === '42183017')!;
    expect(number.box[0]).toBeGreaterThan(page.width / 2);
    expect(number.box[1]).toBeLessThan(page.height / 4);
    // "Amazon Web Services Invoice", the page's heading, is the largest "Amazon" and sits above the number.
    const [title] = words.filter((w) => w.text === 'Amazon').sort((a, b) => b.fontSize - a.fontSize);
    expect(title.fontSize).toBeGreaterThan(1.5 * number.fontSize);
    expect(title.box[3]).toBeLessThan(number.box[1]);
    expect(title.fontName).toMatch(/Helvetica/u);
  });
});

describe('importDocument on the samples', () => {
  it('reads the born-digital sample with its text layer', async () => {
    const document = await importDocument(path.join(samples, 'northwind-invoice.pdf'), cache);
    const [page] = document.pages;
    expect(page.dpi).toBe(150);
    const text = page.textLayer!.words.map((w) => w.text).join(' ');
    expect(text).toContain('Northwind Office Supplies Ltd.');
    expect(text).toContain('NW-2024-00187');
    expect(page.textLayer!.words.find((w) => w.text === 'INVOICE')!.fontName).toBe('Helvetica-Bold');
  });

  it('reads a PNG with its own dpi and no text layer, and answers a second import from the cache', async () => {
    const file = path.join(samples, 'northwind-invoice-scan.png');
    const document = await importDocument(file, cache);
    expect(document.mediaType).toBe('image/png');
    expect(document.pages).toHaveLength(1);
    expect(document.pages[0]).toMatchObject({ dpi: 150, textLayer: null });
    const before = await stat(document.pages[0].imagePath);
    const again = await importDocument(file, cache);
    expect(again).toEqual(document);
    expect((await stat(again.pages[0].imagePath)).mtimeMs).toBe(before.mtimeMs);
  });

  it('lets concurrent imports of one file agree on one complete folder', async () => {
    const file = path.join(samples, 'brightline-invoice.pdf');
    const [a, b] = await Promise.all([importDocument(file, cache), importDocument(file, cache)]);
    expect(a).toEqual(b);
    expect(existsSync(a.pages[0].imagePath)).toBe(true);
    expect((await readdir(cache)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('reports pages as they are written and stops when aborted, leaving nothing behind', async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 3; i++) pdf.addPage([200, 200]);
    const file = await writeInput('three.pdf', await pdf.save());
    const controller = new AbortController();
    const seen: Array<[number, number]> = [];
    const importing = importDocument(file, cache, {
      signal: controller.signal,
      onPage: (done, total) => {
        seen.push([done, total]);
        if (done === 1) controller.abort();
      },
    });
    await expect(importing).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([[1, 3]]);
    expect(await cacheEntries()).toEqual([]);
    const pages: Array<[number, number]> = [];
    await importDocument(file, cache, { onPage: (done, total) => pages.push([done, total]) });
    expect(pages).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('reads a JPEG whatever its extension, with 144 dpi when the file states none', async () => {
    const jpeg = await sharp(path.join(samples, 'brightline-invoice-scan.png')).jpeg().toBuffer();
    const file = await writeInput('scan.pdf', jpeg);
    const document = await importDocument(file, cache);
    expect(document.mediaType).toBe('image/jpeg');
    expect(document.pages[0].dpi).toBe(144);
    expect((await sharp(document.pages[0].imagePath).metadata()).format).toBe('png');
  });

  it('turns each page of a multi-page TIFF into a page', async () => {
    const white = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const grey = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } }).png().toBuffer();
    const tiff = await sharp([white, grey], { join: { animated: true } }).tiff().withMetadata({ density: 300 }).toBuffer();
    const document = await importDocument(await writeInput('two.tif', tiff), cache);
    expect(document.mediaType).toBe('image/tiff');
    expect(document.pages.map((p) => [p.pageNumber, p.width, p.height, p.dpi])).toEqual([
      [1, 300, 200, 300],
      [2, 300, 200, 300],
    ]);
    const stats = await Promise.all(document.pages.map((p) => sharp(p.imagePath).stats()));
    expect(stats[0].channels[0].mean).toBeGreaterThan(stats[1].channels[0].mean);
  });

  it('caps huge pages to the pixel budget and lowers their dpi to match', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([14_400, 14_400]); // 200 × 200 inches: 30000 × 30000 px at 150 dpi
    page.drawText('Huge', { x: 100, y: 14_000, size: 300, font: await pdf.embedFont(StandardFonts.Helvetica) });
    const file = await writeInput('huge.pdf', await pdf.save());
    const document = await importDocument(file, cache, { maxPixels: 1_000_000 });
    const [rendered] = document.pages;
    expect(rendered.width * rendered.height).toBeLessThanOrEqual(1_000_000 * 1.01);
    expect(rendered.width).toBe(1000);
    expect(rendered.dpi).toBeCloseTo(5, 1);
    expect(rendered.textLayer!.words[0].text).toBe('Huge');
  });

  it('reads a 20,000 × 20,000 px image, scaled down to the pixel budget while decoding', { timeout: 120_000 }, async () => {
    const file = path.join(work, 'huge.png');
    await sharp({ create: { width: 20_000, height: 20_000, channels: 3, background: '#ffffff' }, limitInputPixels: false })
      .composite([{ input: { create: { width: 4000, height: 400, channels: 3, background: '#000000' } }, left: 2000, top: 3000 }])
      .png({ compressionLevel: 1 })
      .toFile(file);
    const document = await importDocument(file, cache);
    const [page] = document.pages;
    expect(page.width).toBe(6000);
    expect(page.height).toBe(6000);
    // The black bar is still where it was, at 30% scale.
    const { data } = await sharp(page.imagePath).extract({ left: 600 + 100, top: 900 + 40, width: 8, height: 8 }).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(Math.max(...data)).toBeLessThan(40);
  });
});

/** A PNG that claims `width` × `height` pixels: a valid header and one row of data (how a decompression bomb starts). */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // grey
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(width + 1))), chunk('IEND', Buffer.alloc(0))]);
}

/** A PDF whose standard security handler (AES-256, R6) needs a user password that is not empty. */
function passwordProtectedPdf(): Buffer {
  const hex = (n: number): string => randomBytes(n).toString('hex');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Filter /Standard /V 5 /R 6 /Length 256 /P -1028 /O <${hex(48)}> /U <${hex(48)}> /OE <${hex(32)}> ` +
      `/UE <${hex(32)}> /Perms <${hex(16)}> /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> ` +
      '/StmF /StdCF /StrF /StdCF >>',
  ];
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R /ID [<${hex(16)}> <${hex(16)}>] >>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('importDocument refuses bad input, naming the file and the reason, leaving nothing behind', () => {
  const cases: Array<[string, string, () => Promise<Uint8Array>, RegExp, string]> = [
    ['an empty file', 'empty.pdf', async () => new Uint8Array(0), /the file is empty/u, 'empty'],
    ['a text file called .pdf', 'notes.pdf', async () => Buffer.from('just some notes\n'), /not a PDF, PNG, JPEG, TIFF or e-invoice XML/u, 'unsupported-type'],
    ['a PDF header followed by garbage', 'garbage.pdf', async () => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(4000)]), /damaged/u, 'corrupt'],
    [
      'a truncated PDF',
      'cut.pdf',
      async () => {
        const bytes = await readFile(path.join(samples, 'northwind-invoice.pdf'));
        return bytes.subarray(0, Math.floor(bytes.length * 0.4));
      },
      /damaged/u,
      'corrupt',
    ],
    ['a PNG claiming 40,000 × 40,000 pixels', 'bomb.png', async () => pngClaiming(40_000, 40_000), /40000 × 40000 px, over the limit/u, 'too-large'],
    ['a password-protected PDF', 'locked.pdf', async () => passwordProtectedPdf(), /encrypted with a password/u, 'encrypted'],
    [
      'a truncated PNG',
      'cut.png',
      async () => {
        const bytes = await readFile(path.join(samples, 'northwind-invoice-scan.png'));
        return bytes.subarray(0, Math.floor(bytes.length / 2));
      },
      /damaged or truncated/u,
      'corrupt',
    ],
    [
      'a truncated JPEG',
      'cut.jpg',
      async () => {
        const bytes = await sharp(path.join(samples, 'brightline-invoice-scan.png')).jpeg().toBuffer();
        return bytes.subarray(0, Math.floor(bytes.length / 2));
      },
      /damaged or truncated/u,
      'corrupt',
    ],
  ];

  for (const [what, name, make, message, reason] of cases) {
    it(`${what}`, async () => {
      const file = await writeInput(name, await make());
      const error = await importDocument(file, cache).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportError);
      expect((error as ImportError).message).toContain(name);
      expect((error as ImportError).message).toMatch(message);
      expect((error as ImportError).reason).toBe(reason);
      expect(await cacheEntries()).toEqual([]);
    });
  }

  it('a file that does not exist', async () => {
    const error = await importDocument(path.join(work, 'missing.pdf'), cache).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(/missing\.pdf.*does not exist/u);
  });
});
