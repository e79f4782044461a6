/**
 * The content key under which a page's derived corpus tests are kept (table page_derived_tests): the tests depend
 * only on the engine's text and the corrected text, so the same two texts never need deriving twice.
 */
import { createHash } from 'node:crypto';

/** Identifies the texts the tests were derived from: SHA-256 of engine text NUL corrected text. */
export function corpusTestsKey(engineMarkdown: string, correctedMarkdown: string | null): string {
  return createHash('sha256')
    .update(`${engineMarkdown}\u0000${correctedMarkdown ?? engineMarkdown}`)
    .digest('hex');
}
