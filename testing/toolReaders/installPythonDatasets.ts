/**
 * `npx tsx testing/toolReaders/installPythonDatasets.ts`: installs the pinned `datasets` the contract tests load
 * exports with (pythonDatasets.ts), before the suites start; prints one line either way and always exits 0 (the
 * tests skip, saying why, where it cannot be had).
 */
import { DATASETS_VERSION, datasetsPython } from './pythonDatasets.js';

const python = await datasetsPython();
process.stdout.write('skip' in python ? `recto: the datasets ${DATASETS_VERSION} contract test will skip: ${python.skip}\n` : `recto: datasets ${DATASETS_VERSION} ready for the contract test (${python.python})\n`);
