/**
 * Reading and writing inside a folder without ever leaving it. A path inside a corpus, an export or the page image
 * cache is written relative to its folder; it is refused when it is empty, absolute, has a `.` or `..` part, a
 * backslash or a NUL — and when any part of it, on disk, is a symbolic link (checked with lstat, part by part), so
 * that a link planted in the folder cannot carry a read, a write, a rename or a removal elsewhere. Files are opened
 * with O_NOFOLLOW as well, for a link that appears between the check and the open.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A path that would leave its folder, or go through a symbolic link; the message names the path and the reason. */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
}

/** O_NOFOLLOW where the platform has it (not on Windows, where symbolic links need privileges to create). */
const noFollow = fs.constants.O_NOFOLLOW ?? 0;

/** Whether `relative` is a plain relative path: `a/b.png`, never `/a`, `../a`, `a/./b`, `a\b` or `C:x`. */
export function isPlainRelativePath(relative: string): boolean {
  if (relative === '' || relative.includes('\0') || relative.includes('\\') || path.isAbsolute(relative)) return false;
  if (/^[A-Za-z]:/.test(relative)) return false;
  return relative.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

function requirePlain(relative: string): void {
  if (!isPlainRelativePath(relative)) throw new UnsafePathError(`${JSON.stringify(relative)}: not a path inside the folder`);
}

/**
 * lstat of `root/relative`, null when it (or a folder above it) does not exist; throws UnsafePathError when a part of
 * the path is a symbolic link or a part above the last is not a folder.
 */
export function lstatInside(root: string, relative: string): fs.Stats | null {
  requirePlain(relative);
  const parts = relative.split('/');
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = path.join(current, part);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (stat.isSymbolicLink()) throw new UnsafePathError(`${parts.slice(0, index + 1).join('/')}: is a symbolic link`);
    if (index < parts.length - 1 && !stat.isDirectory()) throw new UnsafePathError(`${parts.slice(0, index + 1).join('/')}: is not a folder`);
  }
  return fs.lstatSync(current);
}

/** `root/relative`, checked to stay inside `root` (see lstatInside); it need not exist. */
export function pathInside(root: string, relative: string): string {
  lstatInside(root, relative);
  return path.join(root, ...relative.split('/'));
}

/** The bytes of a regular file inside `root`; throws UnsafePathError for a link, a folder, a FIFO or a device. */
export function readFileInside(root: string, relative: string): Buffer {
  const stat = lstatInside(root, relative);
  if (!stat) throw new UnsafePathError(`${relative}: is missing`);
  if (!stat.isFile()) throw new UnsafePathError(`${relative}: is not a regular file`);
  return readRegularFile(path.join(root, ...relative.split('/')));
}

/** Reads a file that must be a regular file (not a link, FIFO, device or folder) when it is opened. */
export function readRegularFile(file: string): Buffer {
  // O_NONBLOCK: opening a FIFO planted in place of the file must not wait for a writer.
  const fd = fs.openSync(file, fs.constants.O_RDONLY | noFollow | (fs.constants.O_NONBLOCK ?? 0));
  try {
    if (!fs.fstatSync(fd).isFile()) throw new UnsafePathError(`${path.basename(file)}: is not a regular file`);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a file inside `root`, creating the folders above it; refuses any link on the way (the file's own too). */
export function writeFileInside(root: string, relative: string, bytes: Buffer | string): void {
  mkdirInside(root, path.posix.dirname(relative));
  const existing = lstatInside(root, relative);
  if (existing && !existing.isFile()) throw new UnsafePathError(`${relative}: is not a regular file`);
  const fd = fs.openSync(path.join(root, ...relative.split('/')), fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | noFollow, 0o644);
  try {
    fs.writeFileSync(fd, bytes);
  } finally {
    fs.closeSync(fd);
  }
}

/** Creates the folders of `relative` (`.` for none) inside `root`, refusing a link or a file in the way. */
export function mkdirInside(root: string, relative: string): void {
  if (relative === '.' || relative === '') return;
  requirePlain(relative);
  const parts = relative.split('/');
  for (let index = 1; index <= parts.length; index++) {
    const partial = parts.slice(0, index).join('/');
    const stat = lstatInside(root, partial);
    if (!stat) fs.mkdirSync(path.join(root, ...parts.slice(0, index)));
    else if (!stat.isDirectory()) throw new UnsafePathError(`${partial}: is not a folder`);
  }
}

/** Moves `fromRoot/relative` to `toRoot/relative`, both checked; the target's folders are created. */
export function renameInside(fromRoot: string, toRoot: string, relative: string): void {
  const from = lstatInside(fromRoot, relative);
  if (!from?.isFile()) throw new UnsafePathError(`${relative}: the staged file is not a regular file`);
  mkdirInside(toRoot, path.posix.dirname(relative));
  const target = lstatInside(toRoot, relative);
  if (target && !target.isFile()) throw new UnsafePathError(`${relative}: is not a regular file`);
  fs.renameSync(path.join(fromRoot, ...relative.split('/')), path.join(toRoot, ...relative.split('/')));
}

/** Removes a regular file inside `root` (nothing when absent); a link or folder in its place is refused. */
export function removeFileInside(root: string, relative: string): void {
  const stat = lstatInside(root, relative);
  if (!stat) return;
  if (!stat.isFile()) throw new UnsafePathError(`${relative}: is not a regular file`);
  fs.unlinkSync(path.join(root, ...relative.split('/')));
}

/**
 * The first symbolic link or special file (FIFO, socket, device) found under `root`, as a relative path; null when
 * there is none. Entries named in `skip` (at the top level) are not looked into.
 */
export function findUnsafeEntry(root: string, skip: ReadonlySet<string> = new Set()): string | null {
  const walk = (relative: string): string | null => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && skip.has(entry.name)) continue;
      if (entry.isDirectory()) {
        const found = walk(child);
        if (found) return found;
      } else if (!entry.isFile()) return child;
    }
    return null;
  };
  return walk('');
}
