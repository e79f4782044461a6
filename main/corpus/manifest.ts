/**
 * manifest.json of a corpus export: the hash and size of every file, the filters it was made with, and per record a
 * key of its content (engine output + correction) so the next export can reuse what did not change.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { readRegularFile } from '../util/containedPaths.js';
import { corpusFormat } from './corpusRecord.js';
import { trainingFormats } from './trainingFormats.js';

export const manifestFileSchema = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});
export type ManifestFile = z.infer<typeof manifestFileSchema>;

export const corpusManifestSchema = z.object({
  format: z.literal(corpusFormat),
  version: z.number().int().positive(),
  /** The training-ready layout written beside records.jsonl (absent in exports before format version 2). */
  training_format: z.enum(trainingFormats).optional(),
  project: z.string(),
  filters: z.object({ status: z.string().nullable(), since: z.string().nullable(), images: z.enum(['png', 'none']) }),
  counts: z.object({
    records: z.number().int(),
    tests: z.number().int(),
    images: z.number().int(),
    skipped: z.number().int(),
  }),
  files: z.array(manifestFileSchema),
  /** Record id → SHA-256 of engine Markdown NUL corrected Markdown. */
  records: z.record(z.string(), z.string()),
  skipped: z.array(z.object({ id: z.string().nullable(), page: z.string(), reason: z.string() })),
});
export type CorpusManifest = z.infer<typeof corpusManifestSchema>;

/** The manifest of a Recto export in that file, or null when the file is absent or is not one. */
export function readManifest(file: string): CorpusManifest | null {
  try {
    // Not through a link, a FIFO or a device: those are not manifests.
    if (!fs.lstatSync(file).isFile()) return null;
    const parsed = corpusManifestSchema.safeParse(JSON.parse(readRegularFile(file).toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
