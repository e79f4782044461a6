/**
 * One answer of the main side that a screen shows, kept fresh: asked for when the screen mounts, asked again after a
 * reconnect (events may have been missed while the channel was down) and on the contract events that may change it.
 * A failure is kept as a message until the next answer; the last answer stays on screen meanwhile.
 */
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { ContractClient } from '../../../app/contract/client.js';
import type { EventName } from '../../../app/contract/events.js';
import { useClient, useOnReconnect } from './contractContext.js';
import { useTrailingThrottle } from './useThrottledCallback.js';
import { keepIfSame } from '../logic/sameAnswer.js';

export interface ContractQueryOptions<T> {
  /** Events after which the answer may be stale: each asks again. */
  refetchOn?: readonly EventName[];
  /** Events (and a reconnect) ask again at most once per this many ms, after a burst; immediately when absent. */
  throttleMs?: number;
  /** The first answer is asked for while this holds (and again each time it turns true); events ask regardless. */
  enabled?: boolean;
  /** Shown before the first answer. */
  initial?: T;
  /** Also told of each failure (a screen with one error line for several sources, which an answer must not clear). */
  onError?(message: string): void;
}

export interface ContractQuery<T> {
  data: T;
  /** The last failure's message, null once an answer came after it. */
  error: string | null;
  reload(): Promise<void>;
  /** Shows what an action replied, which says the same as the next answer would. */
  setData: Dispatch<SetStateAction<T>>;
  /** Shows another failure of the same screen in the same place (cleared by the next answer likewise). */
  setError(message: string | null): void;
}

export function useContractQuery<T>(ask: (client: ContractClient) => Promise<T>, options: ContractQueryOptions<T> & { initial: T }): ContractQuery<T>;
export function useContractQuery<T>(ask: (client: ContractClient) => Promise<T>, options?: ContractQueryOptions<T>): ContractQuery<T | null>;
export function useContractQuery<T>(ask: (client: ContractClient) => Promise<T>, options: ContractQueryOptions<T> = {}): ContractQuery<T | null> {
  const { refetchOn = [], throttleMs, enabled = true } = options;
  const client = useClient();
  const [data, setData] = useState<T | null>(options.initial ?? null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef({ ask, onError: options.onError });
  latest.current = { ask, onError: options.onError };

  const reload = useCallback(async () => {
    try {
      const answer = await latest.current.ask(client);
      // An answer that says what is shown keeps the object shown: nothing under it renders again.
      setData((previous) => keepIfSame(previous, answer));
      setError(null);
    } catch (caught) {
      const message = caught instanceof Error ? caught.message : String(caught);
      setError(message);
      latest.current.onError?.(message);
    }
  }, [client]);

  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);

  const reloadSoon = useTrailingThrottle(() => void reload(), throttleMs ?? 0);
  const again = useRef(() => undefined as void);
  again.current = throttleMs === undefined ? () => void reload() : reloadSoon;
  const events = refetchOn.join(' ');
  useEffect(() => {
    const unsubscribe = (events ? (events.split(' ') as EventName[]) : []).map((event) => client.on(event, () => again.current()));
    return () => unsubscribe.forEach((off) => off());
  }, [client, events]);
  useOnReconnect(() => again.current());

  return { data, error, reload, setData: setData as Dispatch<SetStateAction<T | null>>, setError };
}
