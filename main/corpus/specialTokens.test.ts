import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CorpusRecord } from './corpusRecord.js';
import { escapePlaceholders, escapeSpecialTokens } from './specialTokens.js';
import { trainingFormatFiles } from './trainingFormats.js';

describe('special tokens in exported text', () => {
  it('are written as Markdown literals', () => {
    expect(escapeSpecialTokens('Logo <image> here <|ref|>x<|/ref|> <｜end▁of▁sentence｜> <|im_start|> <b>bold</b>')).toBe(
      'Logo &lt;image&gt; here &lt;|ref|&gt;x&lt;|/ref|&gt; &lt;｜end▁of▁sentence｜&gt; &lt;|im_start|&gt; <b>bold</b>',
    );
    expect(escapePlaceholders('<|grounding|>Read <image> and <video>.')).toBe('<|grounding|>Read &lt;image&gt; and &lt;video&gt;.');
  });

  it('leave exactly one <image> per chat line, whatever the correction and the recorded prompt hold', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('<image>', '<IMAGE>', '<|ref|>', 'text ', '<', '>', '\n', '<video>'), { maxLength: 20 }), (parts) => {
        const typed = parts.join('');
        const record = {
          id: 'r1',
          image: 'images/r1.png',
          corrected_markdown: typed,
          engine_markdown: 'x',
          corrected: true,
          engine: { settings: { prompt: `<image>\n<|grounding|>${typed}` }, name: 'e', version: '1', pack_sha256: null },
          elements: [],
        } as unknown as CorpusRecord;
        const [chat] = trainingFormatFiles('chat', [record]);
        const line = chat!.content;
        expect(line.match(/<image>/gi)).toHaveLength(1);
        const answer = (JSON.parse(line) as { messages: { content: string }[] }).messages[1]!.content;
        expect(answer).not.toContain('<|ref|>'); // the prompt may keep the model's instruction tokens, the answer none
      }),
      { numRuns: 500, seed: 23 },
    );
  });
});
