/**
 * JSON Lines whose schema is the zod schema of the line, not the data: what a table reader needs when it types the
 * columns from the first block it reads (Arrow's JSON reader; Hugging Face `datasets`, which takes the features of
 * its first 10 MB batch and casts every later batch, and every further file of a multi-file load, to them —
 * huggingface/datasets `src/datasets/packaged_modules/json/json.py`). Written from the schema:
 * - every key of an object schema on every line, in the schema's order, null where the value has none;
 * - a `z.number()` that is not `.int()` always as a float (`1.0`, not `1`), so a column of ones is not typed int64
 *   and a later `0.75` fails to cast;
 * - a free-shape value (`z.record`, `z.unknown`: an engine's settings, statistics, fields) as JSON text — one string
 *   column whatever keys each engine has, which is what `datasets` itself does with such values (its `Json` type).
 * The same schema gives the Hugging Face features of the file (`schemaFeaturesYaml`) for the data card, and reads the
 * JSON text back (`readBySchema`).
 */
import type { z } from 'zod';

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Wrappers that do not change the written shape: optional, nullable, default, readonly. */
function unwrap(schema: z.ZodType): z.ZodType {
  let def = defOf(schema);
  while (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)) {
    schema = def.innerType as z.ZodType;
    def = defOf(schema);
  }
  return schema;
}

const isInt = (def: Def): boolean =>
  ((def.checks as { _zod: { def: { format?: string } } }[] | undefined) ?? []).some((check) => /int/.test(check._zod.def.format ?? ''));

/** Free-shape values (no keys or types of their own) travel as JSON text. */
const isFreeShape = (def: Def): boolean => def.type === 'record' || def.type === 'unknown' || def.type === 'any' || def.type === 'union';

/** Largest integer written with `.0` as is; beyond it JavaScript writes an exponent, which is a float already. */
const PLAIN_INTEGER_LIMIT = 1e21;

type Writer = (value: unknown) => string;

/** The value as JSON text, itself as a JSON string: how a value that does not fit its schema's shape is written. */
const asJsonText: Writer = (value) => JSON.stringify(JSON.stringify(value));

/** Writers compiled once per schema: an export writes thousands of lines by the same schema. */
const compiled = new WeakMap<z.ZodType, Writer>();

function writerOf(schema: z.ZodType): Writer {
  let writer = compiled.get(schema);
  if (!writer) {
    writer = compile(schema);
    compiled.set(schema, writer);
  }
  return writer;
}

function compile(schema: z.ZodType): Writer {
  const def = defOf(unwrap(schema));
  const nullable = (write: Writer): Writer => (value) => (value === null || value === undefined ? 'null' : write(value));
  if (isFreeShape(def)) return nullable(asJsonText);
  switch (def.type) {
    case 'object': {
      const fields = Object.entries(def.shape as Record<string, z.ZodType>).map(([key, child]) => ({ key, prefix: `${JSON.stringify(key)}:`, write: writerOf(child) }));
      return nullable((value) => {
        if (typeof value !== 'object' || Array.isArray(value)) return asJsonText(value);
        const object = value as Record<string, unknown>;
        return `{${fields.map((field) => field.prefix + field.write(object[field.key])).join(',')}}`;
      });
    }
    case 'array': {
      const write = writerOf(def.element as z.ZodType);
      return nullable((value) => (Array.isArray(value) ? `[${value.map(write).join(',')}]` : asJsonText(value)));
    }
    case 'tuple': {
      const writers = (def.items as z.ZodType[]).map(writerOf);
      return nullable((value) =>
        Array.isArray(value) ? `[${value.map((item, index) => writers[Math.min(index, writers.length - 1)]!(item)).join(',')}]` : asJsonText(value),
      );
    }
    case 'number': {
      const float = !isInt(def);
      return nullable((value) => {
        if (typeof value !== 'number') return asJsonText(value);
        if (float && Number.isInteger(value) && Math.abs(value) < PLAIN_INTEGER_LIMIT) return `${value}.0`;
        return JSON.stringify(value);
      });
    }
    case 'string':
    case 'enum':
      return nullable((value) => (typeof value === 'string' ? JSON.stringify(value) : asJsonText(value)));
    default:
      return nullable((value) => JSON.stringify(value));
  }
}

export function writeBySchema(schema: z.ZodType, value: unknown): string {
  return writerOf(schema)(value);
}

/** Lines of `values`, one schema (above); each line ends in a newline. */
export function schemaJsonl(schema: z.ZodType, values: readonly unknown[]): string {
  return values.map((value) => `${writeBySchema(schema, value)}\n`).join('');
}

/** A date (`…_date`: YYYY-MM-DD) or a time (`…_at`: ISO 8601) by its key. */
const DATE_KEY = /_date$/;
const TIME_KEY = /_at$/;

/**
 * A date or time that a table reader wrote back as a number: Arrow types ISO date strings as dates and timestamps,
 * and `datasets`' `to_json` (pandas) writes those as epoch milliseconds. Read back as the ISO text they were, so a
 * corpus round-tripped through `datasets` imports; anything else is left for the schema to refuse, naming the field.
 */
function isoFromEpoch(key: string | undefined, value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value) || key === undefined) return value;
  if (DATE_KEY.test(key)) return new Date(value).toISOString().slice(0, 10);
  if (TIME_KEY.test(key)) return new Date(value).toISOString();
  return value;
}

/**
 * A line as written back into values: the JSON text of free-shape values parsed, dates and times that came back as
 * epoch milliseconds as ISO text again (other values as they are).
 */
export function readBySchema(schema: z.ZodType, value: unknown, key?: string): unknown {
  if (value === null || value === undefined) return value;
  const def = defOf(unwrap(schema));
  if (def.type === 'string') return isoFromEpoch(key, value);
  if (isFreeShape(def)) {
    if (typeof value !== 'string') return value; // written before free-shape values were JSON text (format 2)
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  if (def.type === 'object' && typeof value === 'object' && !Array.isArray(value)) {
    const shape = def.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [name, child] of Object.entries(shape)) if (name in out) out[name] = readBySchema(child, out[name], name);
    return out;
  }
  if (def.type === 'array' && Array.isArray(value)) return value.map((item) => readBySchema(def.element as z.ZodType, item, key));
  return value;
}

function dtypeOf(def: Def): string | null {
  if (isFreeShape(def)) return 'string';
  switch (def.type) {
    case 'number':
      return isInt(def) ? 'int64' : 'float64';
    case 'string':
    case 'enum':
      return 'string';
    case 'literal': {
      const literal = (def.values as unknown[])[0];
      return typeof literal === 'boolean' ? 'bool' : typeof literal === 'number' ? (Number.isInteger(literal) ? 'int64' : 'float64') : 'string';
    }
    case 'boolean':
      return 'bool';
    default:
      return null;
  }
}

/**
 * The schema's Hugging Face features as the YAML list of a data card (the form `Features._to_yaml_list` writes:
 * `dtype` for a value, `struct` for an object, `list` for an array — its dtype, its fields, or a nested list).
 * `overrides` gives a top-level column another dtype (e.g. `image`).
 */
export function schemaFeaturesYaml(schema: z.ZodType, indent: string, overrides: Record<string, string> = {}): string[] {
  const shape = defOf(unwrap(schema)).shape as Record<string, z.ZodType>;
  return Object.entries(shape).flatMap(([name, child]) => [
    `${indent}- name: ${name}`,
    ...(overrides[name] ? [`${indent}  dtype: ${overrides[name]}`] : featureBody(child, `${indent}  `)),
  ]);
}

function featureBody(schema: z.ZodType, indent: string): string[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  const dtype = dtypeOf(def);
  if (dtype) return [`${indent}dtype: ${dtype}`];
  if (def.type === 'object') return [`${indent}struct:`, ...schemaFeaturesYaml(inner, indent)];
  const item = def.type === 'array' ? (def.element as z.ZodType) : (def.items as z.ZodType[])[0]!;
  return listBody(item, indent);
}

function listBody(item: z.ZodType, indent: string): string[] {
  const inner = unwrap(item);
  const def = defOf(inner);
  const dtype = dtypeOf(def);
  if (dtype) return [`${indent}list: ${dtype}`];
  if (def.type === 'object') return [`${indent}list:`, ...schemaFeaturesYaml(inner, indent)];
  const next = def.type === 'array' ? (def.element as z.ZodType) : (def.items as z.ZodType[])[0]!;
  return [`${indent}list:`, ...listBody(next, `${indent}  `)];
}
