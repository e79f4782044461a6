/**
 * The chat-completions body for one page: the page image as a base64 `image_url` part, then jina-ocr-v1's grounding
 * prompt as a text part, decoded greedily. This is DeepSeek-OCR's prompt `<image>\n<|grounding|>Convert the document
 * to markdown.` in the OpenAI message shape: the server's chat template puts the image placeholder before the text.
 */
import type { ChatCompletionRequest } from './openAiSchema.js';

/** jina-ocr-v1's prompt after the image (the same text as the local engine's pack prompt after `<image>\n`). */
export const GROUNDING_PROMPT = '<|grounding|>Convert the document to markdown.';

/**
 * DeepSeek-OCR's no-repeat n-gram settings (its vLLM recipe): an n-gram of 30 tokens seen in the last 90 may not be
 * completed again, except `<td>` and `</td>` (ids 128821, 128822 in DeepSeek-OCR's tokenizer), which table rows repeat.
 */
export const NO_REPEAT_NGRAM = { ngramSize: 30, windowSize: 90, exemptTokenIds: [128821, 128822] } as const;

export interface PageRequestOptions {
  model: string;
  /** The page image, PNG bytes. */
  png: Buffer;
  prompt?: string;
  stream: boolean;
  /** Left to the server when absent (vLLM: the model's context; Recto's server: the pack's default). */
  maxTokens?: number;
}

export function pageChatRequest(options: PageRequestOptions): ChatCompletionRequest {
  return {
    model: options.model,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${options.png.toString('base64')}` } },
          { type: 'text', text: options.prompt ?? GROUNDING_PROMPT },
        ],
      },
    ],
    stream: options.stream,
    ...(options.stream ? { stream_options: { include_usage: true } } : {}),
    ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
    temperature: 0,
    // vLLM extensions. Keep <|ref|>/<|det|> in the text, or the grounding boxes are stripped as special tokens; and
    // the arguments of DeepSeek-OCR's no-repeat n-gram logits processor (the server loads it with --logits_processors),
    // the same rule the local engine applies, so both stop runaway repetition alike.
    skip_special_tokens: false,
    vllm_xargs: { ngram_size: NO_REPEAT_NGRAM.ngramSize, window_size: NO_REPEAT_NGRAM.windowSize, whitelist_token_ids: [...NO_REPEAT_NGRAM.exemptTokenIds] },
  };
}
