import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../app/contract/client.js';
import { unwrapReply } from './replyEnvelope.js';

describe('unwrapReply', () => {
  it('returns the result of an ok reply', () => {
    expect(unwrapReply('app.info', { ok: true, result: { version: '1' } })).toEqual({ version: '1' });
    expect(unwrapReply('documents.list', { ok: true, result: [] })).toEqual([]);
  });

  it('throws the main side error with its code and message', () => {
    let caught: unknown;
    try {
      unwrapReply('project.open', { ok: false, error: { code: 'bad-input', message: 'x.recto is not a Recto project' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContractError);
    expect((caught as ContractError).code).toBe('bad-input');
    expect((caught as ContractError).message).toBe('x.recto is not a Recto project');
  });

  it('keeps the error detail (a save conflict with its kept text) for the caller to act on', () => {
    const detail = { kind: 'revision', conflict: { id: 'c1' } };
    expect(() => unwrapReply('revisions.save', { ok: false, error: { code: 'conflict', message: 'The page changed', detail } })).toThrow(
      expect.objectContaining({ code: 'conflict', detail }),
    );
  });

  it('turns anything that is not an envelope into a bad-reply error naming the method', () => {
    expect(() => unwrapReply('pages.getReview', '<html>502</html>')).toThrow(/pages\.getReview/);
    expect(() => unwrapReply('pages.getReview', { ok: false })).toThrow(ContractError);
    expect(() => unwrapReply('pages.getReview', null)).toThrow(ContractError);
  });
});
