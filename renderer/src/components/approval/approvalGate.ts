/**
 * The one way the renderer approves: `approve()` asks main to approve; when the page or document has exceptions (a
 * failed rule, a missing required field, a disagreement with the XML, a duplicate) main answers `needs-reason` and
 * the approval prompt (ApprovalPrompt.tsx) opens with them listed; the reviewer types why and confirms with Enter,
 * or cancels with Escape. Nothing is approved silently. One prompt at a time, shared by every caller (Ctrl+Enter,
 * the palette, the fields panel's "Approve and next"). In team mode main may refuse the approval (`forbidden`: the
 * account's role, or four eyes); the refusal's words, which name the rule, are shown (ApprovalRefusal.tsx).
 */
import { useSyncExternalStore } from 'react';
import type { ApprovalException } from '../../../../app/contract/approval.js';
import { ContractError } from '../../../../app/contract/client.js';
import type { useClient } from '../../state/contractContext.js';

type Client = ReturnType<typeof useClient>;
/** `unit`: the invoice as a whole from any of its pages, the page for a document that is not an invoice (resolved by main). */
export type ApprovalScope = 'page' | 'document' | 'unit';
export type ApprovalResult = 'approved' | 'approved-with-exceptions' | 'cancelled' | 'failed';

export interface PendingApproval {
  scope: 'page' | 'document';
  /** The pages the approval covers (every page of an invoice approved as a whole). */
  pageNumbers: number[];
  exceptions: ApprovalException[];
  confirm(reason: string): void;
  cancel(): void;
}

let pending: PendingApproval | null = null;
const listeners = new Set<() => void>();
const publish = (next: PendingApproval | null) => {
  pending = next;
  for (const listener of listeners) listener();
};

export function usePendingApproval(): PendingApproval | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending,
  );
}

let refusal: string | null = null;
const refusalListeners = new Set<() => void>();
/** Shows (a message) or dismisses (null) the refusal of an approval. */
export function setApprovalRefusal(message: string | null): void {
  refusal = message;
  for (const listener of refusalListeners) listener();
}

/** The refusal shown now; null when none. */
export const approvalRefusal = (): string | null => refusal;

export function useApprovalRefusal(): string | null {
  return useSyncExternalStore(
    (listener) => {
      refusalListeners.add(listener);
      return () => refusalListeners.delete(listener);
    },
    approvalRefusal,
  );
}

/** A refusal by a team rule is shown; any other failure stays the caller's `failed`. */
const refused = (error: unknown): null => {
  if (error instanceof ContractError && error.code === 'forbidden') setApprovalRefusal(error.message);
  return null;
};

export async function approve(client: Client, pageId: string, scope: ApprovalScope): Promise<ApprovalResult> {
  return (await approveResolved(client, pageId, scope)).result;
}

/** Approves, and says what the approval covered (`unit` resolved by main: the document, or the page alone). */
export async function approveResolved(client: Client, pageId: string, scope: ApprovalScope): Promise<{ result: ApprovalResult; covered: 'page' | 'document' | null }> {
  const first = await client.call('approval.approve', { pageId, scope }).catch(refused);
  if (!first) return { result: 'failed', covered: null };
  const covered = first.scope;
  if (first.outcome !== 'needs-reason') return { result: first.outcome, covered };
  const reason = await new Promise<string | null>((resolve) => {
    publish({
      scope: first.scope,
      pageNumbers: first.pageNumbers,
      exceptions: first.exceptions,
      confirm: (text) => {
        publish(null);
        resolve(text);
      },
      cancel: () => {
        publish(null);
        resolve(null);
      },
    });
  });
  if (reason === null) return { result: 'cancelled', covered: null };
  const second = await client.call('approval.approve', { pageId, scope: first.scope, reason }).catch(refused);
  return second && second.outcome !== 'needs-reason' ? { result: second.outcome, covered } : { result: 'failed', covered: null };
}
