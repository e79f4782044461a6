/**
 * `npm test`: every check, from a fresh clone. Installs what is missing (dependencies, Debian's Chromium for the
 * end-to-end tests and qpdf for the attachment re-saves, Debian's python3-torch and python3-onnx for the export
 * round-trip test, Hugging Face `datasets` from PyPI in a temp venv for the export contract test), builds, then runs
 * lint (layer arrows), type-checks, unit tests and Playwright e2e tests.
 * Every step runs even when an earlier one failed, so one run shows everything; the exit code is non-zero if any
 * step failed. The last line counts the tests of both suites.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild, ensureDependencies, root, run, say } from './bootstrap.mjs';

const chromium = process.env.RECTO_CHROMIUM ?? '/usr/bin/chromium';

/** qpdf re-saves the e-invoice PDFs with object streams and linearized (main/import/pdfAttachmentVariants.test.ts). */
const hasQpdf = () => spawnSync('qpdf', ['--version'], { stdio: 'ignore' }).status === 0;

function ensureChromium() {
  const packages = [...(fs.existsSync(chromium) ? [] : ['chromium']), ...(hasQpdf() ? [] : ['qpdf'])];
  if (packages.length === 0) return;
  if (process.getuid?.() !== 0) {
    say(`${packages.join(' and ')} missing; install with: sudo apt-get install -y ${packages.join(' ')}`);
    return;
  }
  say(`installing Debian ${packages.join(' and ')} for the end-to-end and attachment tests (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', ...packages], { env });
}

/** Python with torch and onnx, for the export round-trip test (native-models/export/exportRoundTrip.test.ts). */
const pythonExportPackages = ['python3-torch', 'python3-onnx', 'python3-numpy'];
const pythonExportInstall = `apt-get install -y --no-install-recommends ${pythonExportPackages.join(' ')}`;

function ensurePythonExport() {
  const pythons = [process.env.RECTO_PYTHON, '/usr/bin/python3', 'python3'].filter(Boolean);
  const has = () => pythons.some((python) => spawnSync(python, ['-c', 'import torch.onnx, onnx, numpy'], { stdio: 'ignore' }).status === 0);
  if (has()) return;
  if (process.getuid?.() !== 0) {
    say(`no Python with torch and onnx: the export round-trip test will skip; install them with: sudo ${pythonExportInstall}`);
    return;
  }
  say('installing Debian python3-torch, python3-onnx and python3-numpy for the export round-trip test (apt-get)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pythonExportPackages], { env });
}

/**
 * Hugging Face `datasets`, pinned, in a venv under the temp folder, for the export contract test
 * (main/corpus/datasetsLoad.test.ts): installed here, before the suites, so a slow PyPI holds up no test worker.
 * Prints one line either way; where it cannot be had, the test skips saying why.
 */
function ensurePythonDatasets() {
  run('npx', ['tsx', 'testing/toolReaders/installPythonDatasets.ts']);
}

try {
  ensureDependencies();
  ensureChromium();
  ensurePythonExport();
  ensurePythonDatasets();
  ensureBuild();
} catch (error) {
  say(String(error instanceof Error ? error.message : error));
  process.exit(1);
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-test-'));
const steps = [
  ['lint: layer arrows', 'npx', ['depcruise', 'app', 'main', 'native-models', 'renderer', 'bench', 'testing', 'e2e', '--config', '.dependency-cruiser.cjs']],
  ['type-check: node side', 'npx', ['tsc', '-p', 'tsconfig.node.json', '--noEmit']],
  ['type-check: renderer', 'npx', ['tsc', '-p', 'tsconfig.renderer.json']],
  ['type-check: tests', 'npx', ['tsc', '-p', 'tsconfig.test.json']],
  ['unit tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reports, 'unit.json')}`]],
  ['e2e tests', 'npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reports, 'e2e.json')}`]],
];

/** Steps whose tests are counted from their JSON report; the others count as one test each. */
const suites = new Set(['unit tests', 'e2e tests']);
const failedSteps = [];
for (const [name, command, args] of steps) {
  say(`── ${name}`);
  const status = run(command, args);
  if (status !== 0) failedSteps.push(name);
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of ['unit.json', 'e2e.json']) {
  const full = path.join(reports, file);
  if (!fs.existsSync(full)) continue;
  const report = JSON.parse(fs.readFileSync(full, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
fs.rmSync(reports, { recursive: true, force: true });

if (failedSteps.length > 0) say(`failed steps: ${failedSteps.join(', ')}`);
// A failed lint or type-check counts as a failed test in the closing line, so the line never reads as green.
const failedChecks = failedSteps.filter((name) => !suites.has(name)).length;
process.stdout.write(`\nTests: ${passed} passed, ${failed + failedChecks} failed, ${skipped} skipped\n`);
process.exit(failedSteps.length > 0 ? 1 : 0);
