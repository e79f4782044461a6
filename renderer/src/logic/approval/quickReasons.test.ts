import { describe, expect, it } from 'vitest';
import { quickReasonForKey, quickReasons } from './quickReasons.js';

describe('quick reasons in the approval prompt', () => {
  it('offers one reason per kind of exception listed, then the general one', () => {
    const reasons = quickReasons([{ kind: 'xml-disagreement' }, { kind: 'missing-field' }, { kind: 'xml-disagreement' }]);
    expect(reasons).toHaveLength(3);
    expect(reasons[0]).toMatch(/XML/);
    expect(reasons[1]).toMatch(/missing/);
    expect(reasons[2]).toBe('Checked against the document');
  });
  it('offers none where a new bank account is among the exceptions: its reason is the analyst\'s own', () => {
    expect(quickReasons([{ kind: 'xml-disagreement' }, { kind: 'bank-account' }])).toEqual([]);
  });
  it('picks with Alt and a digit by the key\'s position, not with a digit typed into the reason', () => {
    const reasons = quickReasons([{ kind: 'failed-rule' }]);
    expect(quickReasonForKey(reasons, { altKey: true, ctrlKey: false, metaKey: false, code: 'Digit2' })).toBe('Checked against the document');
    expect(quickReasonForKey(reasons, { altKey: false, ctrlKey: false, metaKey: false, code: 'Digit1' })).toBeNull();
    expect(quickReasonForKey(reasons, { altKey: true, ctrlKey: false, metaKey: false, code: 'Digit3' })).toBeNull();
    expect(quickReasonForKey(reasons, { altKey: true, ctrlKey: true, metaKey: false, code: 'Digit1' })).toBeNull();
  });
});
