/**
 * Set-up that the two README commands share: install dependencies when they are missing or stale, try the optional
 * downloads (Electron's binary, onnxruntime's GPU provider) with one clear line when they fail, and build.
 * Plain Node with no dependencies, because it runs before `npm ci` has.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const installStamp = path.join(root, 'node_modules', '.recto-install-stamp');
const buildStamp = path.join(root, 'dist', '.recto-build-stamp');

/** Installs never fetch Electron or CUDA from github.com: those are tried separately, below. */
const installEnv = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ONNXRUNTIME_NODE_INSTALL: 'skip' };

export function say(message) {
  process.stderr.write(`recto: ${message}\n`);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function fileHash(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** `npm ci` when node_modules is missing or was installed from another lockfile. */
export function ensureDependencies() {
  const lockHash = fileHash(path.join(root, 'package-lock.json'));
  if (fs.existsSync(installStamp) && fs.readFileSync(installStamp, 'utf8').trim() === lockHash) return;
  say('installing dependencies (npm ci; native modules compile, this takes a few minutes the first time)…');
  const status = run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { env: installEnv });
  if (status !== 0) throw new Error(`npm ci failed (exit ${status})`);
  fs.writeFileSync(installStamp, lockHash);
  tryElectronBinary();
  tryGpuProvider();
}

/** Electron's install script downloads its binary from github.com; where that is unreachable we go on without it. */
export function tryElectronBinary() {
  if (electronBinary()) return;
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
  });
  if (result.status === 0 && electronBinary()) say('Electron binary downloaded.');
  else say('Electron binary could not be downloaded here (no route to its host); the browser shell is used instead.');
}

/**
 * onnxruntime-node's CUDA provider comes from NuGet (Linux x64 only; Windows has DirectML bundled, macOS CoreML);
 * where NuGet is unreachable the bundled CPU (and WebGPU) providers run. The install script exits 0 even when its
 * download fails, so success is judged by the provider library being there afterwards.
 */
export function tryGpuProvider() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return;
  const ort = path.join(root, 'node_modules', 'onnxruntime-node');
  const provider = path.join(ort, 'bin', 'napi-v6', 'linux', 'x64', 'libonnxruntime_providers_cuda.so');
  if (fs.existsSync(provider)) return;
  spawnSync(process.execPath, [path.join(ort, 'script', 'install.js')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'cuda12' },
  });
  if (fs.existsSync(provider)) say('onnxruntime CUDA provider installed.');
  else say('onnxruntime CUDA provider could not be downloaded here; inference uses the bundled CPU/WebGPU providers.');
}

/** Path of the Electron executable, or null when the package was installed without its binary. */
export function electronBinary() {
  const pathFile = path.join(root, 'node_modules', 'electron', 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(root, 'node_modules', 'electron', 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

const sourceRoots = ['app', 'main', 'native-models', 'renderer', 'resources/scripts'];
const sourceFiles = ['package-lock.json', 'tsconfig.base.json', 'tsconfig.node.json', 'tsconfig.renderer.json', 'vite.config.ts'];

/** A fingerprint of everything the build reads: names, sizes and modification times. */
function sourceFingerprint() {
  const hash = createHash('sha256');
  const visit = (relative) => {
    const full = path.join(root, relative);
    if (!fs.existsSync(full)) return;
    const stat = fs.statSync(full);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) visit(path.join(relative, name));
    } else {
      hash.update(`${relative}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  for (const entry of [...sourceRoots, ...sourceFiles]) visit(entry);
  return hash.digest('hex');
}

/** Compiles the Node side with tsc and bundles the renderer with Vite, unless the sources have not changed. */
export function ensureBuild() {
  const fingerprint = sourceFingerprint();
  if (fs.existsSync(buildStamp) && fs.readFileSync(buildStamp, 'utf8') === fingerprint) return;
  say('building…');
  const status = run('npm', ['run', '--silent', 'build']);
  if (status !== 0) throw new Error(`the build failed (exit ${status})`);
  fs.writeFileSync(buildStamp, fingerprint);
}

/**
 * better-sqlite3 is a V8 addon: Electron needs its own build of it. It is built into a separate folder so that the
 * copy Node uses (CLI, browser shell, tests) keeps working; the Electron shell is pointed at it through
 * RECTO_SQLITE_BINDING. Returns the binding's path, or null (with one line saying why) when it cannot be built.
 */
export function electronSqliteBinding() {
  const electronVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const folder = path.join(root, 'node_modules', '.electron-abi', `better-sqlite3-${electronVersion}`);
  const binding = path.join(folder, 'build', 'Release', 'better_sqlite3.node');
  if (fs.existsSync(binding)) return binding;
  say(`building better-sqlite3 for Electron ${electronVersion}…`);
  fs.rmSync(folder, { recursive: true, force: true });
  fs.cpSync(path.join(root, 'node_modules', 'better-sqlite3'), folder, { recursive: true });
  fs.rmSync(path.join(folder, 'build'), { recursive: true, force: true });
  const gyp = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'node-gyp.cmd' : 'node-gyp');
  const status = run(
    fs.existsSync(gyp) ? gyp : 'npx',
    [
      ...(fs.existsSync(gyp) ? [] : ['node-gyp']),
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      '--runtime=electron',
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: folder },
  );
  if (status === 0 && fs.existsSync(binding)) return binding;
  say('better-sqlite3 could not be built for Electron here (its headers are not reachable); using the browser shell.');
  fs.rmSync(folder, { recursive: true, force: true });
  return null;
}
