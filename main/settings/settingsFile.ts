/**
 * The user's settings, one JSON file in the data folder. A damaged file is reported and replaced by defaults in
 * memory, never silently overwritten until the user changes a setting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settingsSchema, type Settings } from '../../app/contract/methods.js';
import { DEFAULT_MAX_PAGES } from '../import/importedDocument.js';

export function defaultSettings(): Settings {
  let user = 'analyst';
  try {
    user = os.userInfo().username || user;
  } catch {
    // No user database entry (some containers): keep the neutral default.
  }
  return { authorName: user, engine: 'bundled', recentProjects: [], maxPagesPerDocument: DEFAULT_MAX_PAGES, reviewerConfirmed: false };
}

export class SettingsFile {
  private current: Settings;

  constructor(
    private readonly file: string,
    private readonly warn: (message: string) => void = (m) => console.warn(m),
  ) {
    this.current = this.load();
  }

  get(): Settings {
    return { ...this.current };
  }

  update(patch: Partial<Settings>): Settings {
    // Fields given as undefined change nothing.
    const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const next = settingsSchema.parse({ ...this.current, ...given });
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(next, null, 2));
    fs.renameSync(temp, this.file);
    this.current = next;
    return this.get();
  }

  /** Puts a project first in the recent list. */
  rememberProject(file: string): void {
    const recent = [file, ...this.current.recentProjects.filter((entry) => entry !== file)].slice(0, 10);
    this.update({ recentProjects: recent });
  }

  private load(): Settings {
    if (!fs.existsSync(this.file)) return defaultSettings();
    try {
      return settingsSchema.parse({ ...defaultSettings(), ...JSON.parse(fs.readFileSync(this.file, 'utf8')) });
    } catch (error) {
      this.warn(`${this.file}: settings unreadable (${String(error)}); using defaults`);
      return defaultSettings();
    }
  }
}
