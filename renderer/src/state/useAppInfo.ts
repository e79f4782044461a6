import type { ReplyOf } from '../../../app/contract/methods.js';
import { useContractQuery } from './useContractQuery.js';

export type AppInfo = ReplyOf<'app.info'>;

/** `app.info`, refetched when another project is opened (from a menu, another window, the CLI). */
export function useAppInfo() {
  const { data: info, error, reload } = useContractQuery((client) => client.call('app.info', {}), { refetchOn: ['project.changed'] });
  return { info, error, reload };
}
