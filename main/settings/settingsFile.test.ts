import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatch } from '../services/dispatch.js';
import { createHandlers } from '../services/handlers.js';
import type { RectoSession } from '../services/rectoSession.js';
import { SettingsFile } from './settingsFile.js';

const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'recto-settings-')), 'settings.json');

describe('SettingsFile', () => {
  it('keeps what a partial update does not name', async () => {
    const settings = new SettingsFile(tempFile());
    settings.rememberProject('/p/a.recto');
    settings.rememberProject('/p/b.recto');
    settings.rememberProject('/p/a.recto');
    const dispatch = createDispatch(createHandlers({ settings } as unknown as RectoSession, { shell: 'browser', pageImageUrl: () => '' }));
    expect(await dispatch('settings.set', { authorName: 'Mira' })).toMatchObject({
      ok: true,
      result: { authorName: 'Mira', recentProjects: ['/p/a.recto', '/p/b.recto'] },
    });
  });

  it('survives a damaged file, warning once, and uses defaults', () => {
    const file = tempFile();
    fs.writeFileSync(file, '{ not json');
    const warnings: string[] = [];
    const settings = new SettingsFile(file, (message) => warnings.push(message));
    expect(settings.get().engine).toBe('bundled');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ not json');
  });
});
