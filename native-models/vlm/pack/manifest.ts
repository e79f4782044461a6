/**
 * manifest.json of a model pack: what the pack is, every file with its SHA-256, the tensor names of each graph, the
 * special token ids, the prompt, image modes and decoding settings. Validated with zod when a pack is loaded.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { z } from 'zod';

export const MANIFEST_FILE = 'manifest.json';

export const fileEntrySchema = z.object({
  /** vision | embed | decoder | draft | tokenizer | data (external weights of a graph). */
  role: z.enum(['vision', 'embed', 'decoder', 'draft', 'tokenizer', 'data']),
  path: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'a plain file name inside the pack folder')
    // `.` and `..` pass the character class but name the pack folder itself or the one above it.
    .refine((name) => name !== '.' && name !== '..', 'a plain file name inside the pack folder'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});
export type PackFileEntry = z.infer<typeof fileEntrySchema>;

const graphTensorsSchema = z.object({ inputs: z.array(z.string()), outputs: z.array(z.string()) });

export const packManifestSchema = z.object({
  format: z.literal('recto-vlm-pack'),
  /**
   * 2: caches read and written in place (past views in, new positions out) and candidates instead of full logits;
   * 3: and the draft block picks its hidden-state rows itself (`hidden_rows`), so hidden states never cross to the host.
   */
  formatVersion: z.literal(3, { error: 'pack format 3 is needed (KV caches in place, candidate logits, hidden rows picked in the draft graph); re-export or regenerate this pack' }),
  name: z.string(),
  version: z.string(),
  /** Licence of the weights, shown wherever the engine is chosen (CC BY-NC 4.0 for jina-ocr-v1). */
  licence: z.string(),
  description: z.string().optional(),
  files: z.array(fileEntrySchema),
  tensors: z.object({ vision: graphTensorsSchema, embed: graphTensorsSchema, decoder: graphTensorsSchema, draft: graphTensorsSchema }),
  dims: z.object({
    vocab: z.number().int().positive(),
    hidden: z.number().int().positive(),
    layers: z.number().int().positive(),
    heads: z.number().int().positive(),
    headDim: z.number().int().positive(),
  }),
  specialTokens: z.object({ bos: z.number().int(), eos: z.number().int(), image: z.number().int() }),
  /** The prompt; `<image>` marks where the visual tokens go. */
  prompt: z.string(),
  /** Image mode used when the caller does not choose one (see preprocess/imageModes.ts). */
  defaultImageMode: z.enum(['tiny', 'small', 'base', 'large', 'gundam']),
  /** FastMTP draft depth K the pack was trained for. */
  draftDepth: z.number().int().min(1).max(8),
  noRepeatNgram: z.object({ ngramSize: z.number().int().min(2), windowSize: z.number().int().min(2), exemptTokenIds: z.array(z.number().int()) }),
  /** How the decoder and draft graphs hold their KV caches (packContract.ts); 'views' when absent. */
  cacheForm: z.enum(['views', 'shared-buffer']).default('views'),
  /** C: candidates (largest logits) per row the decoder and draft graphs return; > window − n + 1 of noRepeatNgram. */
  candidates: z.number().int().positive(),
  /**
   * How many token ids the draft graph's head scores (FastMTP's compressed draft vocabulary: a fixed sorted id list in
   * the graph, `draft_vocabulary`, whose TopK indices it maps back to real ids). Absent: the full vocabulary. The
   * runtime needs nothing else: candidate ids stay real ids, and the decoder's verification keeps the text greedy's.
   */
  draftVocabulary: z.number().int().positive().optional(),
  maxNewTokens: z.number().int().positive(),
  /** Longest sequence (prompt + output) the decoder supports; decoding stops there as at max tokens. */
  maxPositions: z.number().int().positive(),
});
export type PackManifest = z.infer<typeof packManifestSchema>;

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function sha256Bytes(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
