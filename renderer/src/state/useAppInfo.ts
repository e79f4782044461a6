import { useCallback, useEffect, useState } from 'react';
import type { ReplyOf } from '../../../app/contract/methods.js';
import { useClient, useContractEvent, useOnReconnect } from './contractContext.js';

export type AppInfo = ReplyOf<'app.info'>;

/** `app.info`, refetched when another project is opened (from a menu, another window, the CLI). */
export function useAppInfo() {
  const client = useClient();
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setInfo(await client.call('app.info', {}));
      setError(null);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);
  useContractEvent('project.changed', () => void reload());
  useOnReconnect(() => void reload());

  return { info, error, reload };
}
