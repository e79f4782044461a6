import { useCallback } from 'react';
import type { SupplierSummaryWire } from '../../../app/contract/suppliers.js';
import { useClient } from './contractContext.js';
import { useContractQuery } from './useContractQuery.js';

const noSuppliers: SupplierSummaryWire[] = [];

/** The open project's supplier memory: its suppliers, and rename / merge / forget (each reloads the list). */
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
    async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (e) {
        setError((e as Error).message);
      }
      await reload();
    },
    [reload],
  );

  return {
    suppliers,
    error,
    rename: (id: string, name: string) => act(() => client.call('suppliers.rename', { id, name })),
    merge: (into: string, from: string) => act(() => client.call('suppliers.merge', { into, from })),
    forget: (id: string) => act(() => client.call('suppliers.forget', { id })),
    confirmIban: (id: string, value: string) => act(() => client.call('suppliers.confirmAccount', { id, kind: 'iban', value })),
  };
}
