import { useCallback, useEffect, useState } from 'react';
import type { SupplierSummaryWire } from '../../../app/contract/suppliers.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';

/** The open project's supplier memory: its suppliers, and rename / merge / forget (each reloads the list). */
export function useSuppliers() {
  const client = useClient();
  const [suppliers, setSuppliers] = useState<SupplierSummaryWire[]>([]);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setSuppliers(await client.call('suppliers.list', {}));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);
  useOnReconnect(() => void reload());
  // A correction teaches memory: the list follows the review screen's saves.
  useContractEvent('page.updated', () => void reload());

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
  };
}
