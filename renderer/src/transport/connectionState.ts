/** Whether the event channel to the main side is up; shown in the status bar. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

export interface ConnectionStateSource {
  readonly state: ConnectionState;
  /** Called on every change; also after a reconnect, when the renderer should refetch what it shows. */
  onChange(listener: (state: ConnectionState) => void): () => void;
}

/** For shells whose channel cannot drop (Electron IPC). */
export const alwaysOpen: ConnectionStateSource = {
  state: 'open',
  onChange: () => () => {},
};
