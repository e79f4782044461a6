/**
 * Where Recto keeps its own files. RECTO_HOME moves everything (tests and CI use a temporary folder).
 */
import os from 'node:os';
import path from 'node:path';

export interface AppPaths {
  /** settings.json, the samples project. */
  dataDir: string;
  /** Rendered page images; safe to delete, re-rendered from the project's source files. */
  cacheDir: string;
}

export function defaultAppPaths(env: NodeJS.ProcessEnv = process.env): AppPaths {
  if (env.RECTO_HOME) {
    return { dataDir: path.join(env.RECTO_HOME, 'data'), cacheDir: path.join(env.RECTO_HOME, 'cache') };
  }
  const home = os.homedir();
  if (process.platform === 'win32') {
    const appData = env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
    const local = env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local');
    return { dataDir: path.join(appData, 'Recto'), cacheDir: path.join(local, 'Recto', 'Cache') };
  }
  if (process.platform === 'darwin') {
    return {
      dataDir: path.join(home, 'Library', 'Application Support', 'Recto'),
      cacheDir: path.join(home, 'Library', 'Caches', 'Recto'),
    };
  }
  return {
    dataDir: path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'recto'),
    cacheDir: path.join(env.XDG_CACHE_HOME ?? path.join(home, '.cache'), 'recto'),
  };
}
