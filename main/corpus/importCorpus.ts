/**
 * Importing a Recto corpus export back into a project: every record becomes its page again — document, page, the
 * engine's extraction, every revision with its author and time — through the same bundle writer that merges
 * projects, so pages already in the project keep everything they have. Bad lines are reported by line number.
 * The corpus carries page images, not source files: imported documents have no source copy, and their images are
 * put into the page image cache (seedImage) so the pages show.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProjectStore } from '../store/projectStore.js';
import { BundleWriter, countOutcome } from './applyBundles.js';
import { bundleOfRecord, corpusRecordSchema, upgradeRecord } from './corpusRecord.js';
import { sha256Of } from './exportCorpus.js';
import { readManifest } from './manifest.js';

export interface CorpusImportSummary {
  records: number;
  documentsAdded: number;
  pagesAdded: number;
  runsAdded: number;
  revisionsAdded: number;
  imagesSeeded: number;
  /** Pages where both sides had revisions the other lacked (all kept). */
  diverged: number;
  problems: { where: string; reason: string }[];
}

export interface CorpusImportOptions {
  /** Puts a page image where the project's page image cache looks for it. */
  seedImage?: (sourceSha256: string, pageNumber: number, imageFile: string) => void;
}

export class CorpusImportError extends Error {
  override name = 'CorpusImportError';
}

export function importCorpus(store: ProjectStore, dir: string, options: CorpusImportOptions = {}): CorpusImportSummary {
  const recordsFile = path.join(dir, 'records.jsonl');
  if (!fs.existsSync(recordsFile)) throw new CorpusImportError(`${dir}: no records.jsonl, not a Recto corpus`);
  const text = fs.readFileSync(recordsFile, 'utf8');
  const summary: CorpusImportSummary = {
    records: 0,
    documentsAdded: 0,
    pagesAdded: 0,
    runsAdded: 0,
    revisionsAdded: 0,
    imagesSeeded: 0,
    diverged: 0,
    problems: [],
  };
  const manifest = readManifest(path.join(dir, 'manifest.json'));
  const listed = manifest?.files.find((f) => f.path === 'records.jsonl');
  if (!manifest) summary.problems.push({ where: 'manifest.json', reason: 'missing or not a Recto manifest; hashes not checked' });
  else if (listed && listed.sha256 !== sha256Of(text)) {
    summary.problems.push({ where: 'records.jsonl', reason: 'does not match the hash in manifest.json (edited after export)' });
  }

  const writer = new BundleWriter(store);
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const where = `records.jsonl:${index + 1}`;
    try {
      const parsed = corpusRecordSchema.safeParse(upgradeRecord(JSON.parse(line)));
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const record = parsed.data;
      const outcome = writer.apply(bundleOfRecord(record), null);
      summary.records += 1;
      countOutcome(summary, outcome);
      if (record.image && options.seedImage) {
        const imageFile = path.resolve(dir, record.image);
        if (!imageFile.startsWith(path.resolve(dir) + path.sep) || !fs.existsSync(imageFile)) {
          summary.problems.push({ where, reason: `image ${record.image} is missing` });
        } else if (record.image_sha256 && sha256Of(fs.readFileSync(imageFile)) !== record.image_sha256) {
          summary.problems.push({ where, reason: `image ${record.image} does not match its SHA-256` });
        } else {
          options.seedImage(record.source.sha256, record.source.page, imageFile);
          summary.imagesSeeded += 1;
        }
      }
    } catch (error) {
      summary.problems.push({ where, reason: error instanceof Error ? error.message : String(error) });
    }
  });
  return summary;
}
