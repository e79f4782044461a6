/**
 * Starts the real browser shell (`recto serve`, compiled) in its own process, as a user would, and stops it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compiledCli } from './paths.js';

export interface RunningRecto {
  url: string;
  origin: string;
  token: string;
  home: string;
  /** The server's process id (its CPU time is read by bench:ui). */
  pid: number;
  output: () => string;
  stop(): Promise<void>;
}

export function makeHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'recto-e2e-home-'));
}

/** `team`: `recto serve --team` (the project must have accounts); the URL then carries no token: each person adds theirs. */
export async function startRecto(options: { home: string; project?: string; pack?: string; team?: boolean }): Promise<RunningRecto> {
  if (!fs.existsSync(compiledCli)) throw new Error(`${compiledCli} is missing: run npm run build first`);
  const args = [
    compiledCli,
    'serve',
    '--port',
    '0',
    ...(options.project ? ['--project', options.project] : []),
    ...(options.pack ? ['--pack', options.pack] : []),
    ...(options.team ? ['--team'] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, RECTO_HOME: options.home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`recto serve printed no URL in 60 s:\n${output}`)), 60_000);
    const check = () => {
      const match = (options.team ? /http:\/\/127\.0\.0\.1:\d+\/#token=/ : /http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+/).exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`recto serve exited with ${code}:\n${output}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.hash.replace('#token=', ''),
    home: options.home,
    pid: child.pid!,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
