/**
 * Hugging Face `datasets` itself, pinned, for the tests that load an export with the tool's own code (the readers
 * beside this file follow its rules in TypeScript; this runs the real loader). Installed once with pip into a venv
 * under the OS temp folder, outside the repository — by `npm test` before the suites start
 * (`installPythonDatasets.ts`), so a slow PyPI delays no test worker; where Python, venv or PyPI cannot be had,
 * `datasetsPython()` says why and the tests skip with that reason.
 *
 * Every child process here is asynchronous: a test worker blocked for minutes in a synchronous pip install misses
 * vitest's own messages to it, and the run fails with no test failed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The version the contract tests load with: bump it deliberately, and rerun them. */
export const DATASETS_VERSION = '5.2.0';

const venv = path.join(os.tmpdir(), `recto-hf-datasets-${DATASETS_VERSION}`);
const venvPython = path.join(venv, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
/** pip's install of datasets and its wheels (pyarrow, pandas, numpy) takes a minute or two on a cold cache. */
export const INSTALL_TIMEOUT_MS = 600_000;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: string;
}

function run(command: string, args: string[], timeout: number, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', ...env } }, (error, stdout, stderr) => {
      const code = error && typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null;
      resolve({ status: error ? code : 0, stdout, stderr, ...(error ? { error: error.message } : {}) });
    });
  });
}

const lastLine = (ran: Ran): string => (ran.stderr || ran.error || '').trim().split('\n').at(-1) ?? '';

async function installed(): Promise<boolean> {
  if (!fs.existsSync(venvPython)) return false;
  const probe = await run(venvPython, ['-c', 'import datasets, PIL; print(datasets.__version__)'], 60_000);
  return probe.status === 0 && probe.stdout.trim() === DATASETS_VERSION;
}

/** The venv's Python with `datasets` at the pinned version, or why it cannot be had; installs it where it can. */
export async function datasetsPython(): Promise<{ python: string } | { skip: string }> {
  if (await installed()) return { python: venvPython };
  let python: string | undefined;
  for (const name of ['python3', 'python']) if (!python && (await run(name, ['--version'], 10_000)).status === 0) python = name;
  if (!python) return { skip: 'no python3 on PATH' };
  const made = await run(python, ['-m', 'venv', venv], INSTALL_TIMEOUT_MS);
  if (made.status !== 0) return { skip: `python3 -m venv failed: ${lastLine(made)}` };
  // pip's own network timeout and retries bounded, so an unreachable PyPI is a skip in about a minute, not ten.
  const pip = await run(venvPython, ['-m', 'pip', 'install', '--quiet', '--timeout', '30', '--retries', '2', `datasets==${DATASETS_VERSION}`, 'pillow'], INSTALL_TIMEOUT_MS);
  if (pip.status !== 0) return { skip: `pip install datasets==${DATASETS_VERSION} failed (PyPI unreachable?): ${lastLine(pip)}` };
  return (await installed()) ? { python: venvPython } : { skip: `datasets ${DATASETS_VERSION} did not import after pip install` };
}

/** Runs a Python script with the pinned `datasets`; its last stdout line is JSON (the answer). */
export async function runDatasetsScript(python: string, script: string, args: string[]): Promise<unknown> {
  // Its caches in a temp folder of their own, never the user's ~/.cache/huggingface; no network.
  const result = await run(python, ['-c', script, ...args], 300_000, { HF_HOME: path.join(os.tmpdir(), 'recto-hf-home'), HF_DATASETS_OFFLINE: '1', HF_HUB_OFFLINE: '1' });
  if (result.status !== 0) throw new Error(`python exited ${result.status}: ${(result.stderr || result.error || '').trim().split('\n').slice(-8).join('\n')}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as unknown;
}
