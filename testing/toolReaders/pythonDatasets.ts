/**
 * Hugging Face `datasets` itself, pinned, for the tests that load an export with the tool's own code (the readers
 * beside this file follow its rules in TypeScript; this runs the real loader). Installed once with pip into a venv
 * under the OS temp folder, outside the repository; where Python, venv or PyPI cannot be had, `datasetsPython()`
 * says why and the tests skip with that reason.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The version the contract tests load with: bump it deliberately, and rerun them. */
export const DATASETS_VERSION = '5.2.0';

const venv = path.join(os.tmpdir(), `recto-hf-datasets-${DATASETS_VERSION}`);
const venvPython = path.join(venv, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
/** pip's install of datasets and its wheels (pyarrow, pandas, numpy) takes a minute or two on a cold cache. */
const INSTALL_TIMEOUT_MS = 600_000;

const run = (command: string, args: string[], timeout = INSTALL_TIMEOUT_MS) =>
  spawnSync(command, args, { encoding: 'utf8', timeout, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });

function installed(): boolean {
  if (!fs.existsSync(venvPython)) return false;
  const probe = run(venvPython, ['-c', 'import datasets, PIL; print(datasets.__version__)'], 60_000);
  return probe.status === 0 && probe.stdout.trim() === DATASETS_VERSION;
}

/** The venv's Python with `datasets` at the pinned version, or why it cannot be had. */
export function datasetsPython(): { python: string } | { skip: string } {
  if (installed()) return { python: venvPython };
  const python = ['python3', 'python'].find((name) => run(name, ['--version'], 10_000).status === 0);
  if (!python) return { skip: 'no python3 on PATH' };
  const made = run(python, ['-m', 'venv', venv]);
  if (made.status !== 0) return { skip: `python3 -m venv failed: ${(made.stderr || made.error?.message || '').trim().split('\n').at(-1)}` };
  const pip = run(venvPython, ['-m', 'pip', 'install', '--quiet', `datasets==${DATASETS_VERSION}`, 'pillow']);
  if (pip.status !== 0) return { skip: `pip install datasets==${DATASETS_VERSION} failed (PyPI unreachable?): ${(pip.stderr || pip.error?.message || '').trim().split('\n').at(-1)}` };
  return installed() ? { python: venvPython } : { skip: `datasets ${DATASETS_VERSION} did not import after pip install` };
}

/** Runs a Python script with the pinned `datasets`; its last stdout line is JSON (the answer). */
export function runDatasetsScript(python: string, script: string, args: string[]): unknown {
  const result = spawnSync(python, ['-c', script, ...args], {
    encoding: 'utf8',
    timeout: 300_000,
    // Its caches in a temp folder of their own, never the user's ~/.cache/huggingface; no network.
    env: { ...process.env, HF_HOME: path.join(os.tmpdir(), 'recto-hf-home'), HF_DATASETS_OFFLINE: '1', HF_HUB_OFFLINE: '1' },
  });
  if (result.status !== 0) throw new Error(`python exited ${result.status}: ${result.stderr.trim().split('\n').slice(-8).join('\n')}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as unknown;
}
