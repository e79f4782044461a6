/**
 * The same PDF saved the ways producers save it, to check that its embedded e-invoice is found however it is
 * stored: with object streams and a cross-reference stream (pdf-lib, and qpdf where installed), linearized (qpdf),
 * with an incremental update that moves the catalog, with 70 decoy attachments listed before the real one, and with
 * its cross-reference data broken (the reader must then find the objects without it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRef, PDFString } from 'pdf-lib';

export function haveQpdf(): boolean {
  try {
    execFileSync('qpdf', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Re-saved by pdf-lib with object streams (every dictionary compressed) and a cross-reference stream. */
export async function withPdfLibObjectStreams(bytes: Uint8Array): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  return document.save({ useObjectStreams: true, updateFieldAppearances: false });
}

/** Re-saved by qpdf with `args` (e.g. `--object-streams=generate`, `--linearize`); qpdf's exit 3 is "warnings". */
export function withQpdf(bytes: Uint8Array, args: string[]): Uint8Array {
  const dir = mkdtempSync(path.join(tmpdir(), 'recto-qpdf-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), bytes);
    try {
      execFileSync('qpdf', [...args, path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')], { stdio: 'ignore' });
    } catch (error) {
      if ((error as { status?: number }).status !== 3) throw error;
    }
    return new Uint8Array(readFileSync(path.join(dir, 'out.pdf')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An incremental update appended to the file: a copy of the catalog under a new object number, and a
 * cross-reference section whose trailer names it as /Root and points back (/Prev) at the original's. A reader that
 * does not follow the newest trailer finds the old catalog; one that reads only the first section finds neither.
 */
export async function withIncrementalUpdate(bytes: Uint8Array): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  const text = Buffer.from(bytes).toString('latin1');
  const prev = [...text.matchAll(/startxref\s+(\d+)/g)].at(-1)?.[1];
  if (!prev) throw new Error('no startxref');
  const number = document.context.largestObjectNumber + 1;
  const info = document.context.trailerInfo.Info;
  const head = text.endsWith('\n') ? '' : '\n';
  const object = `${number} 0 obj\n${document.catalog.toString()}\nendobj\n`;
  const xrefAt = bytes.byteLength + head.length + object.length;
  const trailer = [
    'xref',
    `${number} 1`,
    `${String(bytes.byteLength + head.length).padStart(10, '0')} 00000 n\r`,
    'trailer',
    `<< /Size ${number + 1} /Root ${number} 0 R${info instanceof PDFRef ? ` /Info ${info.toString()}` : ''} /Prev ${prev} >>`,
    'startxref',
    String(xrefAt),
    '%%EOF',
    '',
  ].join('\n');
  return new Uint8Array(Buffer.concat([Buffer.from(bytes), Buffer.from(head + object + trailer, 'latin1')]));
}

interface Decoy {
  name: string;
  content: string;
  relationship: string | null;
}

/** 70 attachments that are not the invoice: XML with e-invoice-like names or roots, other XML, and non-XML files. */
export function decoyAttachments(): Decoy[] {
  const cii = (id: string): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"><!-- ${id} --></rsm:CrossIndustryInvoice>\n`;
  const ubl = (id: string): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><!-- ${id} --></Invoice>\n`;
  const decoys: Decoy[] = [];
  const unrelated = [null, 'Supplement', 'Unspecified'];
  for (let i = 0; i < 25; i++) {
    const names = [`invoice-${i}.xml`, `factur-x-${i}.xml`, `zugferd-invoice.${i}.xml`, `ZUGFeRD-invoice (${i}).xml`, `xrechnung_${i}.xml`];
    decoys.push({ name: names[i % names.length]!, content: i % 2 ? cii(`decoy ${i}`) : ubl(`decoy ${i}`), relationship: unrelated[i % unrelated.length]! });
  }
  for (let i = 0; i < 25; i++) {
    decoys.push({
      name: [`order-${i}.xml`, `metadata-${i}.xml`, `factur-x-${i}.xsd`][i % 3]!,
      content: `<?xml version="1.0"?>\n<Order xmlns="urn:example:order"><Id>${i}</Id></Order>\n`,
      relationship: ['Data', 'Alternative', 'Source', 'Supplement', null][i % 5]!,
    });
  }
  for (let i = 0; i < 20; i++) {
    decoys.push({ name: [`scan-${i}.png`, `notes-${i}.txt`, `factur-x-${i}.pdf`, `factur-x.xml.${i}.zip`][i % 4]!, content: `\x89PNG\r\n\x1a\n not an invoice ${i}`, relationship: unrelated[i % 3]! });
  }
  return decoys;
}

/**
 * The PDF with the decoys embedded before its own attachments: first in the EmbeddedFiles name tree (a leading
 * /Names array, or a leading kid where the tree has /Kids) and first in the catalog's /AF. Saved with object streams.
 */
export async function withDecoys(bytes: Uint8Array, decoys: Decoy[] = decoyAttachments()): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  const context = document.context;
  const entries: (PDFHexString | PDFRef)[] = [];
  const specs: PDFRef[] = [];
  for (const decoy of decoys) {
    const content = Buffer.from(decoy.content, 'latin1');
    const stream = context.flateStream(content, { Type: 'EmbeddedFile', Params: { Size: content.length } });
    const streamRef = context.register(stream);
    const spec = context.obj({ Type: 'Filespec', F: PDFString.of(decoy.name), UF: PDFHexString.fromText(decoy.name), EF: { F: streamRef, UF: streamRef } });
    if (decoy.relationship) spec.set(PDFName.of('AFRelationship'), PDFName.of(decoy.relationship));
    const specRef = context.register(spec);
    entries.push(PDFHexString.fromText(decoy.name), specRef);
    specs.push(specRef);
  }
  const catalog = document.catalog;
  let names = catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  if (!names) {
    names = context.obj({});
    catalog.set(PDFName.of('Names'), names);
  }
  let tree = names.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  if (!tree) {
    tree = context.obj({});
    names.set(PDFName.of('EmbeddedFiles'), tree);
  }
  const kids = tree.lookupMaybe(PDFName.of('Kids'), PDFArray);
  if (kids) {
    const kid = context.obj({ Names: context.obj(entries) });
    kids.insert(0, context.register(kid));
  } else {
    const existing = tree.lookupMaybe(PDFName.of('Names'), PDFArray)?.asArray() ?? [];
    tree.set(PDFName.of('Names'), context.obj([...entries, ...existing]));
    tree.delete(PDFName.of('Limits'));
  }
  const af = catalog.lookupMaybe(PDFName.of('AF'), PDFArray)?.asArray() ?? [];
  catalog.set(PDFName.of('AF'), context.obj([...specs, ...af]));
  return document.save({ useObjectStreams: true, updateFieldAppearances: false });
}

/** The same bytes with the last `startxref` pointing at the file's first byte: every cross-reference offset is lost. */
export function withBrokenCrossReference(bytes: Uint8Array): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  const at = text.lastIndexOf('startxref');
  if (at < 0) throw new Error('no startxref');
  return new Uint8Array(Buffer.from(text.slice(0, at) + text.slice(at).replace(/startxref\s+\d+/, (m) => `startxref\n${'0'.repeat(m.length - 'startxref\n'.length)}`), 'latin1'));
}
