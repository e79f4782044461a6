/**
 * The user's settings, one JSON file in the data folder. A damaged file is reported and replaced by defaults in
 * memory, never silently overwritten until the user changes a setting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settingsSchema, type Settings } from '../../app/contract/methods.js';

export function defaultSettings(): Settings {
  let user = 'analyst';
  try {
    user = os.userInfo().username || user;
  } catch {
    // No user database entry (some containers): keep the neutral default.
  }
  return { authorName: user, engine: 'bundled' };
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
    const next = settingsSchema.parse({ ...this.current, ...patch });
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(next, null, 2));
    fs.renameSync(temp, this.file);
    this.current = next;
    return this.get();
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
