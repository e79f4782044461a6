/**
 * One line of records.jsonl: a page with its image, the engine's output, the corrected Markdown, the elements with
 * their boxes, the check scores and the provenance — and every revision, so a corpus can be imported back into a
 * project without loss. Field order and shapes are fixed (JSON columns of free shape travel as strings), so every
 * line has the same schema and `datasets.load_dataset("json", …)` reads the file as one table. The engine's settings,
 * statistics, words, fields and warnings are nested JSON (format version 2); version 1 carried them as JSON strings
 * (`settings_json`, …) and is still read (`upgradeRecord`).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { fieldValuesSchema } from '../../app/contract/fields.js';
import { elementSchema, wordSchema } from '../../app/model/extraction.js';
import { scrubSecrets, scrubValue } from '../../app/model/secrets.js';
import { reviewStatusSchema } from '../../app/model/page.js';
import type { CheckScores, KindChangeSummary } from '../../app/contract/curation.js';
import type { BundleFieldRevision, BundleRun, PageBundle } from '../store/transfer/pageBundles.js';
import { recordIdOf } from '../../app/corpus/corpusTests.js';
import { readBySchema } from './schemaJsonl.js';
import { upgradeRecord } from './corpusRecordUpgrade.js';
import { correctionsBetween, readFieldValues, type EngineFieldValues } from '../../app/invoice/review/index.js';

export const corpusFormat = 'recto-corpus';
export const corpusFormatVersion = 3;

const nullableNumber = z.number().nullable();
const jsonObject = z.record(z.string(), z.unknown());

/** A stored JSON column as a value; a damaged one fails the record, naming the column. */
function parsedColumn(text: string | null, column: string): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`the extraction's ${column} are not valid JSON (a damaged row)`);
  }
}

/** The `<stem>.fields.json` shape with `amount_due` (fieldsExport.ts): the contract's field values. */
const invoiceFieldsSchema = fieldValuesSchema;

/**
 * A field revision as the corpus carries it. Values are JSON text, as stored (`new_value_json` null = back to the
 * engine's value): a field's value is a string or a number depending on the field, and one column of one type is
 * what a table reader (Arrow, `datasets`) needs.
 */
export const fieldRevisionRecordSchema = z.object({
  id: z.string().min(1),
  parent_id: z.string().nullable(),
  field: z.string(),
  old_value_json: z.string().nullable(),
  new_value_json: z.string().nullable(),
  undoes: z.string().nullable(),
  author: z.string().min(1),
  created_at: z.string().min(1),
});

/**
 * One review status change of the page (who approved, approved with exceptions or rejected it, when, why), as the
 * project keeps it; the store checks the statuses and bounds on import (store/transfer/bundleRows.ts).
 */
export const reviewEventRecordSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  exceptions: z.array(z.string()),
  reason: z.string().nullable(),
  reviewer: z.string(),
  at: z.string(),
});

export const corpusRecordSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}_p\d{4,}$/),
  image: z.string().nullable(),
  image_sha256: z.string().nullable(),
  source: z.object({
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    name: z.string(),
    media_type: z.string(),
    size_bytes: z.number().int().nonnegative(),
    imported_at: z.string(),
    document_id: z.string(),
    page: z.number().int().positive(),
    page_id: z.string(),
    width: z.number(),
    height: z.number(),
    dpi: z.number(),
    status: z.enum(['pending', 'reading', 'done', 'error']),
    error: z.string().nullable(),
  }),
  engine: z.object({
    run_id: z.string(),
    extraction_id: z.string(),
    id: z.string(),
    name: z.string(),
    version: z.string(),
    pack_sha256: z.string().nullable(),
    licence: z.string().nullable(),
    provider: z.string().nullable(),
    settings: jsonObject,
    stats: jsonObject,
    started_at: z.string(),
    finished_at: z.string(),
    read_at: z.string(),
    /** The page's words with their boxes and confidences, as the engine read them (null when it gives none). */
    words: z.array(z.unknown()).nullable(),
    /** What the engine read beyond the Markdown (invoice fields, page furniture), null when nothing. */
    fields: jsonObject.nullable(),
    warnings: z.array(z.unknown()),
  }),
  engine_markdown: z.string(),
  corrected_markdown: z.string(),
  corrected: z.boolean(),
  review_status: reviewStatusSchema,
  reviewer: z.string().nullable(),
  revised_at: z.string().nullable(),
  element_page: z.object({ width: z.number(), height: z.number() }),
  elements: z.array(elementSchema.extend({ confidence: nullableNumber, level: z.number().int().nullable() })),
  checks: z.object({
    // Null on a page nobody corrected: these compare the engine's text with a correction (structure and repetition
    // need none). Before 2026-12 an export wrote the engine's text compared with itself.
    score: nullableNumber,
    text: nullableNumber,
    structure: z.number(),
    tables: nullableNumber,
    tables_structure: nullableNumber,
    formulas: nullableNumber,
    repetition: z.number(),
    unit_tests: nullableNumber,
    changed_chars: z.number().int().nonnegative(),
  }),
  changed_by_kind: z.array(
    z.object({ kind: z.string(), elements: z.number().int(), chars: z.number().int(), changed_chars: z.number().int() }),
  ),
  revisions: z.array(
    z.object({ id: z.string(), parent_id: z.string().nullable(), author: z.string(), created_at: z.string(), text: z.string() }),
  ),
  tests: z.number().int().nonnegative(),
  /** Invoice fields with the analyst's corrections, and as the engine read them (null: not an invoice page). */
  fields: invoiceFieldsSchema.nullable().optional(),
  fields_engine: invoiceFieldsSchema.nullable().optional(),
  /** Every field revision of the page's document, in save order (absent in exports made before they were carried). */
  field_revisions: z.array(fieldRevisionRecordSchema).optional(),
  /** The page's review status changes, oldest first (absent in exports made before they were carried). */
  review_events: z.array(reviewEventRecordSchema).optional(),
});
export type CorpusRecord = z.infer<typeof corpusRecordSchema>;

/**
 * The schema records.jsonl is written by (schemaJsonl.ts: every key on every line, floats as floats, free-shape
 * values — the engine's settings, stats and fields — as JSON text): the record's, with the engine's words and
 * warnings typed as the extraction has them, so they are columns of their own rather than JSON text.
 */
export const corpusRecordTableSchema = corpusRecordSchema.extend({
  engine: corpusRecordSchema.shape.engine.extend({ words: z.array(wordSchema).nullable(), warnings: z.array(z.string()) }),
  elements: z.array(elementSchema.omit({ cells: true }).extend({ confidence: nullableNumber, level: z.number().int().nullable() })),
});

export { recordIdOf, upgradeRecord };

/** A line of records.jsonl as a record (any format version): JSON text of free-shape values parsed, then checked. */
export function parseCorpusRecordLine(line: string): CorpusRecord {
  return corpusRecordSchema.parse(upgradeRecord(readBySchema(corpusRecordTableSchema, JSON.parse(line))));
}

/** A page's invoice fields as read and as corrected (fieldsExport.ts); null: not an invoice page, not corrected. */
export interface PageFields {
  fields_engine: EngineFieldValues | null;
  fields: EngineFieldValues | null;
}

export interface RecordParts {
  bundle: PageBundle;
  image: { path: string; sha256: string } | null;
  scores: CheckScores;
  changedChars: number;
  kinds: KindChangeSummary[];
  tests: number;
  /** The page's invoice fields (fieldsExport.ts); absent = none. */
  fields?: PageFields;
}

export function toCorpusRecord({ bundle, image, scores, changedChars, kinds, tests, fields }: RecordParts): CorpusRecord {
  const run = bundle.runs[bundle.runs.length - 1];
  if (!run) throw new Error('the page has no extraction');
  let layout: { page: { width: number; height: number }; elements: unknown[] };
  try {
    layout = JSON.parse(run.extraction.layoutJson) as typeof layout;
  } catch {
    throw new Error("the extraction's elements are not valid JSON (a damaged row)");
  }
  const parsed = z.array(elementSchema).safeParse(layout?.elements);
  if (!parsed.success) throw new Error(`the extraction's elements are malformed: ${parsed.error.issues[0]?.message ?? ''}`);
  const elements = parsed.data;
  const latest = bundle.revisions[bundle.revisions.length - 1] ?? null;
  // A score compares the engine's text with the analyst's; without a correction there is nothing to compare (null,
  // as docs/corpus-format.md says of checks that do not apply), not the engine's text against itself.
  const compared = (value: number | null): number | null => (latest === null ? null : value);
  return {
    id: recordIdOf(bundle.document.sha256, bundle.page.pageNumber),
    image: image?.path ?? null,
    image_sha256: image?.sha256 ?? null,
    source: {
      sha256: bundle.document.sha256,
      name: bundle.document.name,
      media_type: bundle.document.mediaType,
      size_bytes: bundle.document.sizeBytes,
      imported_at: bundle.document.importedAt,
      document_id: bundle.document.id,
      page: bundle.page.pageNumber,
      page_id: bundle.page.id,
      width: bundle.page.width,
      height: bundle.page.height,
      dpi: bundle.page.dpi,
      status: bundle.page.status,
      // Scrubbed again on the way out: a project written before keys were scrubbed on storing may still hold one.
      error: bundle.page.error === null ? null : scrubSecrets(bundle.page.error),
    },
    engine: {
      run_id: run.id,
      extraction_id: run.extraction.id,
      id: run.engineId,
      name: run.engineName,
      version: run.engineVersion,
      pack_sha256: run.packSha256,
      licence: run.licence,
      provider: run.provider,
      settings: scrubValue(parsedColumn(run.settingsJson, 'settings') as Record<string, unknown>),
      stats: parsedColumn(run.statsJson, 'statistics') as Record<string, unknown>,
      started_at: run.startedAt,
      finished_at: run.finishedAt,
      read_at: run.extraction.createdAt,
      words: parsedColumn(run.extraction.wordsJson, 'words') as unknown[] | null,
      fields: parsedColumn(run.extraction.fieldsJson, 'fields') as Record<string, unknown> | null,
      warnings: scrubValue(parsedColumn(run.extraction.warningsJson, 'warnings') as unknown[]),
    },
    engine_markdown: run.extraction.markdown,
    corrected_markdown: latest?.text ?? run.extraction.markdown,
    corrected: latest !== null,
    review_status: bundle.page.reviewStatus,
    reviewer: latest?.author ?? null,
    revised_at: latest?.createdAt ?? null,
    element_page: { width: layout.page.width, height: layout.page.height },
    elements: elements.map((e) => ({
      id: e.id,
      kind: e.kind,
      box: e.box,
      span: e.span,
      confidence: e.confidence,
      level: e.level ?? null,
    })),
    checks: {
      score: compared(scores.score),
      text: compared(scores.text),
      structure: scores.structure,
      tables: compared(scores.tables),
      tables_structure: compared(scores.tablesStructure),
      formulas: compared(scores.formulas),
      repetition: scores.repetition,
      unit_tests: compared(scores.unitTests),
      changed_chars: changedChars,
    },
    changed_by_kind: kinds
      .filter((k) => k.changedChars > 0)
      .map((k) => ({ kind: k.kind, elements: k.elements, chars: k.chars, changed_chars: k.changedChars })),
    revisions: bundle.revisions.map((r) => ({
      id: r.id,
      parent_id: r.parentId,
      author: r.author,
      created_at: r.createdAt,
      text: r.text,
    })),
    tests,
    fields: fields?.fields ?? null,
    fields_engine: fields?.fields_engine ?? null,
    field_revisions: bundle.fieldRevisions.map((r) => ({
      id: r.id,
      parent_id: r.parentId,
      field: r.field,
      old_value_json: r.oldValueJson,
      new_value_json: r.newValueJson,
      undoes: r.undoes,
      author: r.author,
      created_at: r.createdAt,
    })),
    review_events: bundle.reviewEvents.map((e) => ({ ...e })),
  };
}

/** The page bundle a record carries (its latest extraction and every revision), for import. */
export function bundleOfRecord(record: CorpusRecord): PageBundle {
  const { source, engine } = record;
  const run: BundleRun = {
    id: engine.run_id,
    engineId: engine.id,
    engineName: engine.name,
    engineVersion: engine.version,
    packSha256: engine.pack_sha256,
    licence: engine.licence,
    provider: engine.provider,
    settingsJson: JSON.stringify(engine.settings),
    statsJson: JSON.stringify(engine.stats),
    startedAt: engine.started_at,
    finishedAt: engine.finished_at,
    extraction: {
      id: engine.extraction_id,
      markdown: record.engine_markdown,
      layoutJson: JSON.stringify({
        page: record.element_page,
        elements: record.elements.map(({ level, ...e }) => (level === null ? e : { ...e, level })),
      }),
      wordsJson: engine.words === null ? null : JSON.stringify(engine.words),
      fieldsJson: engine.fields === null ? null : JSON.stringify(engine.fields),
      warningsJson: JSON.stringify(engine.warnings),
      createdAt: engine.read_at,
    },
  };
  return {
    document: {
      id: source.document_id,
      sha256: source.sha256,
      name: source.name,
      mediaType: source.media_type,
      sizeBytes: source.size_bytes,
      importedAt: source.imported_at,
    },
    page: {
      id: source.page_id,
      pageNumber: source.page,
      width: source.width,
      height: source.height,
      dpi: source.dpi,
      textLayerJson: null,
      status: source.status,
      error: source.error,
      reviewStatus: record.review_status,
    },
    runs: [run],
    revisions: record.revisions.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      text: r.text,
      author: r.author,
      createdAt: r.created_at,
    })),
    fieldRevisions: record.field_revisions?.map(bundleFieldRevisionOf) ?? fieldRevisionsFromValues(record),
    reviewEvents: record.review_events?.map((e) => ({ ...e })) ?? [],
  };
}

/** A record's field revision (the corpus's snake_case) as the store's bundle carries it. */
export function bundleFieldRevisionOf(r: z.infer<typeof fieldRevisionRecordSchema>): BundleFieldRevision {
  return {
    id: r.id,
    parentId: r.parent_id,
    field: r.field,
    oldValueJson: r.old_value_json,
    newValueJson: r.new_value_json,
    undoes: r.undoes,
    author: r.author,
    createdAt: r.created_at,
  };
}

/** Who a field correction is attributed to when the corpus did not record it (records without `field_revisions`). */
export const unrecordedFieldAuthor = 'corpus import';

/**
 * A record exported before field revisions were carried has the corrected values (`fields`) and the engine's
 * (`fields_engine`) but not their history: each field or line cell that differs becomes one revision, attributed to
 * `unrecordedFieldAuthor` at the time of the page's latest revision (else its reading). Ids are derived from the
 * document, field and value, so every record of the document, and a second import, give the same revisions.
 */
function fieldRevisionsFromValues(record: CorpusRecord): BundleFieldRevision[] {
  if (!record.fields) return [];
  const engine = record.fields_engine ?? readFieldValues({});
  const createdAt = record.revised_at ?? record.engine.read_at;
  return correctionsBetween(engine, record.fields).map(({ field, from, to }) => {
    const hash = createHash('sha256').update(`${record.source.sha256}\0${field}\0${JSON.stringify(to)}`).digest('hex');
    return {
      id: `${hash.slice(0, 8)}-${hash.slice(8, 12)}-8${hash.slice(13, 16)}-a${hash.slice(17, 20)}-${hash.slice(20, 32)}`,
      parentId: null,
      field,
      oldValueJson: JSON.stringify(from),
      newValueJson: JSON.stringify(to),
      undoes: null,
      author: unrecordedFieldAuthor,
      createdAt,
    };
  });
}
