/** The pack's tokenizer.json through @huggingface/tokenizers (pure JS; no Python, no remote code). */
import { Tokenizer } from '@huggingface/tokenizers';

export class PackTokenizer {
  private readonly tokenizer: Tokenizer;

  constructor(json: object, path: string) {
    try {
      this.tokenizer = new Tokenizer(json as ConstructorParameters<typeof Tokenizer>[0], {});
    } catch (error) {
      throw new Error(`${path}: not a usable tokenizer.json (${(error as Error).message})`);
    }
  }

  /** Token ids of `text`, without added BOS/EOS. */
  encode(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  /** Text of `ids`, grounding tags kept (DeepSeek-OCR decodes with skip_special_tokens=False). */
  decode(ids: readonly number[]): string {
    return this.tokenizer.decode([...ids], { skip_special_tokens: false });
  }
}

/**
 * Turns committed tokens into text pieces as they arrive. Byte-level vocabularies can split a character over several
 * tokens; a piece that ends in U+FFFD waits for the next token (as transformers' TextStreamer).
 */
export class TextStreamer {
  private pending: number[] = [];

  constructor(
    private readonly tokenizer: PackTokenizer,
    private readonly emit: (text: string) => void,
  ) {}

  push(token: number): void {
    this.pending.push(token);
    const text = this.tokenizer.decode(this.pending);
    if (text.endsWith('\uFFFD') && this.pending.length < 8) return;
    this.pending = [];
    if (text) this.emit(text);
  }

  flush(): void {
    if (this.pending.length > 0) this.emit(this.tokenizer.decode(this.pending));
    this.pending = [];
  }
}
