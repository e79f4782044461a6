/**
 * A PDF's embedded files, found from the document's structure without inflating any of them. The objects come from
 * pdfObjectTable.ts (through the cross-reference data, else by a pass over the file; compressed object streams either
 * way); the file specifications are taken, in this order, from the catalog's /AF array (the files associated with the document,
 * where PDF/A-3 and Factur-X put the invoice), the catalog's /Names /EmbeddedFiles name tree (with its /Kids), then
 * any other file specification (an annotation's, or one a broken catalog no longer reaches). An embedded-file stream
 * no specification names is still listed, nameless, to be judged by its first bytes.
 *
 * pdf.js's getAttachments() inflates every attachment, on the calling thread, before anyone can look at a size: a
 * 2 MB decompression bomb took the server to 6.4 GB and 51 s. Here only the caller's chosen file is inflated
 * (inflateEmbeddedFile), by zlib on libuv's thread pool (off the event loop) with a byte limit.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { PdfName, PdfRef, pdfTextString, type PdfDict, type PdfValue } from './pdfObjectSyntax.js';
import { readObjectTable, resolve, type PdfObjectTable } from './pdfObjectTable.js';

export interface EmbeddedFile {
  /** Object number of the embedded-file stream. */
  objectNumber: number;
  /** From the file specification (`/UF`, else `/F`, else its key in the name tree); '' when nothing names it. */
  filename: string;
  relationship: string | null;
  /** `/Params /Size`: the uncompressed size the PDF declares, or null. */
  declaredSize: number | null;
  /** The stream's bytes as stored (a view into the PDF). */
  stored: Uint8Array;
  /** 'none' or 'flate'; other filters (and Flate with a predictor) are 'unsupported' and never decoded. */
  filter: 'none' | 'flate' | 'unsupported';
}

/** Name-tree levels followed at most (real trees are two or three deep). */
const MAX_TREE_DEPTH = 32;
/** Embedded files listed at most. */
const MAX_FILES = 10_000;

const inflateAsync = promisify(zlib.inflate);

/** The embedded files of the PDF in `bytes`, those the catalog associates with the document first. */
export async function listEmbeddedFiles(bytes: Uint8Array): Promise<EmbeddedFile[]> {
  const table = await readObjectTable(bytes);
  const specs: { spec: PdfDict; treeName: string | null }[] = [];
  const seenSpecs = new Set<PdfDict>();
  const addSpec = (value: PdfValue | undefined, treeName: string | null): void => {
    const spec = resolve(table, value);
    if (!(spec instanceof Map) || seenSpecs.has(spec) || specs.length >= MAX_FILES) return;
    seenSpecs.add(spec);
    specs.push({ spec, treeName });
  };
  const catalog = newestCatalog(table);
  if (catalog) {
    const af = resolve(table, catalog.get('AF'));
    if (Array.isArray(af)) for (const item of af) addSpec(item, null);
    const names = resolve(table, catalog.get('Names'));
    if (names instanceof Map) walkNameTree(table, names.get('EmbeddedFiles'), addSpec);
  }
  for (const object of table.objects.values()) if (object.value instanceof Map && object.value.has('EF')) addSpec(object.value, null);

  const files: EmbeddedFile[] = [];
  const listed = new Set<number>();
  for (const { spec, treeName } of specs) {
    const ef = resolve(table, spec.get('EF'));
    if (!(ef instanceof Map)) continue;
    const ref = [ef.get('UF'), ef.get('F')].find((v) => v instanceof PdfRef && table.objects.get(v.objectNumber)?.stream) as PdfRef | undefined;
    if (!ref || listed.has(ref.objectNumber)) continue;
    listed.add(ref.objectNumber);
    const filename = pdfTextString(resolve(table, spec.get('UF'))) ?? pdfTextString(resolve(table, spec.get('F'))) ?? treeName ?? '';
    const relationship = resolve(table, spec.get('AFRelationship'));
    files.push({ ...embeddedFile(bytes, table, ref.objectNumber), filename, relationship: relationship instanceof PdfName ? relationship.name : null });
  }
  for (const [number, object] of table.objects) {
    if (files.length >= MAX_FILES) break;
    const type = object.stream && object.value instanceof Map ? object.value.get('Type') : undefined;
    if (!listed.has(number) && type instanceof PdfName && type.name === 'EmbeddedFile') files.push({ ...embeddedFile(bytes, table, number), filename: '', relationship: null });
  }
  return files;
}

/** The catalog the newest trailer names, else an older trailer's, else the last object typed /Catalog. */
function newestCatalog(table: PdfObjectTable): PdfDict | null {
  for (const root of [...table.roots].reverse()) {
    const catalog = resolve(table, root);
    if (catalog instanceof Map) return catalog;
  }
  let found: PdfDict | null = null;
  for (const object of table.objects.values()) {
    const type = object.value instanceof Map ? object.value.get('Type') : undefined;
    if (type instanceof PdfName && type.name === 'Catalog') found = object.value as PdfDict;
  }
  return found;
}

/** Each (key, value) of a name tree (§7.9.6) in order, through /Kids, each node once, at most MAX_TREE_DEPTH deep. */
function walkNameTree(table: PdfObjectTable, root: PdfValue | undefined, visit: (value: PdfValue, key: string | null) => void): void {
  const seen = new Set<PdfDict>();
  const walk = (node: PdfValue | undefined, depth: number): void => {
    const dict = resolve(table, node);
    if (!(dict instanceof Map) || seen.has(dict) || depth > MAX_TREE_DEPTH) return;
    seen.add(dict);
    const names = resolve(table, dict.get('Names'));
    if (Array.isArray(names)) for (let i = 0; i + 1 < names.length; i += 2) visit(names[i + 1]!, pdfTextString(resolve(table, names[i]!)));
    const kids = resolve(table, dict.get('Kids'));
    if (Array.isArray(kids)) for (const kid of kids) walk(kid, depth + 1);
  };
  walk(root, 0);
}

function embeddedFile(bytes: Uint8Array, table: PdfObjectTable, objectNumber: number): Omit<EmbeddedFile, 'filename' | 'relationship'> {
  const object = table.objects.get(objectNumber)!;
  const dict = object.value as PdfDict;
  const params = resolve(table, dict.get('Params'));
  const size = params instanceof Map ? resolve(table, params.get('Size')) : undefined;
  return {
    objectNumber,
    declaredSize: typeof size === 'number' && Number.isInteger(size) && size >= 0 ? size : null,
    stored: bytes.subarray(object.stream!.start, object.stream!.end),
    filter: filterOf(table, dict),
  };
}

function filterOf(table: PdfObjectTable, dict: PdfDict): EmbeddedFile['filter'] {
  const filter = resolve(table, dict.get('Filter'));
  const filters = Array.isArray(filter) ? filter.map((f) => resolve(table, f)) : filter === undefined || filter === null ? [] : [filter];
  if (filters.length === 0) return 'none';
  const only = filters[0];
  if (filters.length !== 1 || !(only instanceof PdfName) || (only.name !== 'FlateDecode' && only.name !== 'Fl')) return 'unsupported';
  // A PNG/TIFF predictor would need un-filtering after inflating; e-invoice XML is never stored that way.
  const parms = resolve(table, dict.get('DecodeParms'));
  const first = Array.isArray(parms) ? resolve(table, parms[0]) : parms;
  const predictor = first instanceof Map ? resolve(table, first.get('Predictor')) : undefined;
  return typeof predictor === 'number' && predictor > 1 ? 'unsupported' : 'flate';
}

export class EmbeddedFileTooLarge extends Error {}

/**
 * The file's uncompressed bytes, at most `limit` of them: a declared size over the limit is refused before any
 * inflating, and inflating stops at the limit whatever was declared. Runs on zlib's thread pool.
 */
export async function inflateEmbeddedFile(file: EmbeddedFile, limit: number): Promise<Uint8Array> {
  if (file.declaredSize !== null && file.declaredSize > limit) throw new EmbeddedFileTooLarge(`declares ${file.declaredSize} bytes`);
  if (file.filter === 'unsupported') throw new Error('its compression is not supported');
  if (file.filter === 'none') {
    if (file.stored.byteLength > limit) throw new EmbeddedFileTooLarge(`holds ${file.stored.byteLength} bytes`);
    return file.stored;
  }
  try {
    return new Uint8Array(await inflateAsync(file.stored, { maxOutputLength: limit, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new EmbeddedFileTooLarge(`inflates to more than ${limit} bytes`);
    }
    throw error;
  }
}

/** The first `count` uncompressed bytes (enough to judge the root element), never more. */
export async function embeddedFileHead(file: EmbeddedFile, count: number): Promise<Uint8Array> {
  if (file.filter === 'none') return file.stored.subarray(0, count);
  if (file.filter === 'unsupported') return new Uint8Array();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const inflater = zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const finish = (): void => {
      inflater.destroy();
      resolve(new Uint8Array(Buffer.concat(chunks).subarray(0, count)));
    };
    inflater.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= count) finish();
    });
    inflater.on('end', finish);
    inflater.on('error', finish);
    inflater.end(file.stored);
  });
}
