/**
 * The contract client, the connection state and (in Electron) the preload bridge, handed to every component.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { EventName, EventPayload } from '../../../app/contract/events.js';
import type { ConnectionState } from '../transport/connectionState.js';
import type { Connection } from '../transport/connect.js';

const ContractContext = createContext<Connection | null>(null);

export function ContractProvider({ connection, children }: { connection: Connection; children: ReactNode }) {
  return <ContractContext.Provider value={connection}>{children}</ContractContext.Provider>;
}

export function useConnection(): Connection {
  const connection = useContext(ContractContext);
  if (!connection) throw new Error('useConnection outside ContractProvider');
  return connection;
}

export function useClient() {
  return useConnection().client;
}

/** Subscribes to one contract event for the component's life; the latest listener is always called. */
export function useContractEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): void {
  const { client } = useConnection();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => client.on(event, (payload) => latest.current(payload)), [client, event]);
}

export function useConnectionState(): ConnectionState {
  const { connection } = useConnection();
  const [state, setState] = useState(connection.state);
  useEffect(() => {
    setState(connection.state);
    return connection.onChange(setState);
  }, [connection]);
  return state;
}

/** Calls `listener` each time the event channel comes back after a drop (events may have been missed). */
export function useOnReconnect(listener: () => void): void {
  const { connection } = useConnection();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    let previous = connection.state;
    return connection.onChange((state) => {
      if (state === 'open' && previous === 'reconnecting') latest.current();
      previous = state;
    });
  }, [connection]);
}
