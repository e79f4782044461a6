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

/** A relative path of the export (no absolute paths, no way out of the folder). */
function isInside(relative: string): boolean {
  return relative !== '' && !path.isAbsolute(relative) && !relative.split(/[\\/]/).includes('..');
}

function applyJournal(outDir: string, staging: string, journal: Journal): void {
  for (const file of journal.files) {
    if (!isInside(file)) continue;
    const staged = path.join(staging, file);
    // Already moved by the interrupted commit when it is no longer staged.
    if (!fs.existsSync(staged)) continue;
    const target = path.join(outDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(staged, target);
  }
  for (const file of journal.remove) {
    if (isInside(file)) fs.rmSync(path.join(outDir, file), { force: true });
  }
  fs.rmSync(staging, { recursive: true, force: true });
}

/**
 * Finishes or discards what an interrupted export left in `outDir`: returns 'rolled-forward' when a commit was
 * completed from its journal, 'discarded' when unfinished staging was removed, null when there was nothing.
 */
export function recoverInterruptedExport(outDir: string): 'rolled-forward' | 'discarded' | null {
  const staging = path.join(outDir, stagingFolderName);
  if (!fs.existsSync(staging)) return null;
  let journal: Journal | null = null;
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(staging, journalName), 'utf8')) as Partial<Journal>;
    if (Array.isArray(parsed.files) && Array.isArray(parsed.remove)) journal = { files: parsed.files, remove: parsed.remove };
  } catch {
    journal = null; // no journal (or a torn one, which cannot happen: it is renamed into place): not committed
  }
  if (!journal) {
    fs.rmSync(staging, { recursive: true, force: true });
    return 'discarded';
  }
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
    const current = path.join(this.outDir, relative);
    if (fs.existsSync(current) && fs.readFileSync(current).equals(bytes)) return false;
    const target = path.join(this.staging, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
    this.staged.add(relative);
    return true;
  }

  /** Size of a file as it will be after the commit (staged, else in the folder). */
  sizeOf(relative: string): number {
    return fs.statSync(path.join(this.staged.has(relative) ? this.staging : this.outDir, relative)).size;
  }

  /** Moves the staged files in (manifest.json last) and removes `remove`; from here on the export completes. */
  commit(remove: readonly string[]): void {
    const files = [...this.staged].sort((a, b) => (a === 'manifest.json' ? 1 : b === 'manifest.json' ? -1 : a < b ? -1 : 1));
    const journal: Journal = { files, remove: remove.filter(isInside) };
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
