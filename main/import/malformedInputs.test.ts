/**
 * Malformed and hostile input through the whole import path (session → real importer → project file), every file
 * generated here: each one gives exactly one clear error naming it, the project file holds nothing of it, and the
 * process goes on (the next file imports).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectFile } from '../composition/createRectoSession.js';
import type { RectoSession } from '../services/rectoSession.js';
import { echoSession } from '../../testing/echoSession.js';

let dir: string;
let session: RectoSession;

/** A PDF written object by object, so that its structure can be anything. */
function rawPdf(objects: string[], trailerExtra = ''): Buffer {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const onePage = (mediaBox: string, extra = '') => [
  `<< /Type /Catalog /Pages 2 0 R ${extra}>>`,
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  `<< /Type /Page /Parent 2 0 R /MediaBox [${mediaBox}] >>`,
];

async function pagesPdf(count: number, size: [number, number] = [200, 200]): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let index = 0; index < count; index++) document.addPage(size);
  return Buffer.from(await document.save({ useObjectStreams: true }));
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-malformed-'));
  session = echoSession(dir, { author: 'Test', inspect: inspectFile });
  await session.createProject(path.join(dir, 'p.recto'));
});
afterAll(async () => {
  await session.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Documents and pages in the project file. */
const rowsInProject = () => session.store.documents.listDocuments().reduce((sum, document) => sum + 1 + document.pages.length, 0);

const write = (name: string, bytes: Buffer | string) => {
  const file = path.join(dir, 'in', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return file;
};

describe('malformed input, each refused with one clear error and nothing kept', () => {
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['zero-byte', async () => write('empty.pdf', ''), /the file is empty/],
    ['truncated', async () => write('cut.pdf', (await pagesPdf(3)).subarray(0, 300)), /damaged|no pages/],
    [
      'encrypted',
      async () => write('locked.pdf', rawPdf(onePage('0 0 200 200'), '/Encrypt << /Filter /Standard /V 5 /R 6 /Length 256 /P -1 /O <00> /U <00> /OE <00> /UE <00> /Perms <00> >> /ID [<00> <00>]')),
      /encrypted|damaged/,
    ],
    [
      'looping (a page tree that contains itself)',
      async () => write('loop.pdf', rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'])),
      /circular reference/,
    ],
    [
      'polyglot (a PNG signature, then a PDF)',
      async () => write('polyglot.png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), await pagesPdf(1)])),
      /cannot be read|damaged/,
    ],
    ['a sliver page (1e-5 pt high)', async () => write('sliver.pdf', rawPdf(onePage('0 0 14400 0.00001'))), /page 1 cannot be rendered: .*sliver/],
    ['a huge thin page (14,400 × 10 pt)', async () => write('strip.pdf', rawPdf(onePage('0 0 14400 10'))), /sliver/],
    ['10,000 pages', async () => write('many.pdf', await pagesPdf(10_000)), /10,000 pages, over the limit of 2,000 pages per document/],
    [
      'a symbolic link',
      async () => {
        const link = path.join(dir, 'in', 'link.pdf');
        fs.symlinkSync(write('target.pdf', await pagesPdf(1)), link);
        return link;
      },
      /symbolic link/,
    ],
    [
      'a FIFO',
      async () => {
        const fifo = path.join(dir, 'in', 'pipe.pdf');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
      /not a regular file/,
    ],
    ['a folder', async () => (fs.mkdirSync(path.join(dir, 'in', 'folder.pdf'), { recursive: true }), path.join(dir, 'in', 'folder.pdf')), /not a regular file/],
    ['a Unicode name, truncated', async () => write('Rechnung – 東京 ✓ 🧾.pdf', (await pagesPdf(2)).subarray(0, 200)), /damaged|no pages/],
  ];

  for (const [what, make, reason] of cases) {
    it(what, async () => {
      const file = await make();
      const result = await session.importFiles([{ filePath: file }]);
      expect(result.imported).toEqual([]);
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]!.file).toBe(path.basename(file));
      expect(result.errors[0]!.reason).toMatch(reason);
      expect(rowsInProject()).toBe(0);
    }, 60_000);
  }

  it('the page cap is a setting', async () => {
    session.settings.update({ maxPagesPerDocument: 2 });
    try {
      const result = await session.importFiles([{ filePath: write('three.pdf', await pagesPdf(3)) }]);
      expect(result.errors).toEqual([{ file: 'three.pdf', reason: expect.stringContaining('3 pages, over the limit of 2 pages per document') }]);
    } finally {
      session.settings.update({ maxPagesPerDocument: 2000 });
    }
  });

  it('a page tree nested 3,000 levels deep is walked to its one page (no stack overflow)', async () => {
    const depth = 3000;
    const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
    for (let level = 0; level < depth; level++) {
      const parent = level === 0 ? '' : `/Parent ${level + 1} 0 R `;
      objects.push(`<< /Type /Pages ${parent}/Kids [${level + 3} 0 R] /Count 1 >>`);
    }
    objects.push(`<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 200 200] >>`);
    const result = await session.importFiles([{ filePath: write('nested.pdf', rawPdf(objects)) }]);
    expect(result.errors).toEqual([]);
    expect(result.imported[0]!.pages).toHaveLength(1);
  });

  it('a PDF with JavaScript is imported without running it, and the process goes on', async () => {
    (globalThis as Record<string, unknown>).__rectoRan = false;
    const script = '<< /S /JavaScript /JS (globalThis.__rectoRan = true; app.alert(1);) >>';
    const result = await session.importFiles([
      { filePath: write('script.pdf', rawPdf(onePage('0 0 200 200', `/OpenAction ${script} `))) },
      { filePath: write('Unicode – 東京 ✓.pdf', await pagesPdf(1)) },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.imported.map((document) => document.name)).toEqual(['script.pdf', 'Unicode – 东京 ✓.pdf'.replace('东', '東')]);
    expect((globalThis as Record<string, unknown>).__rectoRan).toBe(false);
    await session.queue.idle();
  });
});
