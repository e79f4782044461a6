/**
 * Text that goes into a training file must not contain the markers the trainer or the model give a meaning:
 * `<image>` (ms-swift and LLaMA-Factory count one per image: `<image>` typed into a correction gave one image two
 * tags), `<video>`/`<audio>`, and the model's special tokens (`<|ref|>`, `<|det|>`, `<|grounding|>`,
 * `<｜end▁of▁sentence｜>`, chat markers such as `<|im_start|>`). Escaped as Markdown writes a literal `<`: `&lt;image&gt;`
 * renders as the text `<image>`, which is what the page printed, and is tokenized as plain text.
 *
 * The exporter's own markers (the `<image>` it puts before the prompt, the grounding tags it writes from boxes) are
 * added after escaping, so they are the only ones left.
 */

/** Every special-token shape: `<|…|>` and `<｜…｜>` (DeepSeek's full-width bars), and the media placeholders. */
const SPECIAL = /<(\|[^|<>\n]{0,64}\||｜[^｜<>\n]{0,64}｜|image|video|audio)>/gi;
/** Media placeholders only: what a prompt may not hold (its own `<|grounding|>` is an instruction to the model). */
const PLACEHOLDER = /<(image|video|audio)>/gi;

/** `text` with every special token and media placeholder written as Markdown's literal `&lt;…&gt;`. */
export function escapeSpecialTokens(text: string): string {
  return text.replace(SPECIAL, '&lt;$1&gt;');
}

/** `prompt` with media placeholders escaped; the model's instruction tokens (`<|grounding|>`) kept. */
export function escapePlaceholders(prompt: string): string {
  return prompt.replace(PLACEHOLDER, '&lt;$1&gt;');
}
