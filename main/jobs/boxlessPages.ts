/**
 * A page read with text but without a single element box (a remote server that answers without grounding tags, an
 * engine that gives none) shows no boxes on the review screen, and training data made from it has nothing to ground:
 * it is said on the page (a warning of its reading) and in the reading job's progress, not left to be noticed.
 */
import type { Extraction } from '../../app/model/extraction.js';

export const NO_BOXES_WARNING =
  'the engine gave text but no element boxes: the review screen shows no boxes for this page (a remote server answering without <|ref|>/<|det|> grounding tags?)';

/** The reading with the warning added when it has text and no boxes; null when it needs none. */
export function boxlessWarning(extraction: Extraction): Extraction | null {
  if (extraction.elements.length > 0 || extraction.markdown.trim() === '') return null;
  if (extraction.warnings.includes(NO_BOXES_WARNING)) return extraction;
  return { ...extraction, warnings: [...extraction.warnings, NO_BOXES_WARNING] };
}
