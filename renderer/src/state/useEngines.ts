import { useCallback, useEffect, useState } from 'react';
import type { EngineChoice } from '../../../app/contract/methods.js';
import { useClient, useOnReconnect } from './contractContext.js';

/** The engines the main side offers and the one new imports use (a setting). */
export function useEngines() {
  const client = useClient();
  const [engines, setEngines] = useState<EngineChoice[]>([]);
  const [selected, setSelected] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [list, settings] = await Promise.all([client.call('engines.list', {}), client.call('settings.get', {})]);
      setEngines(list);
      setSelected(settings.engine);
    } catch {
      // The menu stays empty; the rest of the screen reports connection problems.
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);
  useOnReconnect(() => void reload());

  const choose = useCallback(
    async (engine: string) => {
      const settings = await client.call('settings.set', { engine });
      setSelected(settings.engine);
    },
    [client],
  );

  return { engines, selected, choose };
}
