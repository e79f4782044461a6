/**
 * `npx tsx bench/fields/receiptsRescanned.ts --testdata DIR --out DIR [--profile coarse|faded]`: the development
 * receipts of a receipts set (`DIR/receipts/`: the test data's, or a set made by receiptsBeyondTestdata.ts) as if
 * scanned again, worse, for `bench:fields -- --receipts --testdata OUT --words-cache F`.
 *
 * Why: the rules that read a receipt's fields were written on development receipts as OCR read them, and held-out
 * receipts score lower — partly other layouts, partly other OCR noise. The same receipts scanned again put new noise
 * on layouts the rules know, so what a rule loses there it loses to noise: a rule that holds only on the exact slips
 * it was written on shows here, on receipts that may be studied. Held-out vendors are left out (their receipts are
 * read only as scores, in their own set), so nothing here is a held-out receipt in another dress.
 *
 * Profiles (the kinds of scan the held-out receipts come in, applied to the whole image):
 * - `coarse`: 65 % of the size, turned 0.8°, JPEG quality 50 — a lower resolution and a worse compression, where
 *   decimal points, slashes and thin strokes go first;
 * - `faded`: 80 % of the size, contrast 0.55 toward white (thermal print faded), turned −0.5°, JPEG quality 60.
 * OUT/receipts holds the degraded images and hard links (copies where linking fails) to the keys and boxes.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { hashPicksVendor, readReceiptVendors } from './heldOutVendors.js';

export interface RescanProfile {
  scale: number;
  /** The contrast kept (1: as scanned); the rest goes toward white. */
  contrast: number;
  degrees: number;
  quality: number;
}

export const rescanProfiles: Record<string, RescanProfile> = {
  coarse: { scale: 0.65, contrast: 1, degrees: 0.8, quality: 50 },
  faded: { scale: 0.8, contrast: 0.55, degrees: -0.5, quality: 60 },
};

/** The image scanned again under `profile`, as JPEG bytes. */
export async function rescan(image: Buffer | string, profile: RescanProfile): Promise<Buffer> {
  const { width } = await sharp(image).metadata();
  if (!width) throw new Error('no image width');
  return sharp(image)
    .resize(Math.max(1, Math.round(width * profile.scale)))
    .linear(profile.contrast, 255 * (1 - profile.contrast))
    .rotate(profile.degrees, { background: '#ffffff' })
    .jpeg({ quality: profile.quality })
    .toBuffer();
}

function place(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { testdata: { type: 'string' }, out: { type: 'string' }, profile: { type: 'string', default: 'coarse' } } });
  const profile = rescanProfiles[values.profile!];
  if (!values.out || !profile) throw new Error(`usage: receiptsRescanned.ts [--testdata DIR] --out <folder> [--profile ${Object.keys(rescanProfiles).join('|')}]`);
  const from = path.join(path.resolve(values.testdata ?? defaultTestdataRoot), 'receipts');
  if (!existsSync(path.join(from, 'vendors.tsv'))) throw new Error(`${from}: no vendors.tsv (a receipts set is expected)`);
  const out = path.join(path.resolve(values.out), 'receipts');
  if (path.resolve(out) === path.resolve(from)) throw new Error('--out must differ from the set read');
  rmSync(out, { recursive: true, force: true });
  for (const sub of ['img', 'key', 'box']) mkdirSync(path.join(out, sub), { recursive: true });
  const development = readReceiptVendors(from).filter((r) => !hashPicksVendor(r.vendorKey));
  const images = readdirSync(path.join(from, 'img'));
  const rows = ['receipt\tvendor_key\tcompany'];
  for (const entry of development) {
    const image = images.find((f) => f.startsWith(`${entry.receipt}.`));
    if (!image) continue;
    writeFileSync(path.join(out, 'img', `${entry.receipt}.jpg`), await rescan(path.join(from, 'img', image), profile));
    for (const [sub, ext] of [['key', 'json'], ['box', 'txt']] as const) {
      const file = path.join(from, sub, `${entry.receipt}.${ext}`);
      if (existsSync(file)) place(file, path.join(out, sub, `${entry.receipt}.${ext}`));
    }
    rows.push(`${entry.receipt}\t${entry.vendorKey}\t${entry.company}`);
  }
  writeFileSync(path.join(out, 'vendors.tsv'), `${rows.join('\n')}\n`);
  console.log(`${rows.length - 1} development receipts rescanned (${values.profile}) into ${out}; held-out vendors left out`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
