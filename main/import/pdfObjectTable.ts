/**
 * Every object of a PDF: through its cross-reference data where that holds (pdfCrossReference.ts), else by passes
 * over the file that read each top-level `n g obj` (its value, and for a stream where its data lies), each trailer's
 * and cross-reference stream's /Root, and the objects held in compressed object streams (`/Type /ObjStm`, PDF 1.5+),
 * which most producers use for every dictionary.
 *
 * The pass is what a reader must fall back to whenever an offset is wrong (producers that rewrite files, and damaged
 * files, leave them so): the newest definition of a number wins as the cross-reference chain would have it, since an
 * incremental update (or a linearized file's main section) is appended after what it replaces; the trailers are still
 * read for /Root, newest last.
 *
 * Linear and bounded: the pass never goes back; a stream's data and a broken object are skipped whole, so no byte is
 * parsed twice; `endobj`/`endstream` are searched with forward-only cursors. Object streams are inflated by zlib on
 * libuv's thread pool, each and all together under a byte cap; objects are counted under a cap.
 */
import { PdfRef, PdfSyntaxError, PdfSyntaxReader, type PdfDict, type PdfValue } from './pdfObjectSyntax.js';
import { decodeObjectStream, endstreamFollows, forwardSearch, isName, objectStreamObjects, trimEol, OBJECT_TABLE_LIMITS, type PdfObject, type PdfObjectTable } from './pdfObjectStreams.js';

import { readCrossReferenceTable } from './pdfCrossReference.js';

export { OBJECT_TABLE_LIMITS, type PdfObject, type PdfObjectTable } from './pdfObjectStreams.js';

/** One object header, or a `trailer` keyword. The number is not preceded by a digit; no quantifier competes. */
const HEADER = /(?<![0-9])(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+obj(?![A-Za-z0-9])|trailer(?![A-Za-z0-9])/g;

/** Passes over the file at most: a stream whose /Length is an object defined after it may need a second. */
const MAX_PASSES = 3;

/** The objects through the cross-reference data where it holds (pdfCrossReference.ts), else by a pass over the file. */
export async function readObjectTable(bytes: Uint8Array, limits = OBJECT_TABLE_LIMITS): Promise<PdfObjectTable> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  // Cross-reference data that cannot be read (any error) is as good as broken: the pass finds the objects without it.
  const listed = await readCrossReferenceTable(text, bytes, limits).catch(() => null);
  return listed ?? scanObjectTable(text, bytes, limits);
}

/** Every object found by passes over the file, for a PDF whose cross-reference data is broken or missing. */
export async function scanObjectTable(text: string, bytes: Uint8Array, limits = OBJECT_TABLE_LIMITS): Promise<PdfObjectTable> {
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

/** `value`, or the object it refers to (followed through at most a few references). */
export function resolve(table: PdfObjectTable, value: PdfValue | undefined): PdfValue | undefined {
  let current = value;
  for (let hops = 0; current instanceof PdfRef && hops < 8; hops++) current = table.objects.get(current.objectNumber)?.value;
  return current instanceof PdfRef ? undefined : current;
}
