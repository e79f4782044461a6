/**
 * Hand-built PDFs for hostile-input tests and benchmarks: one page, one embedded file whose compressed stream can
 * inflate far past what it declares (a decompression bomb). The PDF is written object by object with a correct
 * cross-reference table, so pdf.js opens it as it would a real one.
 */
import zlib from 'node:zlib';

export interface BombOptions {
  /** Bytes the attachment inflates to (spaces after a CII root element). */
  inflatedBytes: number;
  /** `/Params /Size` written into the stream dictionary; null writes none. */
  declaredSize: number | null;
  filename?: string;
}

const CII_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">';

/**
 * A zlib stream of `head` followed by spaces up to `total` bytes, built without `total` bytes in memory: raw deflate
 * segments each ending in a full flush (byte-aligned, no reference to earlier data) may be concatenated, so one
 * compressed megabyte of spaces is repeated; the Adler-32 of the spaces is computed in closed form.
 */
export function deflatedPadding(head: string, total: number, fill = 0x20): Buffer {
  const flush = { finishFlush: zlib.constants.Z_FULL_FLUSH, level: 9 };
  const MB = 1 << 20;
  const headBytes = Buffer.from(head, 'latin1');
  const spaces = total - headBytes.length;
  const megabyte = zlib.deflateRawSync(Buffer.alloc(MB, fill), flush);
  const parts: Buffer[] = [Buffer.from([0x78, 0xda]), zlib.deflateRawSync(headBytes, flush)];
  for (let i = 0; i < Math.floor(spaces / MB); i++) parts.push(megabyte);
  if (spaces % MB) parts.push(zlib.deflateRawSync(Buffer.alloc(spaces % MB, fill), flush));
  parts.push(zlib.deflateRawSync(Buffer.alloc(0))); // the final (empty) block
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(adler32(headBytes, spaces, fill));
  parts.push(checksum);
  return Buffer.concat(parts);
}

/** Adler-32 of `bytes` followed by `count` copies of `fill`. */
function adler32(bytes: Buffer, count: number, fill: number): number {
  const M = 65521n;
  let a = 1n;
  let b = 0n;
  for (const byte of bytes) {
    a = (a + BigInt(byte)) % M;
    b = (b + a) % M;
  }
  // Appending n bytes c: a' = a + n·c; b' = b + n·a + c·n(n+1)/2.
  const n = BigInt(count);
  const c = BigInt(fill);
  b = (b + n * a + (c * n * (n + 1n)) / 2n) % M;
  a = (a + n * c) % M;
  return Number((b << 16n) | a);
}

/**
 * A real grey PNG of width × height pixels (all black), built without the raw pixels in memory: one filter byte and
 * `width` zero bytes per row, deflated by deflatedPadding. A 1 × 100,000,000 px image is about 200 KB.
 */
export function hugePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const pixels = deflatedPadding('', (width + 1) * height, 0);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** A one-page PDF carrying a factur-x.xml attachment that inflates to `inflatedBytes`. */
export function bombPdf({ inflatedBytes, declaredSize, filename = 'factur-x.xml' }: BombOptions): Uint8Array {
  const compressed = deflatedPadding(CII_HEAD, inflatedBytes);
  const params = declaredSize === null ? '' : `/Params << /Size ${declaredSize} >> `;
  const objects: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [ (', filename, ') 4 0 R ] >> >> /AF [ 4 0 R ] >>'],
    ['<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>'],
    ['<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 200 200 ] >>'],
    ['<< /Type /Filespec /F (', filename, ') /UF (', filename, ') /AFRelationship /Data /EF << /F 5 0 R >> >>'],
    [`<< /Type /EmbeddedFile /Subtype /text#2Fxml ${params}/Filter /FlateDecode /Length ${compressed.length} >>\nstream\n`, compressed, '\nendstream'],
  ];
  return pdfOfObjects(objects);
}

/** A PDF of the given objects (numbered from 1; object `root` the catalog) with a correct cross-reference table. */
export function pdfOfObjects(objects: (string | Buffer)[][], root = 1): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((pieces, i) => {
    offsets.push(length);
    const body = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), ...pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)), Buffer.from('\nendobj\n')]);
    parts.push(body);
    length += body.length;
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `)].join('\n');
  parts.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${objects.length + 1} /Root ${root} 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

const SMALL_CII = `${CII_HEAD}<rsm:ExchangedDocument><ram:ID xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">INV-1</ram:ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`;

/**
 * A PDF of about `size` bytes that is mostly `/EF` markers (issue 36: a scan that looked around each marker held the
 * server 28 s on 1 MiB, 133 s on 2 MiB): a third in one dictionary, a third in file specifications of their own
 * (each pointing at a stream that is not an embedded file), a third outside any object; and one real factur-x.xml.
 */
export function efMarkerPdf(size: number): Uint8Array {
  const third = Math.floor(size / 3);
  const objects: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [ (factur-x.xml) 4 0 R ] >> >> /AF [ 4 0 R ] >>'],
    ['<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>'],
    ['<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 200 200 ] >>'],
    ['<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /AFRelationship /Data /EF << /F 5 0 R >> >>'],
    [`<< /Type /EmbeddedFile /Subtype /text#2Fxml /Length ${SMALL_CII.length} >>\nstream\n`, SMALL_CII, '\nendstream'],
    [`<< /Marks ${'/EF '.repeat(Math.floor(third / 4))}>>`],
  ];
  const spec = '<< /Type /Filespec /F (x.xml) /EF << /F 3 0 R /UF 2 0 R >> >>';
  const specs = Math.floor(third / (spec.length + 20));
  for (let i = 0; i < specs; i++) objects.push([spec]);
  objects.push([`<< /Length ${third} >>\nstream\n`, '/EF '.repeat(Math.floor(third / 4)), '\nendstream']);
  return pdfOfObjects(objects);
}

/**
 * A PDF whose file specification and catalog sit in a compressed object stream padded to inflate to
 * `inflatedBytes` (a decompression bomb among the objects rather than in an attachment), plus a real factur-x.xml.
 */
export function objectStreamBombPdf(inflatedBytes: number): Uint8Array {
  const inner = '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [ (factur-x.xml) 4 0 R ] >> >> >> << /Type /Filespec /F (factur-x.xml) /EF << /F 5 0 R >> >> ';
  const header = `6 0 4 ${inner.indexOf('>> << ') + 3} `;
  const compressed = deflatedPadding(header + inner, inflatedBytes);
  return pdfOfObjects([
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    ['<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>'],
    ['<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 200 200 ] >>'],
    ['null'],
    [`<< /Type /EmbeddedFile /Length ${SMALL_CII.length} >>\nstream\n`, SMALL_CII, '\nendstream'],
    ['null'],
    [`<< /Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode /Length ${compressed.length} >>\nstream\n`, compressed, '\nendstream'],
  ], 6);
}
