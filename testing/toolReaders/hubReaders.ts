/**
 * How Hugging Face `datasets` and LLaMA-Factory read an export folder (no Python here; each follows the named upstream
 * code, it does not copy it):
 * - `cardConfigs` — the data card's YAML front matter as `datasets` reads it (huggingface/datasets
 *   `src/datasets/utils/metadata.py`: `configs` with `data_files`; `dataset_info` with `features` in the form of
 *   `Features._from_yaml_list`), and `featuresToArrow` the Arrow types those features declare;
 * - `cardBuilder` — the one builder `datasets` picks for all configs of a card, and the files it cannot read;
 * - `imagefolderRows` — `imagefolder` (`src/datasets/packaged_modules/folder_based_builder/folder_based_builder.py`):
 *   the image files of a config's data files, and `metadata.jsonl` beside them whose `file_name` is relative to the
 *   metadata file's folder; a row whose file is not there fails;
 * - `llamaFactorySamples` — LLaMA-Factory (hiyouga/LLaMA-Factory `src/llamafactory/data/parser.py` and
 *   `converter.py`): `dataset_info.json` in the dataset folder, a `sharegpt` entry's messages with its tags, user and
 *   assistant turns alternating, one `<image>` per image, each image at `os.path.join(media_dir, path)` (media_dir
 *   defaults to the dataset folder).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ArrowType } from './arrowJson.js';

// js-yaml comes with the dev tools (no types of its own); it reads YAML as `datasets` does with PyYAML here.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

type Feature = { name: string; dtype?: string; struct?: Feature[]; list?: unknown; sequence?: unknown };
export interface CardConfigs {
  configs: { config_name: string; data_files: { split: string; path: string | string[] }[] }[];
  dataset_info: { config_name: string; features: Feature[] }[];
}

export function cardConfigs(dir: string): CardConfigs {
  const text = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) throw new Error('README.md: no YAML front matter');
  return yaml.load(match[1]!) as CardConfigs;
}

const DTYPES: Record<string, ArrowType['type']> = { string: 'string', int64: 'int64', int32: 'int64', float64: 'double', float32: 'double', bool: 'bool', null: 'null' };

function featureType(feature: Omit<Feature, 'name'> | string): ArrowType {
  if (typeof feature === 'string') {
    const type = DTYPES[feature];
    if (!type) throw new Error(`unknown dtype ${feature}`);
    return { type } as ArrowType;
  }
  if (feature.dtype) return featureType(feature.dtype);
  if (feature.struct) return featuresToArrow(feature.struct);
  const list = feature.list ?? feature.sequence;
  if (list === undefined) throw new Error(`a feature without dtype, struct or list: ${JSON.stringify(feature)}`);
  if (typeof list === 'string') return { type: 'list', item: featureType(list) };
  if (Array.isArray(list)) return { type: 'list', item: featuresToArrow(list as Feature[]) };
  return { type: 'list', item: featureType(list as Feature) };
}

/** The Arrow struct type a features list declares. */
export function featuresToArrow(features: Feature[]): ArrowType {
  return { type: 'struct', fields: new Map(features.map((f) => [f.name, featureType(f)])) };
}

const globToRegExp = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')}$`);

/** The files of a config's split, relative to the folder. */
export function dataFiles(dir: string, patterns: string | string[]): string[] {
  const all = (fs.readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split(path.sep).join('/'));
  return (Array.isArray(patterns) ? patterns : [patterns]).flatMap((pattern) => all.filter((file) => globToRegExp(pattern).test(file))).sort();
}

/** Packaged builders by the extensions they read (datasets `_MODULE_TO_EXTENSIONS`, the ones an export could hold). */
const BUILDER_EXTENSIONS: Record<string, string[]> = {
  json: ['.json', '.jsonl'],
  csv: ['.csv'],
  parquet: ['.parquet'],
  text: ['.txt'],
  imagefolder: ['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff'],
  pdffolder: ['.pdf'],
};

/**
 * The one builder `datasets` uses for every config of a card (huggingface/datasets `load.py`,
 * `LocalDatasetModuleFactory.get_module`: the module is inferred once, from the first config's data files — the most
 * common extension — and every config is built with it), and the config files that builder cannot read, which is
 * where `load_dataset(DIR, CONFIG)` fails.
 */
export function cardBuilder(dir: string): { builder: string; unreadable: { config: string; file: string }[] } {
  const { configs } = cardConfigs(dir);
  const filesOf = (config: CardConfigs['configs'][number]) => config.data_files.flatMap((split) => dataFiles(dir, split.path));
  const counts = new Map<string, number>();
  for (const file of filesOf(configs[0]!)) {
    const builder = Object.keys(BUILDER_EXTENSIONS).find((name) => BUILDER_EXTENSIONS[name]!.includes(path.extname(file).toLowerCase()));
    if (builder) counts.set(builder, (counts.get(builder) ?? 0) + 1);
  }
  const builder = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!builder) throw new Error(`README.md: no file of config ${configs[0]!.config_name} is one a builder reads`);
  const unreadable = configs.flatMap((config) =>
    filesOf(config)
      .filter((file) => !BUILDER_EXTENSIONS[builder]!.includes(path.extname(file).toLowerCase()))
      .map((file) => ({ config: config.config_name, file })),
  );
  return { builder, unreadable };
}

export function imagefolderRows(dir: string, patterns: string | string[]): { image: string; metadata: Record<string, unknown> }[] {
  const files = dataFiles(dir, patterns);
  const images = new Set(files.filter((f) => /\.(png|jpe?g|webp|tiff?)$/i.test(f)));
  const rows: { image: string; metadata: Record<string, unknown> }[] = [];
  for (const metadataFile of files.filter((f) => path.basename(f) === 'metadata.jsonl')) {
    const folder = path.posix.dirname(metadataFile);
    for (const line of fs.readFileSync(path.join(dir, metadataFile), 'utf8').split('\n').filter(Boolean)) {
      const metadata = JSON.parse(line) as Record<string, unknown>;
      const image = path.posix.join(folder, String(metadata.file_name));
      if (!images.has(image)) throw new Error(`${metadataFile}: ${String(metadata.file_name)} is not among the data files`);
      rows.push({ image, metadata });
    }
  }
  return rows;
}

export function llamaFactorySamples(datasetDir: string, name: string, mediaDir = datasetDir): { images: string[]; messages: { role: string; content: string }[] }[] {
  const info = JSON.parse(fs.readFileSync(path.join(datasetDir, 'dataset_info.json'), 'utf8')) as Record<string, {
    file_name: string;
    formatting?: string;
    columns?: { messages?: string; images?: string };
    tags?: { role_tag?: string; content_tag?: string; user_tag?: string; assistant_tag?: string };
  }>;
  const attr = info[name];
  if (!attr) throw new Error(`Undefined dataset ${name} in dataset_info.json.`);
  if (attr.formatting !== 'sharegpt') throw new Error(`${name}: formatting ${attr.formatting ?? 'alpaca'}`);
  const tags = { role_tag: 'from', content_tag: 'value', user_tag: 'human', assistant_tag: 'gpt', ...attr.tags };
  const columns = { messages: 'conversations', images: undefined as string | undefined, ...attr.columns };
  const lines = fs.readFileSync(path.join(datasetDir, attr.file_name), 'utf8').split('\n').filter(Boolean);
  return lines.map((line, index) => {
    const example = JSON.parse(line) as Record<string, unknown>;
    const messages = (example[columns.messages] as Record<string, string>[]).map((m) => ({ role: m[tags.role_tag]!, content: m[tags.content_tag]! }));
    messages.forEach((m, turn) => {
      const expected = turn % 2 === 0 ? tags.user_tag : tags.assistant_tag;
      if (m.role !== expected) throw new Error(`${attr.file_name}:${index + 1}: invalid role tag in turn ${turn}`);
    });
    const images = columns.images ? ((example[columns.images] as string[]) ?? []) : [];
    const placeholders = messages.reduce((n, m) => n + m.content.split('<image>').length - 1, 0);
    if (placeholders !== images.length) throw new Error(`${attr.file_name}:${index + 1}: ${placeholders} <image> tokens for ${images.length} images`);
    const resolved = images.map((image) => path.join(mediaDir, image));
    for (const file of resolved) if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new Error(`${file} does not exist`);
    return { images: resolved, messages };
  });
}
