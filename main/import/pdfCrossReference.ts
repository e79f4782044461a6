/**
 * A PDF's objects read through its cross-reference data (ISO 32000-1 §7.5.4, §7.5.8): from the last `startxref`,
 * each section — a classic table or a cross-reference stream — and its /Prev chain (and a hybrid file's /XRefStm), the
 * newest entry of a number winning; each in-use object parsed at its offset, each compressed one from its object
 * stream. Only the objects the document lists are read, so filler between them costs nothing, and an attached PDF's
 * own objects inside a stream's data are never taken for the document's.
 *
 * Null when the data is broken anywhere (an offset not at its object's header, a section or an object that does not
 * parse, a /Root that names no dictionary): the caller then reads the objects by its pass over the file
 * (pdfObjectTable.ts). Bounded: sections (MAX_SECTIONS) and objects (limits) counted, each object parsed only up to
 * where the next listed one starts, streams inflated under the limits' caps.
 */
import { PdfRef, PdfSyntaxReader, type PdfValue } from './pdfObjectSyntax.js';
import {
  decodeObjectStream,
  endstreamFollows,
  inflatePrefix,
  isName,
  objectStreamObjects,
  trimEol,
  type OBJECT_TABLE_LIMITS,
  type PdfObject,
  type PdfObjectTable,
} from './pdfObjectStreams.js';

type Entry = { kind: 'free' } | { kind: 'offset'; offset: number } | { kind: 'compressed'; stream: number };

interface Section {
  root: PdfRef | null;
  prev: number | null;
  xrefStm: number | null;
}

/** Cross-reference sections followed at most (one per incremental update). */
const MAX_SECTIONS = 256;
const OBJECT_HEADER = /[\0\t\n\f\r ]*(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+obj(?![A-Za-z0-9])/y;

export async function readCrossReferenceTable(text: string, bytes: Uint8Array, limits: typeof OBJECT_TABLE_LIMITS): Promise<PdfObjectTable | null> {
  const startxref = text.lastIndexOf('startxref');
  if (startxref < 0) return null;
  const at = new PdfSyntaxReader(text, startxref + 'startxref'.length, Math.min(text.length, startxref + 64)).value();
  if (typeof at !== 'number') return null;

  const entries = new Map<number, Entry>();
  // Rows read and bytes inflated over all sections together: 256 sections of a million rows would not be linear.
  const budget = { rows: 2 * limits.maxObjects, bytes: limits.maxInflatedBytes };
  const roots: PdfRef[] = [];
  const pending = [at];
  const seen = new Set<number>();
  while (pending.length > 0) {
    const offset = pending.shift()!;
    if (seen.has(offset)) continue;
    if (seen.size >= MAX_SECTIONS || !Number.isInteger(offset) || offset < 0 || offset >= text.length) return null;
    seen.add(offset);
    const section = await readSection(text, bytes, offset, entries, limits, budget);
    if (!section) return null;
    if (section.root) roots.push(section.root);
    // A hybrid file's table leaves its compressed objects to the stream /XRefStm names: newer than /Prev's entries.
    if (section.xrefStm !== null) pending.push(section.xrefStm);
    if (section.prev !== null) pending.push(section.prev);
  }
  roots.reverse();

  const objects = await readListedObjects(text, bytes, entries, limits);
  if (!objects) return null;
  const table = { objects, roots };
  const root = roots.at(-1);
  return root && objects.get(root.objectNumber)?.value instanceof Map ? table : null;
}

/** One section at `offset`, its entries added where no newer section gave the number one. */
async function readSection(
  text: string,
  bytes: Uint8Array,
  offset: number,
  entries: Map<number, Entry>,
  limits: typeof OBJECT_TABLE_LIMITS,
  budget: { rows: number; bytes: number },
): Promise<Section | null> {
  const reader = new PdfSyntaxReader(text, offset, text.length);
  try {
    if (reader.takeKeyword('xref')) return readTableSection(reader, entries, budget);
    OBJECT_HEADER.lastIndex = offset;
    const header = OBJECT_HEADER.exec(text);
    if (!header) return null;
    reader.pos = offset + header[0].length;
    const dict = reader.value();
    if (!(dict instanceof Map) || !isName(dict.get('Type'), 'XRef') || !reader.takeKeyword('stream')) return null;
    let start = reader.pos;
    if (text[start] === '\r') start++;
    if (text[start] === '\n') start++;
    const length = dict.get('Length');
    if (typeof length !== 'number' || !endstreamFollows(text, start + length)) return null;
    const data = await decodeCrossReferenceStream(bytes.subarray(start, start + length), dict, Math.min(limits.maxObjectStreamBytes, budget.bytes));
    if (data) budget.bytes -= data.length;
    const widths = dict.get('W');
    if (!data || !Array.isArray(widths) || widths.length !== 3 || !widths.every((w) => typeof w === 'number' && w >= 0 && w <= 8)) return null;
    const [w0, w1, w2] = widths as number[];
    const size = dict.get('Size');
    const index = dict.get('Index') ?? [0, typeof size === 'number' ? size : 0];
    if (!Array.isArray(index)) return null;
    const row = w0! + w1! + w2!;
    let pos = 0;
    for (let i = 0; i + 1 < index.length; i += 2) {
      const first = index[i];
      const count = index[i + 1];
      if (typeof first !== 'number' || typeof count !== 'number' || count < 0 || (budget.rows -= count) < 0) return null;
      for (let k = 0; k < count && pos + row <= data.length; k++, pos += row) {
        const type = w0 === 0 ? 1 : field(data, pos, w0!);
        const second = field(data, pos + w0!, w1!);
        const number = first + k;
        if (entries.has(number)) continue;
        if (type === 0) entries.set(number, { kind: 'free' });
        else if (type === 1) entries.set(number, { kind: 'offset', offset: second });
        else if (type === 2) entries.set(number, { kind: 'compressed', stream: second });
      }
    }
    const prev = dict.get('Prev');
    return { root: rootOf(dict.get('Root')), prev: typeof prev === 'number' ? prev : null, xrefStm: null };
  } catch {
    return null;
  }
}

/** A classic table: subsections of `offset generation n|f` lines, then `trailer << … >>`. */
function readTableSection(reader: PdfSyntaxReader, entries: Map<number, Entry>, budget: { rows: number }): Section | null {
  for (;;) {
    if (reader.takeKeyword('trailer')) {
      const trailer = reader.value();
      if (!(trailer instanceof Map)) return null;
      const prev = trailer.get('Prev');
      const xrefStm = trailer.get('XRefStm');
      return { root: rootOf(trailer.get('Root')), prev: typeof prev === 'number' ? prev : null, xrefStm: typeof xrefStm === 'number' ? xrefStm : null };
    }
    const first = reader.value();
    const count = reader.value();
    if (typeof first !== 'number' || typeof count !== 'number' || count < 0 || (budget.rows -= count) < 0) return null;
    for (let k = 0; k < count; k++) {
      const offset = reader.value();
      reader.value(); // generation
      const inUse = reader.takeKeyword('n');
      if (!inUse && !reader.takeKeyword('f')) return null;
      // A free entry is not recorded: in a hybrid file the table marks free what its /XRefStm holds compressed.
      if (inUse && typeof offset === 'number' && !entries.has(first + k)) entries.set(first + k, { kind: 'offset', offset });
    }
  }
}

function rootOf(value: PdfValue | undefined): PdfRef | null {
  return value instanceof PdfRef ? value : null;
}

function field(data: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let i = 0; i < width; i++) value = value * 256 + data[at + i]!;
  return value;
}

/** A cross-reference stream's rows: Flate (or none), then the PNG row filters its /DecodeParms /Predictor names. */
async function decodeCrossReferenceStream(stored: Uint8Array, dict: Map<string, PdfValue>, cap: number): Promise<Uint8Array | null> {
  const filter = dict.get('Filter');
  const filters = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
  let data: Uint8Array;
  if (filters.length === 0) data = stored;
  else if (filters.length === 1 && (isName(filters[0], 'FlateDecode') || isName(filters[0], 'Fl'))) data = await inflatePrefix(stored, cap);
  else return null;
  const parms = dict.get('DecodeParms');
  const predictor = parms instanceof Map ? parms.get('Predictor') : undefined;
  if (typeof predictor !== 'number' || predictor <= 1) return data;
  if (predictor < 10) return null;
  const columns = parms instanceof Map && typeof parms.get('Columns') === 'number' ? (parms.get('Columns') as number) : 1;
  return unfilterPng(data, columns);
}

/** PNG row filters (None, Sub, Up, Average, Paeth) undone, one byte per pixel, `columns` bytes a row (§7.4.4.4). */
function unfilterPng(data: Uint8Array, columns: number): Uint8Array | null {
  if (!Number.isInteger(columns) || columns < 1) return null;
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (columns + 1)]!;
    const row = r * columns;
    for (let c = 0; c < columns; c++) {
      const raw = data[r * (columns + 1) + 1 + c]!;
      const left = c > 0 ? out[row + c - 1]! : 0;
      const up = r > 0 ? out[row - columns + c]! : 0;
      const upLeft = r > 0 && c > 0 ? out[row - columns + c - 1]! : 0;
      let predicted = 0;
      if (type === 1) predicted = left;
      else if (type === 2) predicted = up;
      else if (type === 3) predicted = (left + up) >> 1;
      else if (type === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      } else if (type !== 0) return null;
      out[row + c] = (raw + predicted) & 0xff;
    }
  }
  return out;
}

/** Each listed object parsed at its offset (up to the next listed offset), then the compressed ones. */
async function readListedObjects(text: string, bytes: Uint8Array, entries: Map<number, Entry>, limits: typeof OBJECT_TABLE_LIMITS): Promise<Map<number, PdfObject> | null> {
  const located = [...entries].flatMap(([number, entry]) => (entry.kind === 'offset' && entry.offset > 0 ? [{ number, offset: entry.offset }] : []));
  if (located.length > limits.maxObjects) return null;
  located.sort((a, b) => a.offset - b.offset);
  const objects = new Map<number, PdfObject>();
  const lengths: { object: PdfObject; length: PdfRef; regionEnd: number }[] = [];
  for (let i = 0; i < located.length; i++) {
    const { number, offset } = located[i]!;
    const regionEnd = i + 1 < located.length ? located[i + 1]!.offset : text.length;
    OBJECT_HEADER.lastIndex = offset;
    const header = OBJECT_HEADER.exec(text);
    if (!header || Number(header[1]) !== number || offset + header[0].length > regionEnd) return null;
    const reader = new PdfSyntaxReader(text, offset + header[0].length, regionEnd);
    let value: PdfValue;
    try {
      value = reader.value();
    } catch {
      return null;
    }
    const object: PdfObject = { value, stream: null };
    if (value instanceof Map && reader.takeKeyword('stream')) {
      let start = reader.pos;
      if (text[start] === '\r') start++;
      if (text[start] === '\n') start++;
      const length = value.get('Length');
      object.stream = { start, end: streamEnd(text, start, typeof length === 'number' ? length : null, regionEnd) };
      if (length instanceof PdfRef) lengths.push({ object, length, regionEnd });
    }
    objects.set(number, object);
  }
  // A /Length given by reference: the object is read now that every listed one is.
  for (const { object, length, regionEnd } of lengths) {
    const value = objects.get(length.objectNumber)?.value;
    object.stream!.end = streamEnd(text, object.stream!.start, typeof value === 'number' ? value : null, regionEnd);
  }

  let inflated = 0;
  const wanted = new Map<number, Set<number>>();
  for (const [number, entry] of entries) if (entry.kind === 'compressed') wanted.set(entry.stream, (wanted.get(entry.stream) ?? new Set()).add(number));
  for (const [streamNumber, numbers] of wanted) {
    const container = objects.get(streamNumber);
    const budget = Math.min(limits.maxObjectStreamBytes, limits.maxInflatedBytes - inflated);
    if (!container?.stream || !(container.value instanceof Map) || budget <= 0) continue;
    const decoded = await decodeObjectStream(bytes, container, budget);
    if (decoded === null) continue;
    inflated += decoded.length;
    for (const [number, value] of objectStreamObjects(decoded, container.value, limits.maxObjects)) {
      if (numbers.has(number) && !objects.has(number)) objects.set(number, { value, stream: null });
    }
  }
  return objects;
}

/** The data's end: `start + length` where `endstream` follows it, else the last `endstream` before the next object. */
function streamEnd(text: string, start: number, length: number | null, regionEnd: number): number {
  if (length !== null && Number.isInteger(length) && length >= 0 && start + length <= regionEnd && endstreamFollows(text, start + length)) return start + length;
  // Searched within the object's own region only: regions do not overlap, so all searches together read the file once.
  const keyword = text.slice(start, regionEnd).lastIndexOf('endstream');
  return keyword >= 0 ? trimEol(text, start, start + keyword) : regionEnd;
}
