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
  it('picks with Alt+Shift and a digit by the key\'s position, or the digit alone outside the reason\'s text box; never Alt+digit (the browser\'s tabs)', () => {
    const reasons = quickReasons([{ kind: 'failed-rule' }]);
    const key = (code: string, mods: Partial<{ altKey: boolean; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({ altKey: false, shiftKey: false, ctrlKey: false, metaKey: false, code, ...mods });
    expect(quickReasonForKey(reasons, key('Digit2', { altKey: true, shiftKey: true }), true)).toBe('Checked against the document');
    expect(quickReasonForKey(reasons, key('Digit1', { altKey: true }), false)).toBeNull();
    expect(quickReasonForKey(reasons, key('Digit1', { altKey: true }), true)).toBeNull();
    expect(quickReasonForKey(reasons, key('Digit1'), true)).toBeNull();
    expect(quickReasonForKey(reasons, key('Digit1'), false)).toBe(reasons[0]);
    expect(quickReasonForKey(reasons, key('Digit1', { shiftKey: true }), false)).toBeNull();
    expect(quickReasonForKey(reasons, key('Digit3', { altKey: true, shiftKey: true }), true)).toBeNull();
    expect(quickReasonForKey(reasons, key('Digit1', { altKey: true, shiftKey: true, ctrlKey: true }), true)).toBeNull();
  });
});
