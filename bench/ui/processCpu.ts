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
