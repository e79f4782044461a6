/**
 * How Hugging Face `datasets` types a JSON Lines load (no Python here; this follows the upstream code, it does not copy
 * it): huggingface/datasets `src/datasets/packaged_modules/json/json.py` reads each file in batches of `chunksize`
 * bytes (10 MB) completed to the end of a line, has Arrow's JSON reader type each batch (pyarrow `read_json`: null
 * promotes to anything, int64 to double, an object's fields are the union seen, anything else is "changed from"),
 * takes the features of the FIRST batch of the first file, and casts every later batch — of that file and of every
 * further file — to them (`datasets/table.py` `cast_array_to_feature`: a null column casts to anything, int64 to
 * double, a number to a string; an object to an object that has at least its fields; nothing else).
 */
import fs from 'node:fs';

export type ArrowType =
  | { type: 'null' | 'bool' | 'int64' | 'double' | 'string' }
  | { type: 'list'; item: ArrowType }
  | { type: 'struct'; fields: Map<string, ArrowType> };

const scalar = (type: 'null' | 'bool' | 'int64' | 'double' | 'string'): ArrowType => ({ type });

/**
 * The Arrow type of one JSON line, read from its text: a number written with a fraction or an exponent (`1.0`) is a
 * double, one without (`1`) an int64 — the distinction JSON.parse loses.
 */
function typeOfLine(line: string): ArrowType {
  let at = 0;
  const space = () => {
    while (at < line.length && ' \t\r\n'.includes(line[at]!)) at++;
  };
  const value = (): ArrowType => {
    space();
    const char = line[at];
    if (char === '{') {
      at++;
      const fields = new Map<string, ArrowType>();
      space();
      if (line[at] === '}') return at++, { type: 'struct', fields };
      for (;;) {
        space();
        const key = string();
        space();
        at++; // ':'
        fields.set(key, value());
        space();
        if (line[at++] === '}') return { type: 'struct', fields };
      }
    }
    if (char === '[') {
      at++;
      let item: ArrowType = scalar('null');
      space();
      if (line[at] === ']') return at++, { type: 'list', item };
      for (;;) {
        item = merge(item, value(), '[]');
        space();
        if (line[at++] === ']') return { type: 'list', item };
      }
    }
    if (char === '"') return string(), scalar('string');
    if (line.startsWith('true', at) || line.startsWith('false', at)) return (at += line[at] === 't' ? 4 : 5), scalar('bool');
    if (line.startsWith('null', at)) return (at += 4), scalar('null');
    const number = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(line.slice(at, at + 64));
    if (!number) throw new Error(`JSON parse error at ${at}`);
    at += number[0].length;
    return scalar(number[1] || number[2] ? 'double' : 'int64');
  };
  const string = (): string => {
    const start = at;
    at++;
    while (line[at] !== '"') at += line[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(line.slice(start, at)) as string;
  };
  return value();
}

const describe = (t: ArrowType): string =>
  t.type === 'list' ? `list<${describe(t.item)}>` : t.type === 'struct' ? `struct<${[...t.fields.keys()].join(', ')}>` : t.type;

/** Arrow's inference over the lines of one batch. */
function merge(a: ArrowType, b: ArrowType, path: string): ArrowType {
  if (a.type === 'null') return b;
  if (b.type === 'null') return a;
  if ((a.type === 'int64' && b.type === 'double') || (a.type === 'double' && b.type === 'int64')) return scalar('double');
  if (a.type === 'list' && b.type === 'list') return { type: 'list', item: merge(a.item, b.item, `${path}[]`) };
  if (a.type === 'struct' && b.type === 'struct') {
    const fields = new Map(a.fields);
    for (const [key, type] of b.fields) fields.set(key, fields.has(key) ? merge(fields.get(key)!, type, `${path}/${key}`) : type);
    return { type: 'struct', fields };
  }
  if (a.type === b.type) return a;
  throw new Error(`JSON parse error: Column(${path}) changed from ${describe(a)} to ${describe(b)}`);
}

/** Whether a batch of type `from` casts to the features `to`, else why not (datasets' message). */
function cast(from: ArrowType, to: ArrowType, path: string, nullTargets?: Set<string>): void {
  const fail = () => {
    if (nullTargets && to.type === 'null') return void nullTargets.add(path);
    throw new Error(`Couldn't cast array of type ${describe(from)} to ${describe(to)} (column ${path || '/'})`);
  };
  if (from.type === 'null') return;
  if (from.type === to.type && from.type !== 'list' && from.type !== 'struct') return;
  if (from.type === 'int64' && to.type === 'double') return;
  if ((from.type === 'int64' || from.type === 'double') && to.type === 'string') return;
  if (from.type === 'list' && to.type === 'list') return cast(from.item, to.item, `${path}[]`, nullTargets);
  if (from.type === 'struct' && to.type === 'struct') {
    for (const [key, type] of from.fields) {
      const target = to.fields.get(key);
      if (!target) fail();
      cast(type, target!, `${path}/${key}`, nullTargets);
    }
    return;
  }
  fail();
}

/** Loads the files as `load_dataset("json", data_files=files)` would type them; throws where it would fail. */
export function loadJsonLikeDatasets(
  files: readonly string[],
  chunksize = 10 << 20,
  /** Features declared (the data card's, or `features=`): every batch is cast to them, none is inferred. */
  declared: ArrowType | null = null,
  /**
   * Collects, instead of failing on, columns the first batch typed null (no value in its 10 MB) that a later batch
   * has values for — the one failure no way of writing the file can prevent, which declared features remove.
   */
  nullTargets?: Set<string>,
): { rows: number; batches: number; features: ArrowType } {
  let features: ArrowType | null = declared;
  let rows = 0;
  let batches = 0;
  for (const file of files) {
    const text = fs.readFileSync(file);
    let start = 0;
    while (start < text.length) {
      let end = Math.min(text.length, start + chunksize);
      const newline = text.indexOf(0x0a, end - 1);
      end = newline < 0 ? text.length : newline + 1;
      const lines = text.subarray(start, end).toString('utf8').split('\n').filter((line) => line.trim() !== '');
      start = end;
      const type = lines.reduce<ArrowType>((t, line) => merge(t, typeOfLine(line), ''), scalar('null'));
      if (features === null) features = type;
      else cast(type, features, '', nullTargets);
      rows += lines.length;
      batches += 1;
    }
  }
  return { rows, batches, features: features ?? scalar('null') };
}

/** Every object at a path has the same keys on every line (the file's own promise), or the first path that differs. */
export function differingKeys(file: string): string | null {
  const seen = new Map<string, string>();
  const visit = (value: unknown, path: string): string | null => {
    if (Array.isArray(value)) {
      for (const item of value) {
        const problem = visit(item, `${path}[]`);
        if (problem) return problem;
      }
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value).join(',');
      const known = seen.get(path);
      if (known === undefined) seen.set(path, keys);
      else if (known !== keys) return `${path || '/'}: {${known}} and {${keys}}`;
      for (const [key, child] of Object.entries(value)) {
        const problem = visit(child, `${path}/${key}`);
        if (problem) return problem;
      }
    }
    return null;
  };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const problem = visit(JSON.parse(line), '');
    if (problem) return problem;
  }
  return null;
}
