/**
 * `npx tsx bench/fields/receiptsBeyondTestdata.ts --from DIR --out DIR [--testdata DIR] [--exclude DIR]…`: a second receipts set for
 * `bench:fields -- --receipts --testdata OUT --boxes OUT/receipts/box`, made of the public SROIE 2019 receipts that
 * are NOT in `../shared/testdata/receipts/` and whose vendor is none of its vendors (docs/benchmarks.md, "Receipts
 * beyond the test data"). `--from`: an upstream checkout's `data/` folder (`img/`, `key/`, `box/*.csv`, e.g.
 * github.com/zzzDavid/ICDAR-2019-SROIE). OUT/receipts holds hard links to the upstream files (copies where the file
 * system cannot link) and a vendors.tsv; OUT is outside the repository. The bench's hash rule (heldOutVendors.ts) splits these vendors too; its held-out vendors' scores are
 * read, never their failures.
 *
 * Vendors are the key's company, A–Z0–9 only; the same shop spelled slightly apart in two keys ("MR D.I.Y. (M) SDN
 * BHD", "MR. D.I.Y (M) SDN BHD") is one vendor (sameVendor), and so is a chain's outlet. A receipt whose vendor is that
 * close to a test-data vendor is left out, so that no test-data vendor (held out there or not) is studied here. At
 * most PER_VENDOR receipts of a vendor are taken (the first by number).
 *
 * `--exclude DIR` (repeatable): another set made by this script (its `receipts/vendors.tsv`), whose vendors are left
 * out like the test data's. A third set made from receipts none of the earlier sets' vendors printed (SROIE's test
 * split beside its training split) is new development material whose layouts no rule was written on, and its own
 * held-out vendors a third score no rule was chosen on.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { levenshtein } from '../../app/checks/textDistance.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { readReceiptVendors } from './heldOutVendors.js';

/** Two company keys this many edits apart or closer (or one inside the other) name one vendor. */
const VENDOR_EDITS = 3;

export const vendorKeyOf = (company: string): string => company.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** A key without its legal form at the end ("MRDIYKUCHAISDNBHD" → "MRDIYKUCHAI"). */
const withoutLegalForm = (key: string): string => key.replace(/(?:SDNBHD|SDNBERHAD|BERHAD|BHD|SB|PLT|ENTERPRISES?|TRADING|LTD)+$/, '');

/** One vendor: keys a few edits apart, one inside the other, or one's name (legal form aside) starting the other's (a chain's outlet, "MR D.I.Y. (KUCHAI)"). */
export function sameVendor(a: string, b: string): boolean {
  if (a.length >= 6 && b.length >= 6 && (a.includes(b) || b.includes(a))) return true;
  const [x, y] = [withoutLegalForm(a), withoutLegalForm(b)];
  if (Math.min(x.length, y.length) >= 5 && (x.startsWith(y) || y.startsWith(x))) return true;
  return levenshtein(a, b) <= VENDOR_EDITS;
}

/** At most this many receipts of one vendor (the test data's own share: 3–4), so that no one shop weighs for many. */
const PER_VENDOR = 4;

/** A hard link where the file system allows one (Recto's import refuses symbolic links), else a copy. */
function place(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

function main(): void {
  const { values } = parseArgs({ options: { from: { type: 'string' }, out: { type: 'string' }, testdata: { type: 'string' }, exclude: { type: 'string', multiple: true } } });
  if (!values.from || !values.out) throw new Error('usage: receiptsBeyondTestdata.ts --from <SROIE data/ folder> --out <folder> [--testdata DIR] [--exclude <an earlier set>]…');
  const from = path.resolve(values.from);
  const testReceipts = path.join(path.resolve(values.testdata ?? defaultTestdataRoot), 'receipts');
  for (const sub of ['img', 'key', 'box']) if (!existsSync(path.join(from, sub))) throw new Error(`${from}: no ${sub}/ folder (an upstream SROIE checkout's data/ is expected)`);
  const known = readReceiptVendors(testReceipts);
  const knownReceipts = new Set(known.map((k) => k.receipt));
  const excluded = (values.exclude ?? []).flatMap((dir) => readReceiptVendors(path.join(path.resolve(dir), 'receipts')));
  // Each set's vendor key and every spelling of it its receipts print.
  const knownVendors = [...new Set([...known, ...excluded].flatMap((k) => [k.vendorKey, vendorKeyOf(k.company)]))];

  const out = path.join(path.resolve(values.out), 'receipts');
  rmSync(out, { recursive: true, force: true });
  for (const sub of ['img', 'key', 'box']) mkdirSync(path.join(out, sub), { recursive: true });
  const vendors: string[] = [];
  const rows: string[] = ['receipt\tvendor_key\tcompany'];
  let near = 0;
  const perVendor = new Map<string, number>();
  for (const file of readdirSync(path.join(from, 'key')).filter((f) => f.endsWith('.json')).sort()) {
    const receipt = file.slice(0, -'.json'.length);
    if (knownReceipts.has(receipt)) continue;
    const image = path.join(from, 'img', `${receipt}.jpg`);
    const box = path.join(from, 'box', `${receipt}.csv`);
    if (!existsSync(image) || !existsSync(box)) continue;
    const company = String((JSON.parse(readFileSync(path.join(from, 'key', file), 'utf8')) as { company?: unknown }).company ?? '').trim();
    const key = vendorKeyOf(company);
    if (key.length < 3) continue;
    if (knownVendors.some((k) => sameVendor(k, key))) {
      near++;
      continue;
    }
    const vendor = vendors.find((v) => sameVendor(v, key)) ?? key;
    if (!vendors.includes(vendor)) vendors.push(vendor);
    if ((perVendor.get(vendor) ?? 0) >= PER_VENDOR) continue;
    perVendor.set(vendor, (perVendor.get(vendor) ?? 0) + 1);
    place(image, path.join(out, 'img', `${receipt}.jpg`));
    place(path.join(from, 'key', file), path.join(out, 'key', file));
    place(box, path.join(out, 'box', `${receipt}.txt`));
    rows.push(`${receipt}\t${vendor}\t${company.replace(/\s+/g, ' ')}`);
  }
  writeFileSync(path.join(out, 'vendors.tsv'), `${rows.join('\n')}\n`);
  console.log(`${rows.length - 1} receipts of ${vendors.length} vendors (at most ${PER_VENDOR} each) in ${out}; ${near} left out as a test-data or excluded set's vendor's`);
}

main();
