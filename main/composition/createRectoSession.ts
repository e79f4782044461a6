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
import { createEngineRegistry, type EngineOptions } from './engines.js';
import { packageRoot } from '../util/packageRoot.js';

export interface CreateSessionOptions extends EngineOptions {
  paths?: AppPaths;
}

/** Import with errors that name the file as the user knows it (uploads are staged under a neutral name). */
export const inspectFile: InspectFile = async (filePath, outDir, displayName) => {
  try {
    return await importDocument(filePath, outDir);
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
  return new RectoSession({
    engines: createEngineRegistry(options),
    settings: new SettingsFile(path.join(paths.dataDir, 'settings.json')),
    images: new PageImageCache(paths.cacheDir, inspectFile),
    dataDir: paths.dataDir,
    samplesDir: path.join(packageRoot(), 'resources', 'samples'),
  });
}
