import { useCallback } from 'react';
import type { SupplierSummaryWire } from '../../../app/contract/suppliers.js';
import { useClient } from './contractContext.js';
import { useContractQuery } from './useContractQuery.js';

const noSuppliers: SupplierSummaryWire[] = [];

/** The open project's supplier memory: its suppliers, and rename / merge / forget and its undo (each reloads the list). */
export function useSuppliers() {
  const client = useClient();
  // A correction teaches memory: the list follows the review screen's saves.
  const {
    data: suppliers,
    error,
    reload,
    setError,
  } = useContractQuery((contract) => contract.call('suppliers.list', {}), { refetchOn: ['page.updated'], initial: noSuppliers });

  const act = useCallback(
    async <T>(run: () => Promise<T>): Promise<T | null> => {
      let result: T | null = null;
      try {
        result = await run();
      } catch (e) {
        setError((e as Error).message);
      }
      await reload();
      return result;
    },
    [reload],
  );

  return {
    suppliers,
    error,
    rename: (id: string, name: string) => act(() => client.call('suppliers.rename', { id, name })),
    merge: (into: string, from: string) => act(() => client.call('suppliers.merge', { into, from })),
    /** Resolves to the token that undoes it (null where it failed: the error is shown). */
    forget: async (id: string) => (await act(() => client.call('suppliers.forget', { id })))?.undo ?? null,
    undoForget: (undo: string) => act(() => client.call('suppliers.undoForget', { undo })),
    confirmIban: (id: string, value: string) => act(() => client.call('suppliers.confirmAccount', { id, kind: 'iban', value })),
  };
}
