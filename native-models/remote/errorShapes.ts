/**
 * The error bodies an OpenAI-compatible server sends, in both shapes vLLM has used (vllm-project/vllm
 * `vllm/entrypoints/openai/serving_engine.py`, `create_error_response` / `create_streaming_error_response`):
 * - nested, as OpenAI does and vLLM does now: `{"error": {"message", "type", "param", "code"}}` — over HTTP and, in
 *   the versions that wrap it, inside a stream;
 * - flat, vLLM's older `ErrorResponse`: `{"object": "error", "message", "type", "param", "code"}` — over HTTP, and
 *   as a streamed event by versions that sent the response object as it was.
 * `code` is vLLM's HTTP status (a number, or a string of one), so a failure inside a stream is judged like the same
 * failure before it: a 400 is final, a 500 or 503 is tried again.
 */
import { z } from 'zod';

const errorFields = z.object({ message: z.string(), type: z.string().optional(), code: z.union([z.string(), z.number()]).nullable().optional() }).passthrough();
const nestedSchema = z.object({ error: errorFields });
const flatSchema = errorFields.extend({ object: z.literal('error') });

export interface ServerError {
  message: string;
  type: string | null;
  /** The HTTP status the body gives (vLLM's `code`), when it gives one. */
  status: number | null;
}

const statusOf = (code: string | number | null | undefined): number | null => {
  const value = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : NaN;
  return Number.isInteger(value) && value >= 400 && value < 600 ? value : null;
};

/** The error a body carries, in either shape, or null when it is not an error body. */
export function serverErrorOf(json: unknown): ServerError | null {
  const nested = nestedSchema.safeParse(json);
  const fields = nested.success ? nested.data.error : flatSchema.safeParse(json).data;
  if (!fields) return null;
  return { message: fields.message, type: fields.type ?? null, status: statusOf(fields.code) };
}
