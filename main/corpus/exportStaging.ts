/**
 * How an export changes its folder without ever leaving it half-written. Every new or changed file is first written
 * into a staging folder inside it (`.recto-export-staging/`, same file system, so moving a file in is a rename); the
 * folder itself is not touched while pages are exported, so a cancelled or failed export leaves it exactly as it was.
 * The commit writes a journal (`commit.json`: the staged files and the files to remove) and then moves the files
 * into place, manifest.json last. A process killed before the journal leaves a staging folder that the next export
 * discards; killed during the moves, one that the next export completes from the journal ("rolls forward").
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  findUnsafeEntry,
  isPlainRelativePath,
  lstatInside,
  readFileInside,
  removeFileInside,
  renameInside,
  UnsafePathError,
  writeFileInside,
} from '../util/containedPaths.js';
import { readManifest } from './manifest.js';

export const stagingFolderName = '.recto-export-staging';
const journalName = 'commit.json';

interface Journal {
  /** Staged files, relative to the export folder, in the order they are moved in (manifest.json last). */
  files: string[];
  /** Files of the previous export to remove. */
  remove: string[];
}

/** Thrown by an export that was cancelled; nothing in the folder was changed. */
export class CorpusExportCancelledError extends Error {
  override name = 'CorpusExportCancelledError';
  constructor(outDir: string) {
    super(`the export to ${outDir} was cancelled; the folder was left as it was`);
  }
}

function applyJournal(outDir: string, staging: string, journal: Journal): void {
  for (const file of journal.files) {
    if (!isPlainRelativePath(file)) continue;
    // Already moved by the interrupted commit when it is no longer staged.
    if (!lstatInside(staging, file)) continue;
    renameInside(staging, outDir, file);
  }
  for (const file of journal.remove) {
    if (isPlainRelativePath(file)) removeFileInside(outDir, file);
  }
  fs.rmSync(staging, { recursive: true, force: true });
}

function readJournal(staging: string): Journal | null {
  try {
    const parsed = JSON.parse(readFileInside(staging, journalName).toString('utf8')) as Partial<Journal>;
    const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
    return strings(parsed.files) && strings(parsed.remove) ? { files: parsed.files, remove: parsed.remove } : null;
  } catch {
    return null; // no journal (or a torn one, which cannot happen: it is renamed into place): not committed
  }
}

/**
 * Whether a journal found in `outDir` may be carried out: only in a folder that is an export of this project (its
 * manifest names the project), or — a first export killed during its moves, before manifest.json was moved in — in
 * a folder holding nothing but files the journal itself moved in, with nothing to remove. A journal planted in any
 * other folder is discarded unread, so it can neither move files into nor delete files from a folder of the user's.
 */
function journalMayBeReplayed(outDir: string, journal: Journal, projectName: string): boolean {
  const manifest = readManifest(path.join(outDir, 'manifest.json'));
  if (manifest) return manifest.project === projectName;
  if (journal.remove.length > 0) return false;
  const moved = new Set(journal.files.filter(isPlainRelativePath).map((file) => file.split('/')[0]!));
  return fs.readdirSync(outDir).every((entry) => entry === stagingFolderName || moved.has(entry));
}

/**
 * Finishes or discards what an interrupted export left in `outDir`: returns 'rolled-forward' when a commit was
 * completed from its journal, 'discarded' when unfinished staging (or a journal that may not be carried out here)
 * was removed, null when there was nothing.
 */
export function recoverInterruptedExport(outDir: string, projectName: string): 'rolled-forward' | 'discarded' | null {
  const staging = path.join(outDir, stagingFolderName);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(staging);
  } catch {
    return null;
  }
  // rmSync removes a link itself, never what it points to.
  const discard = () => (fs.rmSync(staging, { recursive: true, force: true }), 'discarded' as const);
  if (!stat.isDirectory() || findUnsafeEntry(staging) !== null) return discard();
  const journal = readJournal(staging);
  if (!journal || !journalMayBeReplayed(outDir, journal, projectName)) return discard();
  applyJournal(outDir, staging, journal);
  return 'rolled-forward';
}

export class StagedExport {
  private readonly staging: string;
  private readonly staged = new Set<string>();

  /** `createdFolder`: the export folder did not exist before; a cancelled export removes it again. */
  constructor(
    private readonly outDir: string,
    private readonly createdFolder: boolean,
  ) {
    this.staging = path.join(outDir, stagingFolderName);
    fs.rmSync(this.staging, { recursive: true, force: true });
    fs.mkdirSync(this.staging, { recursive: true });
  }

  /** Stages `content` for `relative` unless the folder already holds exactly it; returns whether it was staged. */
  stageIfChanged(relative: string, content: string | Buffer): boolean {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    if (lstatInside(this.outDir, relative)?.isFile() && readFileInside(this.outDir, relative).equals(bytes)) return false;
    writeFileInside(this.staging, relative, bytes);
    this.staged.add(relative);
    return true;
  }

  /** Size of a file as it will be after the commit (staged, else in the folder). */
  sizeOf(relative: string): number {
    const stat = lstatInside(this.staged.has(relative) ? this.staging : this.outDir, relative);
    if (!stat?.isFile()) throw new UnsafePathError(`${relative}: is missing or not a regular file`);
    return stat.size;
  }

  /** Moves the staged files in (manifest.json last) and removes `remove`; from here on the export completes. */
  commit(remove: readonly string[]): void {
    const files = [...this.staged].sort((a, b) => (a === 'manifest.json' ? 1 : b === 'manifest.json' ? -1 : a < b ? -1 : 1));
    const journal: Journal = { files, remove: remove.filter(isPlainRelativePath) };
    const temporary = path.join(this.staging, `${journalName}.tmp`);
    fs.writeFileSync(temporary, JSON.stringify(journal));
    fs.renameSync(temporary, path.join(this.staging, journalName));
    applyJournal(this.outDir, this.staging, journal);
  }

  /** Drops everything staged: the folder is as before the export (and gone again if the export created it). */
  abandon(): void {
    fs.rmSync(this.staging, { recursive: true, force: true });
    if (this.createdFolder && fs.existsSync(this.outDir) && fs.readdirSync(this.outDir).length === 0) fs.rmdirSync(this.outDir);
  }
}
