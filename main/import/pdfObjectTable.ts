/**
 * Every object of a PDF, read in one pass over the file: each top-level `n g obj` (its value, and for a stream where
 * its data lies), each trailer's and cross-reference stream's /Root, and the objects held in compressed object
 * streams (`/Type /ObjStm`, PDF 1.5+), which most producers use for every dictionary.
 *
 * Why a pass over the objects rather than the cross-reference offsets: the pass is what a reader must fall back to
 * whenever an offset is wrong (producers that rewrite files often leave them so), and a document's objects are all
 * found by it; the newest definition of a number wins as the cross-reference chain would have it, since an
 * incremental update (or a linearized file's main section) is appended after what it replaces. The trailers are
 * still read for /Root, newest last.
 *
 * Linear and bounded: the scan never goes back; a stream's data and a broken object are skipped whole, so no byte is
 * parsed twice; `endobj`/`endstream` are searched with forward-only cursors. Object streams are inflated by zlib on
 * libuv's thread pool (off the event loop), each and all together under a byte cap; objects are counted under a cap.
 */
import zlib from 'node:zlib';
import { PdfName, PdfRef, PdfSyntaxError, PdfSyntaxReader, isPdfWhitespace, type PdfDict, type PdfValue } from './pdfObjectSyntax.js';

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

/** One object header, or a `trailer` keyword. The number is not preceded by a digit; no quantifier competes. */
const HEADER = /(?<![0-9])(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+obj(?![A-Za-z0-9])|trailer(?![A-Za-z0-9])/g;

/** The first occurrence of `needle` at or after a position, for positions that only grow: each byte is searched once. */
function forwardSearch(text: string, needle: string): (from: number) => number {
  let lastFrom = -1;
  let found = -1;
  return (from) => {
    if (lastFrom >= 0 && from >= lastFrom && (found < 0 || from <= found)) return found;
    lastFrom = from;
    found = text.indexOf(needle, from);
    return found;
  };
}

/** Passes over the file at most: a stream whose /Length is an object defined after it may need a second. */
const MAX_PASSES = 3;

export async function readObjectTable(bytes: Uint8Array, limits = OBJECT_TABLE_LIMITS): Promise<PdfObjectTable> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  // A stream's /Length may be an object written after the stream: the first pass can only guess its end (the next
  // `endstream`, wrong when the data holds that word, as an attached PDF does), so its data might be read as objects.
  // Once the pass has found the length, the next pass skips the data by it; a constant number of linear passes.
  const knownEnds = new Map<number, number>();
  let pass = scanTopLevel(text, knownEnds, limits.maxObjects);
  for (let passes = 1; passes < MAX_PASSES; passes++) {
    let changed = false;
    for (const { object, length } of pass.indirectLengths) {
      const target = pass.objects.get(length.objectNumber)?.value;
      const stream = object.stream!;
      const end = typeof target === 'number' && Number.isInteger(target) && target >= 0 ? stream.start + target : -1;
      if (end >= 0 && end <= text.length && end !== stream.end && endstreamFollows(text, end)) {
        knownEnds.set(stream.start, end);
        changed = true;
      }
    }
    if (!changed) break;
    pass = scanTopLevel(text, knownEnds, limits.maxObjects);
  }
  const { objects, roots, objectStreams } = pass;
  let count = pass.count;

  let inflated = 0;
  for (const { at, object } of objectStreams) {
    const budget = Math.min(limits.maxObjectStreamBytes, limits.maxInflatedBytes - inflated);
    if (budget <= 0 || count >= limits.maxObjects) break;
    const decoded = await decodeObjectStream(bytes, object, budget);
    if (!decoded) continue;
    inflated += decoded.length;
    for (const [number, value] of objectStreamObjects(decoded, object.value as PdfDict, limits.maxObjects - count)) {
      count++;
      const existing = objects.get(number);
      if (!existing || existing.at <= at) objects.set(number, { value, stream: null, at });
    }
  }
  return { objects, roots };
}

interface TopLevelPass {
  /** Definitions in file order: a later one of the same number replaces an earlier one. */
  objects: Map<number, PdfObject & { at: number }>;
  roots: PdfRef[];
  objectStreams: { at: number; object: PdfObject }[];
  /** Streams whose /Length is a reference not resolved when they were read. */
  indirectLengths: { object: PdfObject; length: PdfRef }[];
  count: number;
}

/** One forward pass over the top-level objects and trailers; `knownEnds` (data start → end) from an earlier pass. */
function scanTopLevel(text: string, knownEnds: Map<number, number>, maxObjects: number): TopLevelPass {
  const nextEndobj = forwardSearch(text, 'endobj');
  const nextEndstream = forwardSearch(text, 'endstream');
  const pass: TopLevelPass = { objects: new Map(), roots: [], objectStreams: [], indirectLengths: [], count: 0 };
  const header = new RegExp(HEADER.source, 'g');
  for (let match = header.exec(text); match && pass.count < maxObjects; match = header.exec(text)) {
    const valueStart = match.index + match[0].length;
    if (match[1] === undefined) {
      // A trailer dictionary: its /Root is the catalog of the section it ends.
      const reader = new PdfSyntaxReader(text, valueStart, text.length);
      try {
        const trailer = reader.value();
        if (trailer instanceof Map && trailer.get('Root') instanceof PdfRef) pass.roots.push(trailer.get('Root') as PdfRef);
      } catch {
        // A broken trailer names no catalog; the objects still do.
      }
      header.lastIndex = Math.max(header.lastIndex, reader.pos);
      continue;
    }
    pass.count++;
    const endobj = nextEndobj(valueStart);
    const reader = new PdfSyntaxReader(text, valueStart, endobj < 0 ? text.length : endobj);
    let value: PdfValue;
    try {
      value = reader.value();
    } catch (error) {
      if (!(error instanceof PdfSyntaxError) && !(error instanceof RangeError)) throw error;
      // What the broken value consumed is not read again (a string left open must not make the scan quadratic).
      header.lastIndex = Math.max(header.lastIndex, reader.pos);
      continue;
    }
    const object: PdfObject & { at: number } = { value, stream: null, at: match.index };
    if (value instanceof Map && reader.takeKeyword('stream')) {
      let start = reader.pos;
      if (text[start] === '\r') start++;
      if (text[start] === '\n') start++;
      const length = value.get('Length');
      const declaredEnd = typeof length === 'number' && Number.isInteger(length) && length >= 0 ? start + length : (knownEnds.get(start) ?? -1);
      let end = declaredEnd >= 0 && declaredEnd <= text.length && endstreamFollows(text, declaredEnd) ? declaredEnd : -1;
      if (end < 0) {
        const keyword = nextEndstream(start);
        end = keyword < 0 ? text.length : trimEol(text, start, keyword);
        if (length instanceof PdfRef) pass.indirectLengths.push({ object, length });
      }
      object.stream = { start, end };
      header.lastIndex = Math.max(header.lastIndex, end);
      if (isName(value.get('Type'), 'ObjStm')) pass.objectStreams.push({ at: match.index, object });
      if (isName(value.get('Type'), 'XRef') && value.get('Root') instanceof PdfRef) pass.roots.push(value.get('Root') as PdfRef);
    } else {
      header.lastIndex = Math.max(header.lastIndex, reader.pos);
    }
    pass.objects.set(Number(match[1]), object);
  }
  return pass;
}

function isName(value: PdfValue | undefined, name: string): boolean {
  return value instanceof PdfName && value.name === name;
}

/** True when only whitespace stands between `at` and an `endstream` keyword. */
function endstreamFollows(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && i < at + 4 && isPdfWhitespace(text.charCodeAt(i))) i++;
  return text.startsWith('endstream', i);
}

/** The data's end before `endstream`: the end-of-line marker before the keyword is not data. */
function trimEol(text: string, start: number, keyword: number): number {
  let end = keyword;
  if (end > start && text[end - 1] === '\n') end--;
  if (end > start && text[end - 1] === '\r') end--;
  return end;
}

/**
 * An object stream's bytes as latin1 text, at most `budget` of them (a stream inflating past it is cut there: the
 * objects before the cut still count), or null when its filter is not Flate (or none). Inflated on zlib's thread pool.
 */
async function decodeObjectStream(bytes: Uint8Array, object: PdfObject, budget: number): Promise<string | null> {
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
function inflatePrefix(stored: Uint8Array, limit: number): Promise<Buffer> {
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
function objectStreamObjects(decoded: string, dict: PdfDict, maxObjects: number): [number, PdfValue][] {
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

/** `value`, or the object it refers to (followed through at most a few references). */
export function resolve(table: PdfObjectTable, value: PdfValue | undefined): PdfValue | undefined {
  let current = value;
  for (let hops = 0; current instanceof PdfRef && hops < 8; hops++) current = table.objects.get(current.objectNumber)?.value;
  return current instanceof PdfRef ? undefined : current;
}
