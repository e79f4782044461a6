/**
 * The olmOCR-Bench tests a page contributes to the corpus's tests.jsonl: derived from the engine's text and the
 * analyst's latest text (app/checks deriveBenchTests), named after the page's record. The store derives them when a
 * revision is saved (so an export only reads them) and keeps them under a content key (main/store/curation/corpusTestsKey.ts); the export derives them
 * itself only for pages whose key has no stored tests (projects saved before the store did this).
 */
import { deriveBenchTests } from '../checks/olmocr/deriveTests.js';

export interface CorpusTestsInput {
  documentSha256: string;
  pageNumber: number;
  engineMarkdown: string;
  /** The latest revision's text; the engine's text (or null) when nobody corrected the page. */
  correctedMarkdown: string | null;
}

/** Stable record id: the source's SHA-256 prefix and the page number, so it survives copies of the project. */
export function recordIdOf(sourceSha256: string, pageNumber: number): string {
  return `${sourceSha256.slice(0, 16)}_p${String(pageNumber).padStart(4, '0')}`;
}

/** The page's tests as tests.jsonl lines (none for a page nobody changed). */
export function deriveCorpusTests(input: CorpusTestsInput): string[] {
  const corrected = input.correctedMarkdown ?? input.engineMarkdown;
  if (corrected === input.engineMarkdown) return [];
  const id = recordIdOf(input.documentSha256, input.pageNumber);
  return deriveBenchTests(input.engineMarkdown, corrected, { pdf: `${id}.pdf`, page: 1, idPrefix: id }).map((test) =>
    JSON.stringify(test),
  );
}
