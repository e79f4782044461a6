/**
 * Bad input as a phone gives it, on a real scanned receipt (receipts/ in the test documents): the receipt upside down,
 * the receipt photographed on a dark, textured table (smaller, slightly turned), and a photo of nothing (an even grey
 * with sensor noise). Each is read — the first two with the merchant and the amount paid of the upright receipt — or
 * read as empty, never a crash. Generated from the receipt with sharp; speed is measured in bench:fields, not here.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractionSchema, type Extraction } from '../../app/model/extraction.js';
import type { PlainInvoiceFields } from '../../app/invoice/index.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { BundledEngine } from './index.js';

// A development receipt (bench/fields/heldOutVendors.ts keeps its vendor out of the held-out split).
const receipt = path.join(defaultTestdataRoot, 'receipts', 'img', '075.jpg');
const haveReceipt = existsSync(receipt);
if (!haveReceipt) console.warn(`SKIPPED: receipt photo tests: ${receipt} is absent (the test documents, ../shared/testdata)`);

describe.skipIf(!haveReceipt)('receipts as photographed', () => {
  let engine: BundledEngine;
  let dir: string;
  beforeAll(async () => {
    engine = new BundledEngine({ ocrWorkers: 1 });
    dir = await mkdtemp(path.join(os.tmpdir(), 'recto-receipt-photos-'));
  });
  afterAll(async () => {
    await engine.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  const read = async (file: string): Promise<Extraction> => {
    const { width, height } = await sharp(file).metadata();
    const extraction = await engine.read({ imagePath: file, width: width!, height: height!, dpi: 300, textLayer: null, label: path.basename(file) });
    extractionSchema.parse(extraction);
    return extraction;
  };
  /** The page's invoice fields as the engine attaches them (invoiceFields.ts: `fields.invoice`). */
  const invoiceOf = (x: Extraction): Partial<PlainInvoiceFields> => (x.fields?.invoice ?? {}) as Partial<PlainInvoiceFields>;
  const paid = (x: Extraction) => ({ seller: invoiceOf(x).seller ?? null, total: invoiceOf(x).total ?? null });

  it('upside down and on a table: the merchant and the amount paid of the upright receipt', async () => {
    const upright = paid(await read(receipt));
    expect(upright.total).not.toBeNull();
    expect(upright.seller).toMatch(/STATIONERY/);

    const upsideDown = path.join(dir, 'upside-down.jpg');
    await sharp(receipt).rotate(180).toFile(upsideDown);
    const turned = await read(upsideDown);
    expect(turned.engine.settings).toMatchObject({ orientationDegrees: 180 });
    expect(paid(turned)).toEqual(upright);

    // On a table: the receipt at its size on a dark textured ground 1.6 × 1.3 its size, turned 3°.
    const { width, height } = await sharp(receipt).metadata();
    const [w, h] = [Math.round(width! * 1.6), Math.round(height! * 1.3)];
    const ground = Buffer.alloc(w * h * 3);
    for (let i = 0; i < ground.length; i++) ground[i] = 40 + ((i * 7919) % 37);
    const onTable = path.join(dir, 'on-a-table.jpg');
    const tilted = await sharp(receipt).rotate(3, { background: '#303030' }).toBuffer();
    await sharp(ground, { raw: { width: w, height: h, channels: 3 } }).composite([{ input: tilted, left: Math.round(w * 0.18), top: Math.round(h * 0.1) }]).jpeg().toFile(onTable);
    expect(paid(await read(onTable)).total).toBe(upright.total);
  });

  it('a photo of nothing (even grey, sensor noise) reads as an empty page', async () => {
    const [w, h] = [1200, 1600];
    const grey = Buffer.alloc(w * h * 3);
    for (let i = 0; i < grey.length; i++) grey[i] = 150 + ((i * 2654435761) % 9);
    const nothing = path.join(dir, 'nothing.jpg');
    await sharp(grey, { raw: { width: w, height: h, channels: 3 } }).jpeg().toFile(nothing);
    const extraction = await read(nothing);
    expect(invoiceOf(extraction).total ?? null).toBeNull();
    expect((extraction.words ?? []).filter((word) => /[\p{L}\p{N}]{3}/u.test(word.text)).length).toBeLessThan(3);
  });
});
