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
export function deflatedPadding(head: string, total: number): Buffer {
  const flush = { finishFlush: zlib.constants.Z_FULL_FLUSH, level: 9 };
  const MB = 1 << 20;
  const headBytes = Buffer.from(head, 'latin1');
  const spaces = total - headBytes.length;
  const megabyte = zlib.deflateRawSync(Buffer.alloc(MB, 0x20), flush);
  const parts: Buffer[] = [Buffer.from([0x78, 0xda]), zlib.deflateRawSync(headBytes, flush)];
  for (let i = 0; i < Math.floor(spaces / MB); i++) parts.push(megabyte);
  if (spaces % MB) parts.push(zlib.deflateRawSync(Buffer.alloc(spaces % MB, 0x20), flush));
  parts.push(zlib.deflateRawSync(Buffer.alloc(0))); // the final (empty) block
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(adler32(headBytes, spaces, 0x20));
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
  parts.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}
