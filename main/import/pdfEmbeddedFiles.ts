/**
 * A PDF's embedded files, found without inflating any of them: each embedded-file stream (`/Type /EmbeddedFile`,
 * always a top-level object — the PDF format forbids streams inside object streams) with its declared size
 * (`/Params /Size`), its compressed bytes and filter, named through the file specifications that point at it
 * (`/EF << /F n 0 R >>`, with `/UF` or `/F` and `/AFRelationship`).
 *
 * pdf.js's getAttachments() inflates every attachment, on the calling thread, before anyone can look at a size: a
 * 2 MB decompression bomb took the server to 6.4 GB and 51 s. Here only the caller's chosen file is inflated
 * (inflateEmbeddedFile), by zlib on libuv's thread pool (off the event loop) with a byte limit.
 *
 * File specifications held in compressed object streams are not read (their names stay unknown); such files are
 * still found and judged by their first bytes. Every pattern below is linear: no nested or competing quantifiers.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export interface EmbeddedFile {
  /** Object number of the embedded-file stream. */
  objectNumber: number;
  /** From the file specification (`/UF`, else `/F`); '' when no uncompressed specification names it. */
  filename: string;
  relationship: string | null;
  /** `/Params /Size`: the uncompressed size the PDF declares, or null. */
  declaredSize: number | null;
  /** The stream's bytes as stored (a view into the PDF). */
  stored: Uint8Array;
  /** 'none' or 'flate'; other filters (and Flate with a predictor) are 'unsupported' and never decoded. */
  filter: 'none' | 'flate' | 'unsupported';
}

/** How far before an embedded-file marker its `n g obj` header may be, and a file specification's reach. */
const DICTIONARY_REACH = 4096;

const inflateAsync = promisify(zlib.inflate);

/** The embedded files of the PDF in `bytes`. */
export function listEmbeddedFiles(bytes: Uint8Array): EmbeddedFile[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const objects = objectOffsets(text);
  const names = fileSpecifications(text, objects);
  const files: EmbeddedFile[] = [];
  for (const marker of text.matchAll(/\/Type\s*\/EmbeddedFile(?![A-Za-z])/g)) {
    const file = embeddedFileAt(text, bytes, marker.index, objects);
    if (!file) continue;
    const spec = names.get(file.objectNumber);
    files.push({ ...file, filename: spec?.filename ?? '', relationship: spec?.relationship ?? null });
  }
  return files;
}

/** Where each top-level object `n g obj` starts (the last definition wins, as in an incremental update). */
function objectOffsets(text: string): Map<number, number> {
  const offsets = new Map<number, number>();
  for (const m of text.matchAll(/(?<![0-9])(\d{1,10})[ \r\n]+\d{1,5}[ \r\n]+obj(?![A-Za-z])/g)) offsets.set(Number(m[1]), m.index + m[0].length);
  return offsets;
}

/** The text of object `n` up to its `endobj` (at most DICTIONARY_REACH characters), or ''. */
function objectText(text: string, objects: Map<number, number>, n: number): string {
  const start = objects.get(n);
  if (start === undefined) return '';
  const end = text.indexOf('endobj', start);
  return text.slice(start, end < 0 ? start + DICTIONARY_REACH : Math.min(end, start + DICTIONARY_REACH));
}

/** The dictionary after `key` (`<<…>>` inline, or the object `n g R` points at), or ''. */
function dictionaryAfter(text: string, objects: Map<number, number>, dictionary: string, key: string): string {
  const match = new RegExp(`${key.replace('/', '\\/')}(?![A-Za-z])[ \\r\\n]*(?:(<<)|(\\d{1,10})[ \\r\\n]+\\d{1,5}[ \\r\\n]+R)`).exec(dictionary);
  if (!match) return '';
  if (match[2] !== undefined) return objectText(text, objects, Number(match[2]));
  const close = dictionary.indexOf('>>', match.index);
  return dictionary.slice(match.index + match[0].length, close < 0 ? undefined : close);
}

function embeddedFileAt(text: string, bytes: Uint8Array, at: number, objects: Map<number, number>): Omit<EmbeddedFile, 'filename' | 'relationship'> | null {
  const before = text.slice(Math.max(0, at - DICTIONARY_REACH), at);
  const headers = [...before.matchAll(/(?<![0-9])(\d{1,10})[ \r\n]+\d{1,5}[ \r\n]+obj(?![A-Za-z])/g)];
  const header = headers[headers.length - 1];
  if (!header) return null;
  const objectNumber = Number(header[1]);
  const streamKeyword = text.indexOf('stream', at);
  if (streamKeyword < 0 || streamKeyword - at > DICTIONARY_REACH) return null;
  const dictionary = before.slice(header.index) + text.slice(at, streamKeyword);
  let dataStart = streamKeyword + 'stream'.length;
  if (text[dataStart] === '\r') dataStart++;
  if (text[dataStart] === '\n') dataStart++;
  const length = streamLength(text, objects, dictionary);
  const end = length !== null && dataStart + length <= text.length ? dataStart + length : text.indexOf('endstream', dataStart);
  if (end < 0) return null;
  const size = /\/Size[ \r\n]+(\d{1,15})(?![0-9])/.exec(dictionaryAfter(text, objects, dictionary, '/Params'));
  return { objectNumber, declaredSize: size ? Number(size[1]) : null, stored: bytes.subarray(dataStart, end), filter: filterOf(dictionary) };
}

/** `/Length n`, or `/Length n g R` resolved to that object's integer. */
function streamLength(text: string, objects: Map<number, number>, dictionary: string): number | null {
  const match = /\/Length[ \r\n]+(\d{1,15})(?:[ \r\n]+(\d{1,5})[ \r\n]+R)?/.exec(dictionary);
  if (!match) return null;
  if (match[2] === undefined) return Number(match[1]);
  const target = /^[ \r\n]*(\d{1,15})/.exec(objectText(text, objects, Number(match[1])));
  return target ? Number(target[1]) : null;
}

function filterOf(dictionary: string): EmbeddedFile['filter'] {
  const filter = /\/Filter[ \r\n]*(\[[^\]]{0,200}\]|\/[A-Za-z0-9]{1,40})/.exec(dictionary);
  if (!filter) return 'none';
  const names = [...filter[1]!.matchAll(/\/([A-Za-z0-9]{1,40})/g)].map((m) => m[1]);
  if (names.length !== 1 || (names[0] !== 'FlateDecode' && names[0] !== 'Fl')) return 'unsupported';
  // A PNG/TIFF predictor would need un-filtering after inflating; e-invoice XML is never stored that way.
  const predictor = /\/Predictor[ \r\n]+(\d{1,3})/.exec(dictionary);
  return predictor && Number(predictor[1]) > 1 ? 'unsupported' : 'flate';
}

/** Embedded-file stream object number → the name and relationship its file specification gives it. */
function fileSpecifications(text: string, objects: Map<number, number>): Map<number, { filename: string; relationship: string | null }> {
  const specs = new Map<number, { filename: string; relationship: string | null }>();
  for (const ef of text.matchAll(/\/EF(?![A-Za-z])/g)) {
    const efDictionary = dictionaryAfter(text, objects, text.slice(ef.index, ef.index + 200), '/EF');
    const refs = [...efDictionary.matchAll(/\/(?:UF|F)[ \r\n]+(\d{1,10})[ \r\n]+\d{1,5}[ \r\n]+R/g)].map((m) => Number(m[1]));
    if (refs.length === 0) continue;
    // The specification dictionary around /EF: from its object header (or the reach) to its `endobj`.
    const objStart = text.lastIndexOf(' obj', ef.index);
    const from = Math.max(objStart, ef.index - DICTIONARY_REACH, 0);
    const endobj = text.indexOf('endobj', ef.index);
    const to = endobj < 0 ? Math.min(text.length, ef.index + DICTIONARY_REACH) : Math.min(endobj, ef.index + DICTIONARY_REACH);
    const spec = text.slice(from, to).replace(/\/EF[ \r\n]*(?:<<[^>]{0,400}>>|\d{1,10}[ \r\n]+\d{1,5}[ \r\n]+R)/, '');
    const filename = pdfStringAfter(spec, '/UF') ?? pdfStringAfter(spec, '/F') ?? '';
    const relationship = /\/AFRelationship[ \r\n]*\/([A-Za-z]{1,40})/.exec(spec)?.[1] ?? null;
    for (const ref of refs) specs.set(ref, { filename, relationship });
  }
  return specs;
}

/** The PDF string (literal `(…)` or hex `<…>`) that follows `key` in `dictionary`, decoded; null when none does. */
export function pdfStringAfter(dictionary: string, key: string): string | null {
  const match = new RegExp(`${key.replace('/', '\\/')}(?![A-Za-z])[ \\r\\n]*([(<])`).exec(dictionary);
  if (!match) return null;
  const start = match.index + match[0].length;
  const raw = match[1] === '(' ? literalString(dictionary, start) : hexString(dictionary, start);
  if (raw === null) return null;
  if (raw.charCodeAt(0) === 0xfe && raw.charCodeAt(1) === 0xff) return Buffer.from(raw.slice(2), 'latin1').swap16().toString('utf16le');
  return raw;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };

/** A literal string's bytes (as latin1 characters) from just after its `(`: escapes, octal codes, nested brackets. */
function literalString(text: string, from: number): string | null {
  let out = '';
  let depth = 1;
  for (let i = from; i < text.length && i < from + DICTIONARY_REACH; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      const next = text[++i] ?? '';
      if (next >= '0' && next <= '7') {
        let digits = next;
        while (digits.length < 3 && text[i + 1]! >= '0' && text[i + 1]! <= '7') digits += text[++i];
        out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      } else if (next === '\r' || next === '\n') {
        if (next === '\r' && text[i + 1] === '\n') i++;
      } else out += ESCAPES[next] ?? next;
    } else if (ch === '(') {
      depth++;
      out += ch;
    } else if (ch === ')') {
      if (--depth === 0) return out;
      out += ch;
    } else out += ch;
  }
  return null;
}

function hexString(text: string, from: number): string | null {
  const end = text.indexOf('>', from);
  if (end < 0 || end - from > DICTIONARY_REACH) return null;
  const hex = text.slice(from, end).replace(/[^0-9A-Fa-f]/g, '');
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1');
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
