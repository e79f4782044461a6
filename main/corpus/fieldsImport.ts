/**
 * The invoice fields of a corpus, checked before anything is imported: a record's `fields`, `fields_engine` and
 * `field_revisions`, and every line of `fields.jsonl`. Field corrections are an analyst's work; a corpus whose fields
 * are malformed (not JSON of the documented shape, a field path that is not an invoice field, a value of the wrong type
 * for its field) is refused as a whole with the file and line, rather than imported without them — a document
 * imported without its corrections would look as if nobody had corrected it.
 *
 * Each `fields.jsonl` line is also compared with the `fields` of its document's records: they agree in a corpus as Recto
 * exported it, so a difference means one of the two files was edited; it is reported, and the records (which carry the
 * history) are what is imported.
 */
import { z } from 'zod';
import { readBySchema } from './schemaJsonl.js';
import { fieldValuesSchema } from '../../app/contract/fields.js';
import { emptyFieldValues, type EngineFieldValues } from '../../app/invoice/review/index.js';
import { bundleFieldRevisionProblem } from '../store/transfer/applyFieldRevisions.js';
import { bundleFieldRevisionOf, fieldRevisionRecordSchema } from './corpusRecord.js';
import { lstatInside, readFileInside } from '../util/containedPaths.js';

/** The field values shape with no key beyond the documented ones (a misspelt key is an error, not dropped). */
const strictFieldValuesSchema = fieldValuesSchema.extend({ lines: z.array(fieldValuesSchema.shape.lines.element.strict()) }).strict();
const fieldsLineSchema = strictFieldValuesSchema.extend({ document_id: z.string().min(1) }).strict();

const issuesText = (error: z.ZodError, prefix: string): string =>
  error.issues
    .slice(0, 3)
    .map((i) => `${[prefix, ...i.path].join('.')}: ${i.message}`)
    .join('; ');

/** Why a record's invoice fields cannot be imported, or null (the record's other keys are checked elsewhere). */
export function recordFieldsProblem(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  for (const key of ['fields', 'fields_engine'] as const) {
    if (record[key] === undefined || record[key] === null) continue;
    const parsed = strictFieldValuesSchema.safeParse(record[key]);
    if (!parsed.success) return issuesText(parsed.error, key);
  }
  if (record.field_revisions === undefined) return null;
  const parsed = z.array(fieldRevisionRecordSchema).safeParse(record.field_revisions);
  if (!parsed.success) return issuesText(parsed.error, 'field_revisions');
  for (const [index, r] of parsed.data.entries()) {
    const problem = bundleFieldRevisionProblem(bundleFieldRevisionOf(r));
    if (problem) return `field_revisions.${index}: ${problem}`;
  }
  return null;
}

export interface FieldsLine {
  where: string;
  documentId: string;
  values: EngineFieldValues;
}

/** The lines of the corpus's fields.jsonl (none when it has no such file), and the malformed ones as `file:line: why`. */
export function readFieldsLines(dir: string): { lines: FieldsLine[]; errors: string[] } {
  const lines: FieldsLine[] = [];
  const errors: string[] = [];
  let text: string;
  try {
    if (!lstatInside(dir, 'fields.jsonl')) return { lines, errors };
    text = readFileInside(dir, 'fields.jsonl').toString('utf8');
  } catch (error) {
    return { lines, errors: [`fields.jsonl: cannot be read (${error instanceof Error ? error.message : String(error)})`] };
  }
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const where = `fields.jsonl:${index + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      errors.push(`${where}: not JSON`);
      return;
    }
    // Dates that `datasets` wrote back as epoch milliseconds are read as the ISO dates they were (schemaJsonl.ts).
    const parsed = fieldsLineSchema.safeParse(readBySchema(fieldsLineSchema, raw));
    if (!parsed.success) errors.push(`${where}: ${issuesText(parsed.error, 'fields')}`);
    else {
      const { document_id: documentId, ...values } = parsed.data;
      lines.push({ where, documentId, values });
    }
  });
  return { lines, errors };
}

/** Field paths (scalar keys, `lines`) whose values differ between two sets of field values. */
function differingKeys(a: EngineFieldValues, b: EngineFieldValues): string[] {
  return (Object.keys(a) as (keyof EngineFieldValues)[]).filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]));
}

/**
 * Compares each fields.jsonl line with the `fields` its document's records carry (`recordFields`: by the corpus's
 * document id); both files come from one export, so a difference means one was edited. Returns them as problems.
 */
export function checkFieldsLines(
  lines: readonly FieldsLine[],
  recordFields: ReadonlyMap<string, EngineFieldValues | null>,
): { where: string; reason: string }[] {
  const problems: { where: string; reason: string }[] = [];
  for (const line of lines) {
    if (!recordFields.has(line.documentId)) {
      problems.push({ where: line.where, reason: `document ${line.documentId.slice(0, 80)} has no record in records.jsonl` });
      continue;
    }
    const differing = differingKeys(line.values, recordFields.get(line.documentId) ?? emptyFieldValues());
    if (differing.length > 0) {
      problems.push({
        where: line.where,
        reason: `differs from the fields its records carry (${differing.join(', ')}); the records' field revisions were imported`,
      });
    }
  }
  return problems;
}
