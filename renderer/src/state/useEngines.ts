import { useCallback } from 'react';
import type { EngineChoice } from '../../../app/contract/methods.js';
import { useClient } from './contractContext.js';
import { useContractQuery } from './useContractQuery.js';

/** Before the first answer, and after a failure (the rest of the screen reports connection problems). */
const noEngines = { engines: [] as EngineChoice[], selected: null as string | null };

/** The engines the main side offers and the one new imports use (a setting). */
export function useEngines() {
  const client = useClient();
  const { data, setData } = useContractQuery(
    async (contract) => {
      const [list, settings] = await Promise.all([contract.call('engines.list', {}), contract.call('settings.get', {})]);
      return { engines: list, selected: settings.engine };
    },
    { initial: noEngines },
  );
  const { engines, selected } = data;

  const choose = useCallback(
    async (engine: string) => {
      const settings = await client.call('settings.set', { engine });
      setData((current) => ({ ...current, selected: settings.engine }));
    },
    [client, setData],
  );

  return { engines, selected, choose };
}
