/**
 * The composition root: the one place that picks the concrete importer, engines and paths, so that everything
 * else receives them and can be tested with others.
 */
import path from 'node:path';
import { importDocument, ImportError } from '../import/index.js';
import type { InspectFile } from '../services/documentImporter.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { FileRejectedError, RectoSession } from '../services/rectoSession.js';
import { defaultAppPaths, type AppPaths } from '../settings/appPaths.js';
import { SettingsFile } from '../settings/settingsFile.js';
import type { RemoteSettings } from '../../app/contract/methods.js';
import type { RemoteEngineOptions } from '../../native-models/remote/index.js';
import { REMOTE_API_KEY_SECRET, type SecretStore } from '../settings/secretStore.js';
import { createEngineRegistry, type EngineOptions } from './engines.js';
import { packageRoot } from '../util/packageRoot.js';

export interface CreateSessionOptions extends EngineOptions {
  paths?: AppPaths;
  /** The OS keychain (desktop app); without one the remote engine's key comes from RECTO_API_KEY. */
  secrets?: (dataDir: string) => SecretStore;
}

/** Import with errors that name the file as the user knows it (uploads are staged under a neutral name). */
export const inspectFile: InspectFile = async (filePath, outDir, displayName, options) => {
  try {
    return await importDocument(filePath, outDir, { maxPages: options?.maxPages, pages: options?.pages });
  } catch (error) {
    if (error instanceof ImportError) {
      const name = displayName ?? path.basename(filePath);
      throw new FileRejectedError(`${name}: ${error.detail}`);
    }
    throw error;
  }
};

export function createRectoSession(options: CreateSessionOptions = {}): RectoSession {
  const paths = options.paths ?? defaultAppPaths();
  const settings = new SettingsFile(path.join(paths.dataDir, 'settings.json'));
  const remote = options.remote ?? remoteFromSettings(settings.get().remote, options.secrets?.(paths.dataDir));
  return new RectoSession({
    engines: createEngineRegistry({ ...options, remote }),
    settings,
    images: new PageImageCache(paths.cacheDir, inspectFile, () => settings.get().maxPagesPerDocument),
    dataDir: paths.dataDir,
    samplesDir: path.join(packageRoot(), 'resources', 'samples'),
  });
}

/**
 * The remote engine from settings.json's `remote` block. The key: the keychain's, else RECTO_API_KEY — which, given
 * where a keychain exists, is stored there, so later launches need no environment variable.
 */
function remoteFromSettings(remote: RemoteSettings | undefined, secrets: SecretStore | undefined): RemoteEngineOptions | undefined {
  if (!remote) return undefined;
  const fromEnv = process.env.RECTO_API_KEY;
  if (secrets && fromEnv && secrets.get(REMOTE_API_KEY_SECRET) !== fromEnv) secrets.set(REMOTE_API_KEY_SECRET, fromEnv);
  return {
    endpoints: remote.endpoints,
    model: remote.model,
    concurrency: remote.concurrency,
    timeoutMs: remote.timeoutSeconds === undefined ? undefined : remote.timeoutSeconds * 1000,
    apiKey: () => secrets?.get(REMOTE_API_KEY_SECRET) ?? fromEnv,
  };
}
