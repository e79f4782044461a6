/**
 * A session on the echo engine (testing/fakes.ts) with its data, settings and page-image cache under `dir`: the
 * set-up of the tests that drive the services or the browser shell without a real engine.
 */
import path from 'node:path';
import { EngineRegistry } from '../main/engines/engineRegistry.js';
import type { InspectFile } from '../main/services/documentImporter.js';
import { PageImageCache } from '../main/services/pageImageCache.js';
import { RectoSession } from '../main/services/rectoSession.js';
import { SettingsFile } from '../main/settings/settingsFile.js';
import { EchoEngine, echoEngineFactory, fakeInspect } from './fakes.js';

export interface EchoSessionOptions {
  /** The reviewer name the settings hold. */
  author: string;
  /** How imported files are inspected; the fake by default (a file `PAGES n` has n pages). */
  inspect?: InspectFile;
  /** The page-image cache's folder name under `dir` ('cache' by default), for a second session on the same dir. */
  cacheName?: string;
}

export function echoSession(dir: string, { author, inspect = fakeInspect, cacheName = 'cache' }: EchoSessionOptions): RectoSession {
  const session = new RectoSession({
    engines: new EngineRegistry(new Map([['echo', echoEngineFactory(new EchoEngine())]])),
    settings: new SettingsFile(path.join(dir, 'data', 'settings.json'), () => undefined),
    images: new PageImageCache(path.join(dir, cacheName), inspect),
    dataDir: path.join(dir, 'data'),
    samplesDir: path.join(dir, 'samples'),
  });
  session.settings.update({ engine: 'echo', authorName: author });
  return session;
}
