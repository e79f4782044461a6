import { describe, expect, it } from 'vitest';
import { attentionSignals } from './attention.js';

const none = { rules: null, disagreements: [], fieldConfidences: [], wordConfidences: [], repetitionScore: 1, structureScore: 1 };

describe('needs-attention signals', () => {
  it('a clean page has none', () => {
    expect(attentionSignals(none)).toEqual([]);
  });
  it('tells failed rules from missing required fields', () => {
    const signals = attentionSignals({
      ...none,
      rules: [
        { rule: 'BR-CO-10', title: '', status: 'fail', message: 'off by 5.00', fields: [] },
        { rule: 'BR-02', title: '', status: 'fail', message: 'Invoice number (BT-1) is missing.', fields: [] },
        { rule: 'BR-CO-15', title: '', status: 'pass', message: '', fields: [] },
      ],
    });
    expect(signals.map((s) => s.kind)).toEqual(['failed-rule', 'missing-field']);
  });
  it('flags XML disagreements, low-confidence fields and words, repetition and table structure', () => {
    const signals = attentionSignals({
      rules: [],
      disagreements: ['total'],
      fieldConfidences: [{ field: 'total', confidence: 0.4 }, { field: 'tax', confidence: 0.9 }, { field: 'seller', confidence: null }],
      wordConfidences: [0.9, 0.3, 0.95, 0.97, 0.99, 0.92, 0.2, 0.99, 0.9, null],
      repetitionScore: 0.5,
      structureScore: 0.8,
    });
    expect(signals.map((s) => s.kind)).toEqual(['xml-disagreement', 'low-confidence', 'low-confidence', 'repetition', 'table-structure']);
    expect(signals[1]!.detail).toBe('fields total');
    expect(signals[2]!.detail).toContain('22% of words');
  });
  it('says when a reading has text but no element boxes (issue 27: a server answering without grounding)', () => {
    expect(attentionSignals({ ...none, boxless: true }).map((s) => s.kind)).toEqual(['no-boxes']);
    expect(attentionSignals({ ...none, boxless: false })).toEqual([]);
  });
  it('a few doubtful words in many are not a signal', () => {
    const words = Array.from({ length: 100 }, (_, i) => (i < 3 ? 0.3 : 0.95));
    expect(attentionSignals({ ...none, wordConfidences: words })).toEqual([]);
  });
});
