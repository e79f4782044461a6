/**
 * Generates resources/samples: for each synthetic invoice a born-digital PDF (pdf-lib, standard fonts), a
 * scanned-looking PNG of the same page (rendered at 150 dpi, turned by about 1°, grey paper, speckle noise and a
 * little blur) and, for each of the two, `<file name without extension>.truth.json` with the full text and the fields.
 *
 * Deterministic: fixed dates and metadata in the PDF, a seeded random generator for the noise. Run: `npm run samples`.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';
import sharp from 'sharp';
import { importPdf } from '../../main/import/pdfImport.js';
import { isCentred, sampleInvoices, truthText, type FontKey, type SampleInvoice } from './sampleInvoices.js';
import { seededRandom } from '../seededRandom.js';

const SAMPLES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'resources', 'samples');
const FIXED_DATE = new Date('2024-01-01T00:00:00Z');
const SCAN_DPI = 150;
const SCAN_SKEW_DEGREES = 1.1;

const FONTS: Record<SampleInvoice['family'], Record<FontKey, StandardFonts>> = {
  Helvetica: { regular: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique },
  Times: { regular: StandardFonts.TimesRoman, bold: StandardFonts.TimesRomanBold, italic: StandardFonts.TimesRomanItalic },
  Courier: { regular: StandardFonts.Courier, bold: StandardFonts.CourierBold, italic: StandardFonts.CourierOblique },
};

async function makePdf(invoice: SampleInvoice): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const date of ['setCreationDate', 'setModificationDate'] as const) pdf[date](FIXED_DATE);
  pdf.setProducer('Recto sample generator');
  pdf.setCreator('Recto sample generator');
  pdf.setTitle(`Invoice ${invoice.fields.invoice_number}`);
  const page = pdf.addPage([612, 792]);
  const fonts = {} as Record<FontKey, PDFFont>;
  for (const key of ['regular', 'bold', 'italic'] as const) fonts[key] = await pdf.embedFont(FONTS[invoice.family][key]);
  for (const run of invoice.runs) {
    const font = fonts[run.font];
    const width = font.widthOfTextAtSize(run.text, run.size);
    const x = isCentred(run) ? run.x - width / 2 : run.alignRight ? run.x - width : run.x;
    page.drawText(run.text, { x, y: run.y, size: run.size, font, color: rgb(0.1, 0.1, 0.12) });
  }
  for (const rule of invoice.rules) {
    page.drawLine({ start: { x: rule.x1, y: rule.y }, end: { x: rule.x2, y: rule.y }, thickness: rule.thickness, color: rgb(0.3, 0.3, 0.3) });
  }
  return pdf.save({ useObjectStreams: false });
}

/** The rendered page made to look scanned; returns PNG bytes. */
async function makeScan(pagePng: string, seed: number): Promise<Buffer> {
  // Grey paper: ink stays dark, white becomes ~232; then turned, with the uncovered corners in the same grey.
  const paper = 232;
  const turned = await sharp(pagePng)
    .greyscale()
    .linear(paper / 255, 0)
    .rotate(SCAN_SKEW_DEGREES, { background: { r: paper, g: paper, b: paper } })
    .blur(0.6)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = turned.info;
  const pixels = turned.data; // [height, width, channels] uint8, greyscale (channels is 1)
  const random = seededRandom(seed);
  for (let i = 0; i < pixels.length; i += channels) {
    const r = random();
    // Sparse speckles (dust, toner) and rare light dropouts. No per-pixel jitter: it would not survive the
    // 16-level palette anyway and would make the PNG ten times larger.
    if (r < 0.0015) pixels[i] = Math.max(0, pixels[i] - 110 - Math.floor(random() * 60));
    else if (r < 0.002) pixels[i] = Math.min(255, pixels[i] + 40);
  }
  return sharp(pixels, { raw: { width, height, channels } })
    .png({ palette: true, colors: 16, dither: 0, compressionLevel: 9, effort: 10 })
    .withMetadata({ density: SCAN_DPI })
    .toBuffer();
}

async function main(): Promise<void> {
  await mkdir(SAMPLES_DIR, { recursive: true });
  const work = await mkdtemp(path.join(os.tmpdir(), 'recto-samples-'));
  try {
    for (const [index, invoice] of sampleInvoices.entries()) {
      const pdfName = `${invoice.name}.pdf`;
      const scanName = `${invoice.name}-scan.png`;
      const pdfBytes = await makePdf(invoice);
      await writeFile(path.join(SAMPLES_DIR, pdfName), pdfBytes);
      const [page] = await importPdf(pdfName, pdfBytes, work, { dpi: SCAN_DPI });
      const scan = await makeScan(page.imagePath, 1000 + index);
      await writeFile(path.join(SAMPLES_DIR, scanName), scan);
      const text = truthText(invoice);
      const truth = (file: string, extra: Record<string, unknown>) => ({ file, text, fields: invoice.fields, ...extra });
      await writeJson(`${invoice.name}.truth.json`, truth(pdfName, { kind: 'born-digital', pages: 1 }));
      await writeJson(
        `${invoice.name}-scan.truth.json`,
        truth(scanName, { kind: 'scan', pages: 1, dpi: SCAN_DPI, skewDegrees: SCAN_SKEW_DEGREES }),
      );
      const sizes = await Promise.all([pdfName, scanName].map(async (name) => (await readFile(path.join(SAMPLES_DIR, name))).length));
      console.log(`${pdfName} ${(sizes[0] / 1024).toFixed(0)} KB, ${scanName} ${(sizes[1] / 1024).toFixed(0)} KB`);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function writeJson(name: string, value: unknown): Promise<void> {
  await writeFile(path.join(SAMPLES_DIR, name), `${JSON.stringify(value, null, 2)}\n`);
}

await main();
