/**
 * What both ways of reading a PDF's objects share (pdfObjectTable.ts's pass over the file, pdfCrossReference.ts's
 * offsets): the table's shape and its limits, stream data bounds, and object streams (§7.5.7) inflated under a cap.
 */
import zlib from 'node:zlib';
import { PdfName, PdfSyntaxReader, isPdfWhitespace, type PdfDict, type PdfRef, type PdfValue } from './pdfObjectSyntax.js';

export interface PdfObject {
  value: PdfValue;
  /** Where a stream's data lies in the file (top-level objects only: a stream is never inside an object stream). */
  stream: { start: number; end: number } | null;
}

export interface PdfObjectTable {
  objects: Map<number, PdfObject>;
  /** /Root references of the trailers and cross-reference streams, oldest first. */
  roots: PdfRef[];
}

export const OBJECT_TABLE_LIMITS = {
  /** Objects read at most; past it the rest of the file is not read. */
  maxObjects: 1_000_000,
  /** Bytes one object stream may inflate to. */
  maxObjectStreamBytes: 16 * 1024 * 1024,
  /** Bytes all object streams together may inflate to. */
  maxInflatedBytes: 64 * 1024 * 1024,
};

/** The first occurrence of `needle` at or after a position, for positions that only grow: each byte is searched once. */
export function forwardSearch(text: string, needle: string): (from: number) => number {
  let lastFrom = -1;
  let found = -1;
  return (from) => {
    if (lastFrom >= 0 && from >= lastFrom && (found < 0 || from <= found)) return found;
    lastFrom = from;
    found = text.indexOf(needle, from);
    return found;
  };
}

export function isName(value: PdfValue | undefined, name: string): boolean {
  return value instanceof PdfName && value.name === name;
}

/** True when only whitespace stands between `at` and an `endstream` keyword. */
export function endstreamFollows(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && i < at + 4 && isPdfWhitespace(text.charCodeAt(i))) i++;
  return text.startsWith('endstream', i);
}

/** The data's end before `endstream`: the end-of-line marker before the keyword is not data. */
export function trimEol(text: string, start: number, keyword: number): number {
  let end = keyword;
  if (end > start && text[end - 1] === '\n') end--;
  if (end > start && text[end - 1] === '\r') end--;
  return end;
}

/**
 * An object stream's bytes as latin1 text, at most `budget` of them (a stream inflating past it is cut there: the
 * objects before the cut still count), or null when its filter is not Flate (or none). Inflated on zlib's thread pool.
 */
export async function decodeObjectStream(bytes: Uint8Array, object: PdfObject, budget: number): Promise<string | null> {
  const dict = object.value as PdfDict;
  const stored = bytes.subarray(object.stream!.start, object.stream!.end);
  const filter = dict.get('Filter');
  const filters = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
  if (filters.length === 0) return Buffer.from(stored.subarray(0, budget)).toString('latin1');
  if (filters.length !== 1 || !(isName(filters[0], 'FlateDecode') || isName(filters[0], 'Fl'))) return null;
  const parms = dict.get('DecodeParms');
  const predictor = parms instanceof Map ? parms.get('Predictor') : undefined;
  if (typeof predictor === 'number' && predictor > 1) return null;
  return (await inflatePrefix(stored, budget)).toString('latin1');
}

/** The first `limit` bytes `stored` inflates to (fewer where it ends or breaks first); never holds more than a chunk past it. */
export function inflatePrefix(stored: Uint8Array, limit: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const inflater = zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const finish = (): void => {
      inflater.destroy();
      resolve(Buffer.concat(chunks).subarray(0, limit));
    };
    inflater.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= limit) finish();
    });
    inflater.on('end', finish);
    inflater.on('error', finish);
    inflater.end(stored);
  });
}

/** The objects an object stream holds (§7.5.7): `N` pairs of object number and offset from `First`, then the objects. */
export function objectStreamObjects(decoded: string, dict: PdfDict, maxObjects: number): [number, PdfValue][] {
  const n = dict.get('N');
  const first = dict.get('First');
  if (typeof n !== 'number' || typeof first !== 'number' || first < 0 || first > decoded.length) return [];
  const header = new PdfSyntaxReader(decoded, 0, first);
  const entries: [number, number][] = [];
  try {
    for (let i = 0; i < Math.min(n, maxObjects); i++) {
      const number = header.value();
      const offset = header.value();
      if (typeof number !== 'number' || typeof offset !== 'number') break;
      entries.push([number, first + offset]);
    }
  } catch {
    // A broken header: the pairs read so far still stand.
  }
  // Each object is read up to where the next one starts, so a broken one cannot make the others be read twice.
  const sorted = [...entries].sort((a, b) => a[1] - b[1]);
  const result: [number, PdfValue][] = [];
  for (let i = 0; i < sorted.length; i++) {
    const [number, start] = sorted[i]!;
    // Two numbers at one offset: a broken header; the last one keeps the text.
    if (i + 1 < sorted.length && sorted[i + 1]![1] === start) continue;
    const end = Math.min(decoded.length, i + 1 < sorted.length ? sorted[i + 1]![1] : decoded.length);
    if (start >= end) continue;
    try {
      result.push([number, new PdfSyntaxReader(decoded, start, end).value()]);
    } catch {
      // One broken object does not hide the others.
    }
  }
  return result;
}

