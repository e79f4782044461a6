/**
 * Tesseract's own command-line program (Debian `tesseract-ocr`) as the speed reference: found or installed, then run
 * in its best configuration on this machine — one process per core, each single-threaded (`OMP_THREAD_LIMIT=1`:
 * tesseract's OpenMP threads only contend with the other processes) and each given a list of images, so the model
 * is loaded once per list rather than once per page. Plain text out, pages separated by form feeds.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface TesseractInfo {
  version: string;
  /** e.g. /usr/share/tesseract-ocr/5/tessdata (from --list-langs). */
  dataDir: string;
}

function probe(): TesseractInfo | null {
  const version = spawnSync('tesseract', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return null;
  const langs = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  if (!/^eng$/m.test(langs.stdout ?? '')) return null;
  const dataDir = /"(.+?)"/.exec(langs.stdout ?? '')?.[1] ?? '';
  return { version: (version.stdout || version.stderr).split('\n')[0]!.trim(), dataDir };
}

/**
 * Returns tesseract's version, installing `tesseract-ocr` with apt-get when it is missing and this process may
 * (root with apt-get). Otherwise throws an error that says how to install it.
 */
export function ensureTesseract(log: (line: string) => void): TesseractInfo {
  const found = probe();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version']).status === 0;
  if (isRoot && hasApt) {
    log('tesseract (CLI) not found: installing the Debian package tesseract-ocr (apt-get update && apt-get install -y tesseract-ocr)…');
    const update = spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', 'tesseract-ocr'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }) : update;
    const after = probe();
    if (after) return after;
    throw new Error(`installing tesseract-ocr failed (apt-get exit ${install.status ?? 'signal'}); install it by hand: apt-get update && apt-get install -y tesseract-ocr`);
  }
  throw new Error(
    'tesseract (the command-line program with English data) is needed as the speed reference and is not installed. ' +
      'On Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y tesseract-ocr; on macOS: brew install tesseract.',
  );
}

export interface TesseractPage {
  imagePath: string;
  dpi: number;
}

/**
 * Splits pages into lists of one resolution each (`--dpi` is per process) of at most ⌈pages / (4 × processes)⌉
 * pages, consecutive pages together. `processes` runners take lists from a queue, so a runner that drew short pages
 * takes more lists and none idles at the end; a list costs one model load (~0.1 s for the Debian model).
 */
export function planProcesses(pages: readonly TesseractPage[], processes: number): { dpi: number; pageIndices: number[] }[] {
  const byDpi = new Map<number, number[]>();
  pages.forEach((p, i) => byDpi.set(Math.round(p.dpi), [...(byDpi.get(Math.round(p.dpi)) ?? []), i]));
  const chunk = Math.max(1, Math.ceil(pages.length / (4 * Math.max(1, processes))));
  const plans: { dpi: number; pageIndices: number[] }[] = [];
  for (const [dpi, indices] of byDpi) {
    for (let k = 0; k < indices.length; k += chunk) plans.push({ dpi, pageIndices: indices.slice(k, k + chunk) });
  }
  return plans;
}

function runProcess(listFile: string, outBase: string, dpi: number, languages: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', [listFile, outBase, '--dpi', String(dpi), '--psm', '3', '-l', languages.join('+')], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tesseract exited ${code}: ${stderr.trim().slice(-400)}`))));
  });
}

/**
 * OCRs every page with `processes` concurrent tesseract processes (at most that many at once); text per page.
 * `languages`: tesseract language codes, the same the engine compared with reads (each must be installed).
 */
export async function tesseractTexts(pages: readonly TesseractPage[], processes: number, languages: readonly string[] = ['eng']): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'recto-tesseract-'));
  try {
    const plans = planProcesses(pages, processes);
    const texts = new Array<string>(pages.length).fill('');
    let next = 0;
    const runNext = async (): Promise<void> => {
      while (next < plans.length) {
        const k = next++;
        const plan = plans[k]!;
        const listFile = path.join(dir, `list-${k}.txt`);
        const outBase = path.join(dir, `out-${k}`);
        await writeFile(listFile, plan.pageIndices.map((i) => pages[i]!.imagePath).join('\n') + '\n');
        await runProcess(listFile, outBase, plan.dpi, languages);
        const pieces = (await readFile(`${outBase}.txt`, 'utf8')).split('\f');
        plan.pageIndices.forEach((pageIndex, j) => (texts[pageIndex] = pieces[j] ?? ''));
      }
    };
    await Promise.all(Array.from({ length: Math.min(processes, plans.length) }, runNext));
    return texts;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** CPU seconds of this process's reaped children (Linux /proc; null elsewhere). */
export function childCpuSeconds(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ": state is field 3 → index 0; cutime is field 16 → index 13, cstime 17 → 14; clock ticks 100 Hz.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
