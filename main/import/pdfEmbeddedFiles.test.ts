/**
 * The attachment listing's reading of PDF structure (issue 36): name trees with kids (and a cycle), encoded names,
 * incremental updates, object text inside stream data, /EF marker floods and a bomb among the object streams.
 */
import { describe, expect, it } from 'vitest';
import { efMarkerPdf, objectStreamBombPdf, pdfOfObjects } from '../../testing/hostilePdfs.js';
import { withBrokenCrossReference } from '../../testing/pdfVariants.js';
import { findEmbeddedEInvoiceXml } from './pdfAttachments.js';
import { listEmbeddedFiles, type EmbeddedFile } from './pdfEmbeddedFiles.js';
import { readCrossReferenceTable } from './pdfCrossReference.js';
import { OBJECT_TABLE_LIMITS, readObjectTable } from './pdfObjectTable.js';

const CII = '<?xml version="1.0"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>';
const page = ['<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>'];
const leaf = ['<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 200 200 ] >>'];
const stream = (content: string, dictionary = ''): string[] => [`<< /Type /EmbeddedFile ${dictionary}/Length ${content.length} >>\nstream\n`, content, '\nendstream'];

/**
 * The files listed through the cross-reference data, checked equal to those the pass over the file finds when that
 * data is broken (both ways of reading the objects are tested on every case).
 */
async function listBothWays(pdf: Uint8Array): Promise<EmbeddedFile[]> {
  const text = Buffer.from(pdf).toString('latin1');
  expect(await readCrossReferenceTable(text, pdf, OBJECT_TABLE_LIMITS)).not.toBeNull();
  const listed = await listEmbeddedFiles(pdf);
  const scanned = await listEmbeddedFiles(withBrokenCrossReference(pdf));
  const shape = (files: EmbeddedFile[]) => files.map((f) => [f.filename, f.relationship, f.objectNumber, Buffer.from(f.stored).toString('latin1')]);
  expect(shape(scanned)).toEqual(shape(listed));
  return listed;
}

describe('attachments from the PDF structure', () => {
  it('follows a name tree through /Kids (a kid that points back is read once) and decodes UTF-16 and #-escaped names', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('factur-x.xml', 'utf16le').swap16()]).toString('hex');
    const pdf = pdfOfObjects([
      ['<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 4 0 R >> >>'],
      page,
      leaf,
      ['<< /Kids [ 5 0 R 4 0 R ] >>'],
      ['<< /Kids [ 6 0 R ] /Limits [ (a) (z) ] >>'],
      ['<< /Names [ (factur-x.xml) 7 0 R ] >>'],
      [`<< /Type /Filespec /UF <${utf16}> /AFRelationship /Alternative /EF << /F 8 0 R >> >>`],
      stream(CII, '/Subtype /text#2Fxml '),
    ]);
    const files = await listBothWays(pdf);
    expect(files.map((f) => [f.filename, f.relationship, f.objectNumber])).toEqual([['factur-x.xml', 'Alternative', 8]]);
    expect(await findEmbeddedEInvoiceXml(pdf)).toMatchObject({ status: 'found', fileName: 'factur-x.xml' });
  });

  it('an incremental update that replaces the file specification wins over the original', async () => {
    const base = Buffer.from(
      pdfOfObjects([['<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [ (a) 4 0 R ] >> >> >>'], page, leaf, ['<< /Type /Filespec /F (old.xml) /EF << /F 5 0 R >> >>'], stream(CII)]),
    );
    const prev = /startxref\n(\d+)/.exec(base.toString('latin1'))![1];
    const object = '4 0 obj\n<< /Type /Filespec /F (zugferd-invoice.xml) /EF << /F 5 0 R >> >>\nendobj\n';
    const update = `${object}xref\n4 1\n${String(base.length).padStart(10, '0')} 00000 n \ntrailer\n<< /Size 6 /Root 1 0 R /Prev ${prev} >>\nstartxref\n${base.length + object.length}\n%%EOF\n`;
    const files = await listBothWays(Buffer.concat([base, Buffer.from(update, 'latin1')]));
    expect(files.map((f) => f.filename)).toEqual(['zugferd-invoice.xml']);
  });

  it('object headers inside a stream whose /Length is a later object are data, not objects', async () => {
    // An attached PDF (stored, not compressed) whose own objects reuse the document's numbers, `endstream` included.
    const inner = '%PDF-1.4\n4 0 obj\n<< /Type /Filespec /F (evil.xml) /EF << /F 6 0 R >> >>\nendobj\n6 0 obj\n<< /Length 3 >>\nstream\nabc\nendstream\nendobj\n';
    const pdf = pdfOfObjects([
      ['<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [ (a) 4 0 R (b) 7 0 R ] >> >> >>'],
      page,
      leaf,
      ['<< /Type /Filespec /F (factur-x.xml) /AFRelationship /Data /EF << /F 5 0 R >> >>'],
      stream(CII),
      ['<< /Type /EmbeddedFile /Length 8 0 R >>\nstream\n', inner, '\nendstream'],
      ['<< /Type /Filespec /F (rapport.pdf) /EF << /F 6 0 R >> >>'],
      [String(inner.length)],
    ]);
    const files = await listBothWays(pdf);
    expect(files.map((f) => [f.filename, f.objectNumber, f.stored.byteLength])).toEqual([
      ['factur-x.xml', 5, CII.length],
      ['rapport.pdf', 6, inner.length],
    ]);
  });

  it('a PDF full of /EF markers lists only its real embedded file', async () => {
    for (const size of [1 << 20, 2 << 20]) {
      const pdf = efMarkerPdf(size);
      expect(pdf.byteLength).toBeGreaterThan(size * 0.9);
      const files = await listEmbeddedFiles(pdf);
      expect(files.map((f) => f.filename)).toEqual(['factur-x.xml']);
    }
  });

  it('an object stream that inflates past its cap is cut there: the objects before the cut still count', async () => {
    const pdf = objectStreamBombPdf(256 * 1024 * 1024);
    expect(pdf.byteLength).toBeLessThan(1024 * 1024);
    const table = await readObjectTable(pdf);
    expect(table.objects.get(6)?.value).toBeInstanceOf(Map);
    expect(await findEmbeddedEInvoiceXml(pdf)).toMatchObject({ status: 'found', fileName: 'factur-x.xml' });
    // With no room to inflate, the catalog in the object stream is not read; the stream is still found by its type.
    const starved = await readObjectTable(pdf, { ...OBJECT_TABLE_LIMITS, maxInflatedBytes: 0 });
    expect(starved.objects.get(6)?.value).toBeNull();
  });

  it('nesting past the cap, strings left open and garbage never throw', async () => {
    const deep = `1 0 obj\n${'['.repeat(200_000)}\nendobj\n`;
    const open = '2 0 obj\n(never closed\n'.repeat(20_000);
    const table = await readObjectTable(Buffer.from(`%PDF-1.7\n${deep}${open}3 0 obj\n<< /Type /Catalog >>\nendobj\n`, 'latin1'));
    expect(table.objects.get(1)).toBeUndefined();
    expect(await listEmbeddedFiles(Buffer.from('%PDF-1.7\n<< /EF << /F 1 0 R >>'.repeat(1000), 'latin1'))).toEqual([]);
  });
});

describe('the object pass reads each byte a bounded number of times', () => {
  // A broken object consumes what its parse read; were it re-read from each header after it, these 50,000 open
  // `<`, `(` and `[` would cost some 10^10 character reads (the timing is bench:attachments' business, not this test's).
  it('objects after floods of open hex strings, literal strings and arrays are still found', async () => {
    for (const opener of ['<', '(', '[']) {
      const flood = `9 0 obj\n${opener}\n`.repeat(50_000);
      const table = await readObjectTable(Buffer.from(`%PDF-1.7\n${flood}endobj\n3 0 obj\n<< /Type /Catalog >>\nendobj\n`, 'latin1'));
      expect(table.objects.get(3)?.value).toBeInstanceOf(Map);
    }
  });
});
