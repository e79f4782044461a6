/** A team rule's refusal of an approval is shown with the server's words; other failures are not (issue 40). */
import { afterEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../app/contract/client.js';
import { approvalRefusal, approve, setApprovalRefusal } from './approvalGate.js';

type Client = Parameters<typeof approve>[0];
const failing = (error: Error) => ({ call: () => Promise.reject(error) }) as unknown as Client;

afterEach(() => setApprovalRefusal(null));

describe('approve', () => {
  it('shows a forbidden refusal, naming the rule, and reports the approval failed', async () => {
    const message = 'four-eyes: Ann changed Total last on this invoice; another approver must approve it';
    await expect(approve(failing(new ContractError('forbidden', message)), 'p1', 'unit')).resolves.toBe('failed');
    expect(approvalRefusal()).toBe(message);
  });

  it('shows nothing for a failure that is not a refusal', async () => {
    await expect(approve(failing(new ContractError('internal', 'Internal error')), 'p1', 'unit')).resolves.toBe('failed');
    expect(approvalRefusal()).toBeNull();
  });
});
