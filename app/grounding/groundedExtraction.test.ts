import { describe, expect, it } from 'vitest';
import { groundedExtraction } from './groundedExtraction.js';
import { parseGroundingOutput } from './groundingParser.js';

const engine = { id: 'test', name: 'Test', version: '1', packSha256: null, licence: null, provider: 'cpu', settings: {} };
const text = '<|ref|>title<|/ref|><|det|>[[100, 100, 900, 200]]<|/det|>\n# Invoice 7\n\n<|ref|>text<|/ref|><|det|>[[100, 300, 900, 400]]<|/det|>\nTotal 10.00';

describe('a grounding answer as an Extraction', () => {
  it('is what the grounding parser reads, on the page the boxes are scaled to', () => {
    const page = { width: 1000, height: 2000 };
    const extraction = groundedExtraction({ text, page, engine, startedAt: performance.now(), stats: { tokens: 12 } });
    const parsed = parseGroundingOutput(text, page);
    expect(extraction.markdown).toBe(parsed.markdown);
    expect(extraction.elements).toEqual(parsed.elements);
    expect(extraction.page).toEqual(page);
    expect(extraction.engine).toBe(engine);
    expect(Object.keys(extraction.stats)).toEqual(['durationMs', 'tokens']);
    expect(extraction.stats.durationMs).toBeGreaterThanOrEqual(0);
    expect(extraction.warnings).toEqual([]);
  });

  it("lists the engine's warnings, then the parser's, then why the answer stopped short", () => {
    const extraction = groundedExtraction({
      text: '<|ref|>text<|/ref|><|det|>[[1, 2]]<|/det|>\nbroken box',
      page: { width: 100, height: 100 },
      engine,
      startedAt: performance.now(),
      stats: { hitMaxTokens: true },
      warnings: ['the pack says so'],
      stoppedShort: 'stopped at 10 tokens',
    });
    expect(extraction.warnings).toEqual(['the pack says so', expect.stringMatching(/^grounding element 1 dropped/), 'stopped at 10 tokens']);
  });
});
