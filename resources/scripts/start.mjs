/**
 * `npm start`: installs and builds what is missing, then opens Recto — the desktop window where Electron's binary
 * and a display exist, otherwise the browser shell on 127.0.0.1, whose URL it prints.
 */
import path from 'node:path';
import { electronBinary, electronSqliteBinding, ensureBuild, ensureDependencies, root, run, say } from './bootstrap.mjs';

try {
  ensureDependencies();
  ensureBuild();
} catch (error) {
  say(String(error instanceof Error ? error.message : error));
  process.exit(1);
}

const args = process.argv.slice(2);
const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const electron = electronBinary();
const sqliteBinding = electron && hasDisplay && !args.includes('--browser') ? electronSqliteBinding() : null;
if (electron && sqliteBinding) {
  const env = { ...process.env, RECTO_SQLITE_BINDING: sqliteBinding };
  process.exit(run(electron, [root, ...args], { env }));
}
if (electron && !hasDisplay) say('no display here: starting the browser shell instead of the desktop window.');
if (!electron) say('starting the browser shell (no Electron binary here).');
process.exit(
  run(process.execPath, [path.join(root, 'dist', 'main', 'cli', 'recto.js'), 'serve', ...args.filter((a) => a !== '--browser')]),
);
