/**
 * The remote engine configured in settings.json (as the desktop app and `recto serve` use it): offered in the engine
 * list, reading through its endpoint, with the API key from the keychain — stored there from RECTO_API_KEY once —
 * and never written to the settings file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeChatServer, type FakeChatServer } from '../../testing/fakeChatServer.js';
import { REMOTE_API_KEY_SECRET, type SecretStore } from '../settings/secretStore.js';
import { createRectoSession } from './createRectoSession.js';

let home: string;
let fake: FakeChatServer | null = null;
const savedKey = process.env.RECTO_API_KEY;

afterEach(async () => {
  await fake?.close();
  fake = null;
  if (savedKey === undefined) delete process.env.RECTO_API_KEY;
  else process.env.RECTO_API_KEY = savedKey;
  fs.rmSync(home, { recursive: true, force: true });
});

describe('remote engine from settings.json', () => {
  it('is offered, reads through its endpoint, and keeps the key in the keychain, not in settings', async () => {
    fake = await startFakeChatServer({ model: 'served-ocr' });
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-remote-settings-'));
    const paths = { dataDir: path.join(home, 'data'), cacheDir: path.join(home, 'cache') };
    fs.mkdirSync(paths.dataDir, { recursive: true });
    const settingsFile = path.join(paths.dataDir, 'settings.json');
    fs.writeFileSync(settingsFile, JSON.stringify({ authorName: 'a', engine: 'bundled', recentProjects: [], remote: { endpoints: [fake.url], concurrency: 3 } }));
    const keychain = new Map<string, string>();
    const secrets: SecretStore = { get: (name) => keychain.get(name) ?? null, set: (name, value) => void keychain.set(name, value) };
    process.env.RECTO_API_KEY = 'sk-from-env';

    const session = createRectoSession({ paths, secrets: () => secrets });
    try {
      const remote = session.engines.list().find((engine) => engine.id === 'remote');
      expect(remote).toMatchObject({ available: true });
      expect(keychain.get(REMOTE_API_KEY_SECRET)).toBe('sk-from-env');
      const engine = await session.engines.get('remote');
      expect(engine.parallelism).toBe(3);
      const image = path.join(home, 'page.png');
      fs.writeFileSync(image, 'png bytes');
      const read = await engine.read({ imagePath: image, width: 100, height: 100, dpi: 72, textLayer: null, label: 'p1' });
      expect(read.engine.settings.model).toBe('served-ocr');
      session.settings.update({ authorName: 'b' });
      const written = fs.readFileSync(settingsFile, 'utf8');
      expect(JSON.parse(written).remote).toEqual({ endpoints: [fake.url], concurrency: 3 });
      expect(written).not.toContain('sk-from-env');
    } finally {
      await session.dispose();
    }
  });
});
