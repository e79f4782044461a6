/**
 * The export as Hugging Face `datasets` loads it — the library itself, pinned (testing/toolReaders/pythonDatasets.ts),
 * not a reader that follows it: every config of the data card loads with `load_dataset(DIR, CONFIG)`, the `pages`
 * config's images open from any working folder (and as an `Image` column through `imagefolder` on `images/`), and two exports holding different test types load together under
 * the `tests` features either card declares. Skips, saying why, where Python or PyPI is not at hand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillProject } from '../../testing/corpusFixtures.js';
import { cardBuilder, cardConfigs } from '../../testing/toolReaders/hubReaders.js';
import { DATASETS_VERSION, INSTALL_TIMEOUT_MS, datasetsPython, runDatasetsScript } from '../../testing/toolReaders/pythonDatasets.js';
import { ProjectStore } from '../store/projectStore.js';
import { exportCorpus } from './exportCorpus.js';


/**
 * argv: cache folder, then export folders. Loads every config of every folder from a working folder that is none of
 * them, opens one image of each `pages` config and loads `images/` with imagefolder, and loads the `tests.jsonl` of all folders together under the first
 * folder's declared `tests` features.
 */
const LOAD_SCRIPT = `
import json, os, sys
from datasets import get_dataset_config_names, load_dataset, load_dataset_builder
from PIL import Image
cache, dirs = sys.argv[1], sys.argv[2:]
os.chdir(cache)
out = {"folders": {}}
for d in dirs:
    configs = {}
    for name in get_dataset_config_names(d):
        loaded = load_dataset(d, name, cache_dir=cache)
        configs[name] = {split: {"rows": ds.num_rows, "columns": ds.column_names, "features": str(ds.features)} for split, ds in loaded.items()}
        if name == "pages":
            # file_name is relative to images/metadata.jsonl, as imagefolder reads it.
            with Image.open(os.path.join(d, "images", loaded["train"][0]["file_name"])) as image:
                configs[name]["first_image"] = [image.width, image.height]
            folder = load_dataset("imagefolder", data_dir=os.path.join(d, "images"), split="train", cache_dir=cache)
            configs[name]["imagefolder"] = {"rows": folder.num_rows, "first_image": list(folder[0]["image"].size)}
    out["folders"][d] = configs
features = load_dataset_builder(dirs[0], "tests", cache_dir=cache).info.features
both = load_dataset("json", data_files=[os.path.join(d, "tests.jsonl") for d in dirs], features=features, split="train", cache_dir=cache)
out["tests_together"] = {"rows": both.num_rows, "types": sorted(set(both["type"]))}
print(json.dumps(out))
`;

describe('the export as datasets loads it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-hf-load-'));
  const exports = { prose: path.join(dir, 'prose'), tables: path.join(dir, 'tables') };
  /** An export of pages nobody corrected: an empty tests.jsonl. */
  const uncorrected = path.join(dir, 'uncorrected');
  let python: Awaited<ReturnType<typeof datasetsPython>> = { skip: 'not looked for yet' };

  // `npm test` installed it before the suites started; here it is only found (or installed, off this thread).
  beforeAll(async () => {
    python = await datasetsPython();
    if ('skip' in python) console.log(`SKIPPED: loading the export with datasets ${DATASETS_VERSION}: ${python.skip}`);
  }, INSTALL_TIMEOUT_MS + 60_000);

  beforeAll(async () => {
    const png = await sharp({ create: { width: 60, height: 84, channels: 3, background: 'white' } }).png().toBuffer();
    // Two projects whose corrections give different test types: present/absent lines in one, table cells and
    // formulas in the other (the `tests` features must not depend on which an export holds).
    const projects = [
      ['prose', ['text', 'header']],
      ['tables', ['table', 'formula']],
    ] as const;
    for (const [name, kinds] of projects) {
      const store = ProjectStore.create(path.join(dir, `${name}.recto`));
      fillProject(store, [{ name: `${name}.pdf`, pages: 3, corrections: { 0: [...kinds], 2: [...kinds] } }], name.length);
      await exportCorpus(store, { outDir: exports[name], images: 'png', format: 'olmocr', pageImage: async () => png });
      store.close();
    }
    const store = ProjectStore.create(path.join(dir, 'uncorrected.recto'));
    fillProject(store, [{ name: 'plain.pdf', pages: 2 }], 7);
    await exportCorpus(store, { outDir: uncorrected, images: 'png', pageImage: async () => png });
    store.close();
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every config of the card is one the single builder datasets picks for the card can read (its documented rules)', () => {
    for (const folder of [...Object.values(exports), uncorrected]) expect(cardBuilder(folder)).toEqual({ builder: 'json', unreadable: [] });
    // The `tests` features do not depend on the test types an export holds.
    const testsFeatures = (folder: string) => cardConfigs(folder).dataset_info.find((c) => c.config_name === 'tests')!.features;
    expect(testsFeatures(exports.prose)).toEqual(testsFeatures(exports.tables));
  });

  it(`datasets ${DATASETS_VERSION}: every config of the card loads with load_dataset(DIR, CONFIG); pages opens its images; two exports load together`, async (context) => {
    if ('skip' in python) return context.skip(python.skip);
    const cache = fs.mkdtempSync(path.join(dir, 'cache-'));
    const types = (folder: string) => new Set(fs.readFileSync(path.join(folder, 'tests.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { type: string }).type));
    // The premise: the two exports hold different test types.
    expect([...types(exports.prose)].sort()).not.toEqual([...types(exports.tables)].sort());
    const answer = (await runDatasetsScript(python.python, LOAD_SCRIPT, [cache, exports.prose, exports.tables, uncorrected])) as {
      folders: Record<string, Record<string, Record<string, { rows: number; columns: string[]; features: string }> & { first_image?: [number, number]; imagefolder?: unknown }>>;
      tests_together: { rows: number; types: string[] };
    };
    for (const folder of Object.values(exports)) {
      const configs = answer.folders[folder]!;
      const declared = cardConfigs(folder).configs.map((c) => c.config_name);
      expect(Object.keys(configs).sort()).toEqual([...declared].sort());
      expect(declared).toEqual(expect.arrayContaining(['default', 'tests', 'pages']));
      expect(configs.default!.train!.rows).toBe(3);
      expect(configs.tests!.test!.rows).toBe(fs.readFileSync(path.join(folder, 'tests.jsonl'), 'utf8').split('\n').filter(Boolean).length);
      expect(configs.pages!.train!.rows).toBe(3);
      expect(configs.pages!.train!.columns).toContain('file_name');
      expect(configs.pages!.first_image).toEqual([60, 84]);
      expect(configs.pages!.imagefolder).toEqual({ rows: 3, first_image: [60, 84] });
    }
    // No corrections, no tests: no `tests` config (datasets refuses a split without rows); the others load.
    expect(Object.keys(answer.folders[uncorrected]!).sort()).toEqual(['default', 'pages']);
    expect(answer.folders[uncorrected]!.default!.train!.rows).toBe(2);
    // The same declared features for `tests` in both cards, so the files load as one table.
    expect(answer.folders[exports.prose]!.tests!.test!.features).toBe(answer.folders[exports.tables]!.tests!.test!.features);
    const allTypes = new Set([...types(exports.prose), ...types(exports.tables)]);
    expect(answer.tests_together.types).toEqual([...allTypes].sort());
  }, 600_000);
});
