/**
 * Contract of the JSONL files with table readers that type columns from the first block they read (Hugging Face
 * `datasets` over Arrow's JSON reader; testing/toolReaders/arrowJson.ts follows their code): a 20 MB export of pages
 * read by every engine Recto has — each with its own settings and statistics — loads as one table, alone and
 * together with another export; the same records written as plain JSON.stringify do not (the reader can fail).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Extraction } from '../../app/model/extraction.js';
import { correctPage, invoicePage } from '../../testing/corpusFixtures.js';
import { differingKeys, loadJsonLikeDatasets } from '../../testing/toolReaders/arrowJson.js';
import { cardConfigs, featuresToArrow } from '../../testing/toolReaders/hubReaders.js';
import { ProjectStore } from '../store/projectStore.js';
import { parseCorpusRecordLine } from './corpusRecord.js';
import { exportCorpus } from './exportCorpus.js';

/** The size `datasets` reads a JSON file in: features come from the first batch of this many bytes. */
const DATASETS_CHUNK_BYTES = 10 << 20;
/** The export the issue reported failing: over two batches. */
const EXPORT_BYTES = 20 << 20;

/** Each engine's settings and statistics as the engine writes them (native-models/… and the text layer). */
const engines: Record<string, (page: number) => Pick<Extraction, 'engine' | 'stats' | 'words'>> = {
  tesseract: (page) => ({
    engine: { id: 'bundled', name: 'Bundled OCR', version: '1.4.0', packSha256: null, licence: 'Apache-2.0', provider: 'tesseract', settings: { source: 'tesseract', language: 'deu+eng', data: 'tessdata', oem: 'LSTM_ONLY', preprocess: 'greyscale+normalise+deskew', skewDegrees: page % 3 === 0 ? 0 : 0.4, orientationDegrees: 0, pageSegmentationMode: 3, dpi: 300 } },
    stats: { durationMs: 812 },
    // Word confidences: some exactly 1 (JSON.stringify writes `1`), most fractional.
    words: Array.from({ length: 120 }, (_, i) => ({ text: `word${i}`, box: [10 + i, 20, 60 + i, 40] as [number, number, number, number], confidence: i % 5 === 0 ? 1 : 0.87 })),
  }),
  textLayer: () => ({
    engine: { id: 'bundled', name: 'Bundled OCR', version: '1.4.0', packSha256: null, licence: 'Apache-2.0', provider: 'text-layer', settings: { source: 'text-layer' } },
    stats: { durationMs: 35 },
  }),
  remote: (page) => ({
    engine: { id: 'remote', name: 'jina-ocr-v1 (remote)', version: '1', packSha256: null, licence: null, provider: 'remote', settings: { endpoint: 'http://gpu:8000/v1', model: 'jina-ocr-v1', requestedModel: 'jina-ocr-v1', stream: true, attempts: 1, finishReason: 'stop', promptTokens: page % 2 ? null : 812, timings: { queuedMs: 3, headersMs: 40, firstTextMs: 90, requestMs: 2400 } } },
    stats: { durationMs: 2410.5, tokens: 640, tokensPerSecond: 266.7, hitMaxTokens: false },
  }),
  vlm: () => ({
    engine: { id: 'vlm', name: 'jina-ocr-v1 (FastMTP K=3)', version: '1+2', packSha256: 'cd'.repeat(32), licence: 'CC-BY-NC-4.0', provider: 'cpu', settings: { imageMode: 'base', decoder: 'fastmtp', draftDepth: 3, maxNewTokens: 4096, visualTokens: 273, promptTokens: 280 } },
    stats: { durationMs: 9000, tokens: 700, tokensPerSecond: 77.7, meanAcceptedLength: 2.4, acceptancePerPosition: [0.9, 0.7, 0.5], hitMaxTokens: false },
  }),
};

/** Adds `pages` pages read by `engine`, every `correctEvery`-th corrected (0: none). */
function addDocument(store: ProjectStore, name: string, engine: keyof typeof engines, pages: number, correctEvery: number): void {
  const bytes = Buffer.from(`${name} ${pages}`);
  const added = store.documents.addDocument({
    sha256: createHash('sha256').update(bytes).digest('hex'),
    name,
    mediaType: 'application/pdf',
    bytes,
    pages: Array.from({ length: pages }, (_, i) => ({ pageNumber: i + 1, width: 1240, height: 1754, dpi: 150, textLayer: null })),
  });
  added!.pages.forEach((page, i) => {
    const fixture = invoicePage(i);
    store.readings.saveExtraction(page.id, { markdown: fixture.markdown, elements: fixture.elements, page: { width: 1240, height: 1754 }, warnings: [], ...engines[engine]!(i) }, new Date());
    if (correctEvery > 0 && i % correctEvery === 0) store.revisions.saveRevision(page.id, correctPage(fixture.markdown, ['table', 'text']), 'Ana Analyst', null);
  });
}

describe('records.jsonl as table readers type it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-tables-'));
  let store: ProjectStore;
  let small: ProjectStore;

  beforeAll(async () => {
    // Document order (= record order): pages nobody corrected, read by the bundled engine, fill the first batch; the
    // remote and VLM pages, corrected (scores below 1), come after it.
    // Record ids sort by the source's hash, so the documents are named until their hashes sort in this order.
    store = ProjectStore.create(path.join(dir, 'big.recto'));
    const plan: [keyof typeof engines, number, number][] = [
      ['tesseract', 1000, 0],
      ['textLayer', 200, 0],
      ['remote', 500, 3],
      ['vlm', 500, 2],
      ['tesseract', 300, 4],
    ];
    let previous = '';
    for (const [index, [engine, pages, correctEvery]] of plan.entries()) {
      let name = '';
      for (let attempt = 0; ; attempt++) {
        name = `${index}-${engine}-${attempt}.pdf`;
        const hash = createHash('sha256').update(`${name} ${pages}`).digest('hex');
        if (hash > previous) {
          previous = hash;
          break;
        }
      }
      addDocument(store, name, engine, pages, correctEvery);
    }
    await exportCorpus(store, { outDir: path.join(dir, 'big'), images: 'none' });
    small = ProjectStore.create(path.join(dir, 'small.recto'));
    addDocument(small, 'other.pdf', 'textLayer', 20, 0);
    await exportCorpus(small, { outDir: path.join(dir, 'small'), images: 'none' });
  }, 600_000);
  afterAll(() => {
    store.close();
    small.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a 20 MB export of every engine loads as one table: every object the same keys, every number column one type', () => {
    const file = path.join(dir, 'big', 'records.jsonl');
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(EXPORT_BYTES);
    expect(differingKeys(file)).toBeNull();
    // Typed from the first batch, every column it saw a value in takes every later batch; the only columns that do
    // not are those the first 10 MB has no value in at all (no page read with a model pack), which the card declares.
    const nullFirst = new Set<string>();
    const loaded = loadJsonLikeDatasets([file], DATASETS_CHUNK_BYTES, null, nullFirst);
    const first = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    for (const column of nullFirst) {
      const value = column.replace(/\[\]$/, '').split('/').filter(Boolean).reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], first);
      expect(value === null || (Array.isArray(value) && value.length === 0), column).toBe(true);
    }
    expect(loaded.batches).toBeGreaterThan(1);
    expect(loaded.rows).toBe(fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length);
    expect(differingKeys(path.join(dir, 'big', 'fields.jsonl'))).toBeNull();
    // And under the features the data card declares (load_dataset on the folder).
    const declared = cardConfigs(path.join(dir, 'big')).dataset_info.find((c) => c.config_name === 'default')!.features;
    expect(loadJsonLikeDatasets([file], DATASETS_CHUNK_BYTES, featuresToArrow(declared)).rows).toBe(loaded.rows);
  });

  it('loads together with another export under the features its data card declares (the same in every export)', () => {
    const features = (name: string) => cardConfigs(path.join(dir, name)).dataset_info.find((c) => c.config_name === 'default')!.features;
    expect(features('small')).toEqual(features('big'));
    const files = [path.join(dir, 'small', 'records.jsonl'), path.join(dir, 'big', 'records.jsonl')];
    const loaded = loadJsonLikeDatasets(files, DATASETS_CHUNK_BYTES, featuresToArrow(features('big')));
    expect(loaded.rows).toBeGreaterThan(2000);
    // Without declared features the first file's types rule: a column that export has only nulls in (no engine
    // with a pack) cannot take the other's values — why the card declares them (docs/corpus-format.md).
    expect(() => loadJsonLikeDatasets(files, DATASETS_CHUNK_BYTES)).toThrow(/Couldn't cast array of type .* to null/);
  });

  it('the same records written as plain JSON do not load (what the reader catches)', () => {
    const file = path.join(dir, 'big', 'records.jsonl');
    const plain = path.join(dir, 'plain.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    fs.writeFileSync(plain, lines.map((line) => `${JSON.stringify(parseCorpusRecordLine(line))}\n`).join(''));
    expect(differingKeys(plain)).not.toBeNull();
    expect(() => loadJsonLikeDatasets([plain], DATASETS_CHUNK_BYTES, null, new Set())).toThrow(/Couldn't cast|changed from/);
  });
});
