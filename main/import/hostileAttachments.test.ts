/**
 * Hostile PDF attachments (issue 23, hole 2): a decompression bomb is refused by its declared size before any
 * inflating, or stopped at MAX_EINVOICE_BYTES when it declares nothing or lies; the PDF itself still imports. A
 * seeded fuzz over mutated PDFs checks the attachment scanner never throws and never inflates past the limit.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_EINVOICE_BYTES } from '../../app/einvoice/index.js';
import { bombPdf } from '../../testing/hostilePdfs.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { importDocument } from './importDocument.js';
import { readEmbeddedEInvoice } from './pdfAttachments.js';
import { embeddedFileHead, inflateEmbeddedFile, listEmbeddedFiles } from './pdfEmbeddedFiles.js';

const GB = 1 << 30;
const work = mkdtempSync(path.join(tmpdir(), 'recto-attachments-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('decompression bombs in attachments', () => {
  it('a declared size over the limit is refused without inflating', async () => {
    const result = await readEmbeddedEInvoice(bombPdf({ inflatedBytes: 20 * 1024 * 1024, declaredSize: GB }));
    expect(result).toMatchObject({ status: 'refused', fileName: 'factur-x.xml' });
    expect(result.status === 'refused' && result.message).toMatch(/declares 1073741824 bytes/);
  });

  it('a 1 GB bomb that declares nothing (or lies) stops at the limit', async () => {
    for (const declaredSize of [null, 1000]) {
      const result = await readEmbeddedEInvoice(bombPdf({ inflatedBytes: GB, declaredSize }));
      expect(result).toMatchObject({ status: 'refused', fileName: 'factur-x.xml' });
      expect(result.status === 'refused' && result.message).toMatch(/inflates to more than/);
    }
  });

  it('the PDF still imports its page; the refusal is reported', async () => {
    const file = path.join(work, 'bomb.pdf');
    writeFileSync(file, bombPdf({ inflatedBytes: GB, declaredSize: null }));
    const document = await importDocument(file, path.join(work, 'cache'));
    expect(document.pages).toHaveLength(1);
    expect(document.einvoice).toMatchObject({ status: 'refused', fileName: 'factur-x.xml' });
  });
});

describe('attachment scanner fuzz', () => {
  const realDir = path.join(defaultTestdataRoot, 'einvoices', 'pdfs');
  let seeds: Uint8Array[] = [bombPdf({ inflatedBytes: 64 * 1024, declaredSize: null })];
  try {
    seeds = [...seeds, ...readdirSync(realDir).slice(0, 3).map((name) => new Uint8Array(readFileSync(path.join(realDir, name))))];
  } catch {
    console.log(`SKIPPED: mutating real e-invoice PDFs: ${realDir} is absent (the built bomb is mutated alone)`);
  }

  it('never throws and never inflates past the limit on mutated PDFs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: seeds.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'cut', 'dup')), { minLength: 1, maxLength: 8 }),
        async (which, edits) => {
          let bytes = Buffer.from(seeds[which]!);
          for (const [at, value, kind] of edits) {
            const i = at % Math.max(1, bytes.length);
            if (kind === 'set') bytes[i] = value;
            else if (kind === 'cut') bytes = Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1 + (value % 64))]);
            else bytes = Buffer.concat([bytes.subarray(0, i), bytes.subarray(i, i + 1 + value), bytes.subarray(i)]);
          }
          for (const file of await listEmbeddedFiles(bytes)) {
            expect((await embeddedFileHead(file, 4096)).byteLength).toBeLessThanOrEqual(4096);
            const full = await inflateEmbeddedFile(file, MAX_EINVOICE_BYTES).catch(() => null);
            expect(full === null || full.byteLength <= MAX_EINVOICE_BYTES).toBe(true);
          }
        },
      ),
      { numRuns: Number(process.env.RECTO_FUZZ_RUNS ?? 300), seed: Number(process.env.RECTO_FUZZ_SEED ?? 23) },
    );
  });
});
