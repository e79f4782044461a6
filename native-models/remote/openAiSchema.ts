/**
 * The part of the OpenAI chat-completions API that a page read needs, as zod schemas: what the remote engine sends
 * (and the tests check, so that vLLM accepts it), and what `recto serve --pack` validates on every request before any
 * work starts. Unknown fields pass through, as in vLLM, which takes its own extensions (`skip_special_tokens`) in the
 * same body.
 */
import { z } from 'zod';

export const textPartSchema = z.object({ type: z.literal('text'), text: z.string() });
export const imageUrlPartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({
    /** `data:image/png;base64,…` (or an http(s) URL, which this server does not fetch). */
    url: z.string().min(1),
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
});
export const contentPartSchema = z.discriminatedUnion('type', [textPartSchema, imageUrlPartSchema]);
export type ContentPart = z.infer<typeof contentPartSchema>;

export const chatMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.union([z.string(), z.array(contentPartSchema).min(1)]),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatCompletionRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(chatMessageSchema).min(1),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
    max_tokens: z.number().int().positive().optional(),
    max_completion_tokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    // OpenAI's range (an integer ≥ 1): a value the server cannot honour (n > 1 with greedy decoding) is a valid request
    // that `/v1` answers `unsupported_parameter` (main/shells/browser/v1Parameters.ts), not a malformed one.
    n: z.number().int().min(1).optional(),
  })
  .passthrough();
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export const usageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof usageSchema>;

const finishReason = z.enum(['stop', 'length', 'content_filter', 'tool_calls', 'abort']).nullable();

/** A non-streamed answer. */
export const chatCompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number(),
    model: z.string(),
    choices: z
      .array(
        z.object({
          index: z.number().int(),
          message: z.object({ role: z.literal('assistant'), content: z.string().nullable() }).passthrough(),
          finish_reason: finishReason,
        }).passthrough(),
      )
      .min(1),
    usage: usageSchema.optional().nullable(),
  })
  .passthrough();
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** One `data:` event of a streamed answer. The last may carry usage and no choices. */
export const chatCompletionChunkSchema = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        delta: z.object({ role: z.literal('assistant').optional(), content: z.string().nullable().optional() }).passthrough(),
        finish_reason: finishReason.optional(),
      }).passthrough(),
    ),
    usage: usageSchema.optional().nullable(),
  })
  .passthrough();
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

export const modelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ id: z.string(), object: z.literal('model'), created: z.number(), owned_by: z.string() }).passthrough()),
});

/** The error body OpenAI and vLLM send with a 4xx/5xx. */
export const errorBodySchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), code: z.union([z.string(), z.number()]).nullable().optional() }).passthrough(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
