/**
 * The content key under which a page's derived corpus tests are kept (table page_derived_tests): the tests depend
 * only on the engine's text and the corrected text, so the same two texts never need deriving twice.
 */
import { createHash } from 'node:crypto';

/**
 * The rules tests are derived and matched by (app/checks/olmocr). Part of the key, so that a change of rules makes
 * every stored key stale and the tests are derived again rather than reused. 2: present/absent matched with
 * rapidfuzz's partial_ratio as olmOCR-Bench does (1 had no prefix: a Levenshtein substring search).
 */
export const DERIVED_TESTS_RULES = 2;

/** Identifies the texts the tests were derived from, and the rules: SHA-256 of rules NUL engine text NUL corrected text. */
export function corpusTestsKey(engineMarkdown: string, correctedMarkdown: string | null): string {
  return createHash('sha256')
    .update(`recto-tests-${DERIVED_TESTS_RULES}\u0000${engineMarkdown}\u0000${correctedMarkdown ?? engineMarkdown}`)
    .digest('hex');
}
