/**
 * JSON Lines with one schema per file, for the files whose lines have no zod schema of their own (chat.jsonl,
 * pairs.jsonl, metadata.jsonl; records.jsonl and fields.jsonl are written by their schema: schemaJsonl.ts), for table readers that type columns from the first block they read: Arrow's
 * JSON reader, and Hugging Face `datasets`, which takes the features of its first 10 MB batch and casts every later
 * batch to them (huggingface/datasets `src/datasets/packaged_modules/json/json.py`). A line that differs from that
 * first batch fails the whole load: a number written `1` where a later line has `0.75` (int64 then double), an
 * object with keys another line lacks (a struct that cannot be cast), a value that is a string here and a number there.
 *
 * So a file is written from the kind of every path observed over ALL its lines:
 * - every object at a path has the union of keys seen there, absent ones null, in first-seen order;
 * - a number at a path where any line has a non-integer is written as a float (`1.0`), so the first block types it
 *   double whatever it holds;
 * - a path whose values are of different JSON types (rare: free-shape engine settings) is written as JSON text
 *   (what `datasets` itself does with such a path: its `Json` type).
 * The kinds also give the file's features for the data card (`featuresYaml`), so `load_dataset` on the export folder
 * types every column from the card instead of guessing from a block (a column null throughout the first 10 MB).
 */

export interface Kind {
  null: boolean;
  bool: boolean;
  int: boolean;
  float: boolean;
  string: boolean;
  list: Kind | null;
  struct: Map<string, Kind> | null;
}

export const emptyKind = (): Kind => ({ null: false, bool: false, int: false, float: false, string: false, list: null, struct: null });

/** Adds a value to the kind of its path. */
export function observe(kind: Kind, value: unknown): void {
  if (value === null || value === undefined) kind.null = true;
  else if (typeof value === 'boolean') kind.bool = true;
  else if (typeof value === 'number') {
    if (Number.isInteger(value)) kind.int = true;
    else kind.float = true;
  } else if (typeof value === 'string') kind.string = true;
  else if (Array.isArray(value)) {
    kind.list ??= emptyKind();
    for (const item of value) observe(kind.list, item);
  } else if (typeof value === 'object') {
    kind.struct ??= new Map();
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      let childKind = kind.struct.get(key);
      if (!childKind) kind.struct.set(key, (childKind = emptyKind()));
      observe(childKind, child);
    }
    // A key this object lacks is null here.
    for (const [key, childKind] of kind.struct) if (!(key in (value as object))) childKind.null = true;
  }
}

/** The kind of every path over these values. */
export function kindOf(values: Iterable<unknown>): Kind {
  const kind = emptyKind();
  for (const value of values) observe(kind, value);
  return kind;
}

/** More than one JSON type at the path (int and float are one type: numbers). */
export function isMixed(kind: Kind): boolean {
  return [kind.bool, kind.int || kind.float, kind.string, kind.list !== null, kind.struct !== null].filter(Boolean).length > 1;
}

/** Largest integer written with `.0` as is; beyond it JavaScript writes an exponent, which is a float already. */
const PLAIN_INTEGER_LIMIT = 1e21;

function write(value: unknown, kind: Kind, path: string, encoded: Set<string>): string {
  if (value === null || value === undefined) return 'null';
  if (isMixed(kind)) {
    encoded.add(path);
    return JSON.stringify(JSON.stringify(value));
  }
  if (typeof value === 'number') {
    if (kind.float && Number.isInteger(value) && Math.abs(value) < PLAIN_INTEGER_LIMIT) return `${value}.0`;
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => write(item, kind.list!, `${path}[]`, encoded)).join(',')}]`;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const [key, childKind] of kind.struct!) parts.push(`${JSON.stringify(key)}:${write(object[key], childKind, path ? `${path}.${key}` : key, encoded)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface UniformFile {
  /** The file's text: one line per value, each ending in a newline. */
  text: string;
  kind: Kind;
  /** Paths written as JSON text (`engine.settings.mode`, `elements[].cells`), sorted. */
  jsonEncoded: string[];
}

/** The values as JSON Lines of one schema (above). */
export function uniformJsonl(values: readonly unknown[]): UniformFile {
  const kind = kindOf(values);
  const encoded = new Set<string>();
  const text = values.map((value) => `${write(value, kind, '', encoded)}\n`).join('');
  return { text, kind, jsonEncoded: [...encoded].sort() };
}

/** The Hugging Face `datasets` dtype of a scalar kind. */
function dtypeOf(kind: Kind): string {
  if (isMixed(kind) || kind.string) return 'string';
  if (kind.float) return 'float64';
  if (kind.int) return 'int64';
  if (kind.bool) return 'bool';
  return 'null';
}

/**
 * The kind as the YAML `features` list of a Hugging Face data card (the form `Features._to_yaml_list` writes:
 * `dtype` for a value, `struct` for an object, `list` for an array — its dtype, its fields, or a nested list).
 * `overrides` gives a top-level column another feature (e.g. `image: image`).
 */
export function featuresYaml(kind: Kind, indent: string, overrides: Record<string, string> = {}): string[] {
  const lines: string[] = [];
  for (const [name, child] of kind.struct ?? new Map<string, Kind>()) {
    lines.push(`${indent}- name: ${name}`);
    if (overrides[name]) lines.push(`${indent}  dtype: ${overrides[name]}`);
    else lines.push(...featureBody(child, `${indent}  `));
  }
  return lines;
}

function featureBody(kind: Kind, indent: string): string[] {
  if (isMixed(kind) || (kind.struct === null && kind.list === null)) return [`${indent}dtype: ${dtypeOf(kind)}`];
  if (kind.struct) return [`${indent}struct:`, ...featuresYaml(kind, indent)];
  return listBody(kind.list!, indent);
}

/** `list:` with its item: a dtype on the same line, the item's fields below it, or a nested list. */
function listBody(item: Kind, indent: string): string[] {
  if (isMixed(item) || (item.struct === null && item.list === null)) return [`${indent}list: ${dtypeOf(item)}`];
  if (item.struct) return [`${indent}list:`, ...featuresYaml(item, indent)];
  return [`${indent}list:`, ...listBody(item.list!, `${indent}  `)];
}
