/**
 * A grounding model's answer as an Extraction — the same for every engine that reads with one (jina-ocr-v1 on this
 * machine, or behind an OpenAI-compatible server), so that the same text gives the same Extraction whichever engine
 * decoded it: the text through the grounding parser, boxes in the page's pixels, the engine's own warnings first,
 * then the parser's, then why the answer stopped short where it hit its token limit.
 */
import type { EngineRunInfo, Extraction, ExtractionStats } from '../model/extraction.js';
import { parseGroundingOutput } from './groundingParser.js';

export interface GroundedAnswer {
  /** The model's text, grounding tags kept. */
  text: string;
  /** The page image's size, which the boxes are scaled to. */
  page: { width: number; height: number };
  engine: EngineRunInfo;
  /** When reading the page began (`performance.now()`): `stats.durationMs` runs from it to the parsed extraction. */
  startedAt: number;
  stats: Omit<ExtractionStats, 'durationMs'>;
  /** The engine's own warnings (a model pack's), listed before the parser's. */
  warnings?: readonly string[];
  /** Said when decoding stopped at its token limit (`stats.hitMaxTokens`): the answer is probably cut short. */
  stoppedShort?: string;
}

export function groundedExtraction(answer: GroundedAnswer): Extraction {
  const grounding = parseGroundingOutput(answer.text, answer.page);
  const warnings = [...(answer.warnings ?? []), ...grounding.warnings];
  if (answer.stoppedShort) warnings.push(answer.stoppedShort);
  const durationMs = performance.now() - answer.startedAt;
  return {
    markdown: grounding.markdown,
    elements: grounding.elements,
    page: { width: answer.page.width, height: answer.page.height },
    engine: answer.engine,
    stats: { durationMs, ...answer.stats },
    warnings,
  };
}
