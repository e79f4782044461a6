/**
 * CPU time a process has used (user + system), from Linux's /proc: the browser shell's server, whose work per sample
 * (the requests an input causes) competes with the renderer for the same two cores. NaN where /proc is not there.
 */
import fs from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux builds since long). */
const TICKS_PER_SECOND = 100;

export function processCpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces, so it is skipped up to its closing parenthesis):
    // state is the first, utime the 12th, stime the 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * Chromium's processes now, by pid, each named by its `--type=` (`renderer`, `gpu-process`, `utility:NetworkService`,
 * …; the browser process has none). Chromium rewrites its processes' titles, so the arguments in /proc's cmdline may be
 * separated by spaces rather than NULs. Empty where /proc is not there.
 */
export function chromiumProcesses(): Map<number, string> {
  const found = new Map<number, string>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split(/[\0 ]/);
    } catch {
      continue; // gone meanwhile
    }
    if (!/chrom/i.test(args[0] ?? '')) continue;
    found.set(Number(entry), processKind(args));
  }
  return found;
}

/** `renderer`, `gpu-process`, `utility:NetworkService`, or `browser` (no --type) from a Chromium process's arguments. */
export function processKind(args: readonly string[]): string {
  const type = args.find((a) => a.startsWith('--type='))?.slice('--type='.length) ?? 'browser';
  const sub = args.find((a) => a.startsWith('--utility-sub-type='))?.slice('--utility-sub-type='.length);
  return sub ? `${type}:${sub.split('.').pop()}` : type;
}

/**
 * CPU time (ms) of each thread of a process, summed by thread name with its trailing number dropped (Chromium's
 * `ThreadPoolForegroundWorker` threads are shortened by the kernel to `ThreadPoolForeg`, numbered or not). Empty where
 * the process is gone.
 */
export function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let threads: string[];
  try {
    threads = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const thread of threads) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}
