/**
 * The olmOCR-Bench tests a page contributes to the corpus's tests.jsonl: derived from the engine's text and the
 * analyst's latest text (app/checks deriveBenchTests), named after the page's record. The store derives them when a
 * revision is saved (so an export only reads them) and keeps them under a content key; the export derives them
 * itself only for pages whose key has no stored tests (projects saved before the store did this).
 */
import { createHash } from 'node:crypto';
import { deriveBenchTests } from '../../app/checks/olmocr/deriveTests.js';
import { recordIdOf } from './corpusRecord.js';

export interface CorpusTestsInput {
  documentSha256: string;
  pageNumber: number;
  engineMarkdown: string;
  /** The latest revision's text; the engine's text (or null) when nobody corrected the page. */
  correctedMarkdown: string | null;
}

/** Identifies the texts the tests were derived from: SHA-256 of engine text NUL corrected text. */
export function corpusTestsKey(engineMarkdown: string, correctedMarkdown: string | null): string {
  return createHash('sha256')
    .update(`${engineMarkdown}\u0000${correctedMarkdown ?? engineMarkdown}`)
    .digest('hex');
}

/** The page's tests as tests.jsonl lines (none for a page nobody changed). */
export function deriveCorpusTests(input: CorpusTestsInput): string[] {
  const corrected = input.correctedMarkdown ?? input.engineMarkdown;
  if (corrected === input.engineMarkdown) return [];
  const id = recordIdOf(input.documentSha256, input.pageNumber);
  return deriveBenchTests(input.engineMarkdown, corrected, { pdf: `${id}.png`, page: 1, idPrefix: id }).map((test) =>
    JSON.stringify(test),
  );
}
