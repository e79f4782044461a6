/**
 * The files that let other tools take the export as it is, each resolving image paths the way that tool does:
 * - `images/metadata.jsonl` — Hugging Face `imagefolder`: one line per page image, `file_name` relative to the
 *   metadata file (so `load_dataset("imagefolder", data_dir=EXPORT/images)` gives an `Image` column whatever the
 *   working folder). The card's `pages` config reads the same file as JSON: `datasets` picks ONE builder for all the
 *   configs of a card (the first config's data files decide, huggingface/datasets `load.py`
 *   `LocalDatasetModuleFactory`), so a card whose other configs are JSON Lines cannot have an imagefolder config —
 *   its PNGs would be parsed as JSON — and a JSON `image` path would be opened from the working folder, not the export;
 * - the data card's `dataset_info` — the features of every config, from the line schemas (schemaJsonl.ts), so
 *   `load_dataset(EXPORT)` casts every batch to declared types instead of guessing them from its first 10 MB; the
 *   `tests` features are the columns of every olmOCR-Bench test type, whatever types an export holds, so two
 *   exports' tests.jsonl load together (`datasets` adds a declared column a line lacks as null);
 * - `dataset_info.json` — LLaMA-Factory's dataset registry (data/dataset_info.json format): the chat layout as a
 *   `sharegpt` dataset whose image paths are relative to the export folder (LLaMA-Factory's `media_dir`, which
 *   defaults to the `dataset_dir` that holds dataset_info.json).
 */
import { z } from 'zod';
import type { CorpusRecord } from './corpusRecord.js';
import { corpusRecordTableSchema } from './corpusRecord.js';
import { baselineTestSchema, mathTestSchema, orderTestSchema, presenceTestSchema, tableTestSchema } from '../../app/checks/olmocr/index.js';
import { schemaFeaturesYaml, schemaJsonl } from './schemaJsonl.js';
import type { TrainingFormat } from './trainingFormats.js';

/** A line of images/metadata.jsonl: the page image's file name and what a vision dataset needs beside it. */
export const imageMetadataSchema = z.object({
  file_name: z.string(),
  id: z.string(),
  corrected_markdown: z.string(),
  engine_markdown: z.string(),
  corrected: z.boolean(),
  review_status: z.string(),
  source_name: z.string(),
  page: z.number().int(),
});

export function imageMetadataJsonl(records: readonly CorpusRecord[]): string {
  return schemaJsonl(
    imageMetadataSchema,
    records
      .filter((record) => record.image !== null)
      .map((record) => ({
        file_name: record.image!.replace(/^images\//, ''),
        id: record.id,
        corrected_markdown: record.corrected_markdown,
        engine_markdown: record.engine_markdown,
        corrected: record.corrected,
        review_status: record.review_status,
        source_name: record.source.name,
        page: record.source.page,
      })),
  );
}

/**
 * The columns of tests.jsonl as a table: every key of every olmOCR-Bench test type (tests.py's dataclasses), in a
 * fixed order. Each line keeps only its own type's keys (upstream's test classes take no others); the card declares
 * this union, so the `tests` features do not change with the test types an export happens to hold.
 */
export const benchTestColumnsSchema = z.object({
  ...presenceTestSchema.shape,
  ...orderTestSchema.shape,
  ...tableTestSchema.shape,
  ...mathTestSchema.shape,
  ...baselineTestSchema.shape,
  type: z.string(),
});

/**
 * The data card's YAML `configs` and `dataset_info` (features per config): every config JSON Lines (above). An
 * export without tests has no `tests` config: `datasets` refuses a split with no rows ("corresponds to no data").
 */
export function cardFrontMatter(input: { images: boolean; tests: boolean }): string[] {
  return [
    'configs:',
    '- config_name: default',
    '  data_files:',
    '  - split: train',
    '    path: records.jsonl',
    ...(input.tests ? ['- config_name: tests', '  data_files:', '  - split: test', '    path: tests.jsonl'] : []),
    ...(input.images ? ['- config_name: pages', '  data_files:', '  - split: train', '    path: images/metadata.jsonl'] : []),
    'dataset_info:',
    '- config_name: default',
    '  features:',
    ...schemaFeaturesYaml(corpusRecordTableSchema, '  '),
    ...(input.tests ? ['- config_name: tests', '  features:', ...schemaFeaturesYaml(benchTestColumnsSchema, '  ')] : []),
    ...(input.images ? ['- config_name: pages', '  features:', ...schemaFeaturesYaml(imageMetadataSchema, '  ')] : []),
  ];
}

/** LLaMA-Factory's dataset_info.json for the layouts it reads (null for the others). */
export function llamaFactoryDatasetInfo(format: TrainingFormat): string | null {
  if (format !== 'chat') return null;
  const info = {
    recto_chat: {
      file_name: 'chat.jsonl',
      formatting: 'sharegpt',
      columns: { messages: 'messages', images: 'images' },
      tags: { role_tag: 'role', content_tag: 'content', user_tag: 'user', assistant_tag: 'assistant' },
    },
  };
  return `${JSON.stringify(info, null, 2)}\n`;
}
