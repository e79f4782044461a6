/**
 * Secrets in the OS keychain through Electron's safeStorage (Keychain on macOS, DPAPI on Windows, the Secret Service
 * or KWallet on Linux): each is encrypted by the OS and written as `<name>.bin` (mode 0600) in the data folder's
 * `secrets/`. Where the OS offers no encryption (Linux without a keyring) nothing is stored: the key stays in the
 * environment only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import type { SecretStore } from '../../settings/secretStore.js';

export function keychainSecrets(dataDir: string): SecretStore {
  const dir = path.join(dataDir, 'secrets');
  const file = (name: string) => path.join(dir, `${name.replace(/[^a-z0-9-]/gi, '_')}.bin`);
  return {
    get(name) {
      try {
        return safeStorage.isEncryptionAvailable() ? safeStorage.decryptString(fs.readFileSync(file(name))) : null;
      } catch {
        return null; // absent, or encrypted by another user or machine
      }
    },
    set(name, value) {
      if (!safeStorage.isEncryptionAvailable()) return;
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(file(name), safeStorage.encryptString(value), { mode: 0o600 });
    },
  };
}
