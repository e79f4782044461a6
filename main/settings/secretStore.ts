/**
 * Where secrets (the remote engine's API key) are kept: never in settings.json, a project file or an export. The
 * desktop app keeps them in the OS keychain (main/shells/electron/keychainSecrets.ts); elsewhere there is no store and
 * the key comes from the environment (RECTO_API_KEY).
 */
export interface SecretStore {
  get(name: string): string | null;
  set(name: string, value: string): void;
}

/** The name the remote engine's API key is kept under. */
export const REMOTE_API_KEY_SECRET = 'remote-api-key';
