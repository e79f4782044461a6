/**
 * The extraction: what an engine makes of one page. Every engine — the FastMTP vision-language engine and the
 * bundled CPU engine — ends with this shape, so review and curation work alike whichever engine read the page.
 *
 * Coordinates are page pixels of the page image the engine was given (origin top-left, x right, y down).
 */
import { z } from 'zod';

/** [x1, y1, x2, y2] in page pixels, x1 <= x2, y1 <= y2. */
export const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type Box = z.infer<typeof boxSchema>;

/** Character span [start, end) into `Extraction.markdown`. */
export const spanSchema = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]);
export type Span = z.infer<typeof spanSchema>;

export const elementKinds = [
  'title',
  'heading',
  'text',
  'list',
  'table',
  'formula',
  'figure',
  'caption',
  'header',
  'footer',
  'page-number',
  'footnote',
  'other',
] as const;
export const elementKindSchema = z.enum(elementKinds);
export type ElementKind = z.infer<typeof elementKindSchema>;

/** One recognised word with its box; confidence in [0, 1] (OCR confidence, ~1 for clean text layers). */
export const wordSchema = z.object({
  text: z.string(),
  box: boxSchema,
  confidence: z.number().min(0).max(1).nullable(),
  /** Read by OCR from an image on a page otherwise read from its text layer (a logo, a stamp, a chart's labels). */
  fromImage: z.literal(true).optional(),
});
export type Word = z.infer<typeof wordSchema>;

/** One cell of a table element: its slot, spans and box (page pixels). */
export const tableCellSchema = z.object({
  row: z.number().int().nonnegative(),
  col: z.number().int().nonnegative(),
  rowspan: z.number().int().positive(),
  colspan: z.number().int().positive(),
  header: z.boolean(),
  box: boxSchema,
});
export type TableCellBox = z.infer<typeof tableCellSchema>;

/** One layout element: its kind, where it is on the page and where its text is in the Markdown. */
export const elementSchema = z.object({
  id: z.string(),
  kind: elementKindSchema,
  box: boxSchema,
  span: spanSchema,
  confidence: z.number().min(0).max(1).nullable(),
  /** Heading level 1–6 for `title`/`heading`; absent otherwise. */
  level: z.number().int().min(1).max(6).optional(),
  /** For `table` elements, where the engine knows them: every cell with its box, in row-major order. */
  cells: z.array(tableCellSchema).optional(),
});
export type Element = z.infer<typeof elementSchema>;

/** Which engine produced an extraction, with what, and how. */
export const engineRunInfoSchema = z.object({
  /** Stable engine id, e.g. "bundled" or "vlm". */
  id: z.string(),
  name: z.string(),
  version: z.string(),
  /** SHA-256 of the model pack's manifest, null for engines without a pack. */
  packSha256: z.string().nullable(),
  /** Licence of the weights, where the engine uses any (shown wherever the engine is chosen). */
  licence: z.string().nullable(),
  /** Execution provider that ran ("cpu", "cuda", "webgpu", …) or the engine's own source ("text-layer", "tesseract"). */
  provider: z.string().nullable(),
  settings: z.record(z.string(), z.unknown()),
});
export type EngineRunInfo = z.infer<typeof engineRunInfoSchema>;

export const extractionStatsSchema = z.object({
  durationMs: z.number().nonnegative(),
  tokens: z.number().int().nonnegative().optional(),
  tokensPerSecond: z.number().nonnegative().optional(),
  /** Speculative decoding: mean accepted length per step, including the bonus token (τ). */
  meanAcceptedLength: z.number().nonnegative().optional(),
  /** Speculative decoding: acceptance rate of draft position i (0-based). */
  acceptancePerPosition: z.array(z.number().min(0).max(1)).optional(),
  /** True when decoding stopped at max tokens: probable repetition. */
  hitMaxTokens: z.boolean().optional(),
});
export type ExtractionStats = z.infer<typeof extractionStatsSchema>;

export const extractionSchema = z.object({
  markdown: z.string(),
  elements: z.array(elementSchema),
  /** Size of the page image the boxes refer to. */
  page: z.object({ width: z.number().positive(), height: z.number().positive() }),
  engine: engineRunInfoSchema,
  stats: extractionStatsSchema,
  /** Words with boxes and confidence, where the engine has them. */
  words: z.array(wordSchema).optional(),
  /** Problems that did not stop the page (a dropped malformed element, an unreadable text layer, …). */
  warnings: z.array(z.string()).default([]),
  /** Structured fields the engine recognised (e.g. invoice fields); shape owned by the producer. */
  fields: z.record(z.string(), z.unknown()).optional(),
});
export type Extraction = z.infer<typeof extractionSchema>;
