import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectFile } from '../composition/createRectoSession.js';
import { PageImageCache } from '../services/pageImageCache.js';
import { ProjectStore } from '../store/projectStore.js';
import { makeRealInvoiceProject, realInvoices, realInvoicesAvailable } from '../../testing/realInvoiceProject.js';
import { GROUNDING_SCALE, parseGroundingOutput } from '../../app/grounding/groundingParser.js';
import { parseCorpusRecordLine, upgradeRecord } from './corpusRecord.js';
import { loadJsonLikeDatasets } from '../../testing/toolReaders/arrowJson.js';
import { cardConfigs, featuresToArrow, imagefolderRows, llamaFactorySamples } from '../../testing/toolReaders/hubReaders.js';
import { CorpusExportRefusedError, exportCorpus } from './exportCorpus.js';
import { importCorpus } from './importCorpus.js';
import { projectPageImages } from './pageImages.js';
import { defaultDocumentPrompt, trainingFormatFiles, type TrainingFormat } from './trainingFormats.js';

if (!realInvoicesAvailable) console.log(`SKIPPED: training export formats on real invoices: ${realInvoices.join(' or ')} absent`);

/** The small readers a training tool would be: each checks the layout it relies on. */
function readJsonl(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function readFrontMatter(file: string): { meta: Record<string, string>; text: string } {
  const content = fs.readFileSync(file, 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(content);
  if (!match) throw new Error(`${file}: no YAML front matter`);
  const meta = Object.fromEntries(match[1]!.split('\n').map((line) => line.split(': ') as [string, string]));
  return { meta, text: match[2]! };
}

describe.skipIf(!realInvoicesAvailable)('training export formats on a project of real invoices', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-formats-'));
  let store: ProjectStore;
  let corrected: string[] = [];
  const exportAs = (format: TrainingFormat, images: 'png' | 'none' = 'png') =>
    exportCorpus(store, {
      outDir: path.join(dir, `out-${format}-${images}`),
      images,
      format,
      pageImage: projectPageImages(store, new PageImageCache(path.join(dir, 'cache'), inspectFile)),
    });

  beforeAll(async () => {
    // Two pages corrected (one a word, one a table cell), the rest left as read.
    const made = await makeRealInvoiceProject(dir, (markdown, index) => {
      if (index === 0) return markdown.replace(/\b(\w{5,})\b/, '$1 (checked)');
      if (index === 2) return markdown.includes('</td>') ? markdown.replace('</td>', ' corrected</td>') : `${markdown}\n\nCorrected.`;
      return null;
    });
    corrected = [made.pages[0]!.id, made.pages[2]!.id];
    store = ProjectStore.open(made.project);
  }, 300_000);
  afterAll(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records: free-shape engine values as JSON text (one column type for every engine), and imported back', async () => {
    const summary = await exportAs('records');
    const out = path.join(dir, 'out-records-png');
    const lines = readJsonl(path.join(out, 'records.jsonl'));
    expect(lines.length).toBe(summary.records);
    for (const line of lines) {
      const engine = line.engine as Record<string, unknown>;
      expect(typeof engine.settings).toBe('string');
      expect(typeof engine.stats).toBe('string');
      expect(Array.isArray(engine.warnings)).toBe(true);
      const record = parseCorpusRecordLine(JSON.stringify(line));
      expect(typeof record.engine.settings).toBe('object');
      expect(Object.keys(record.engine).some((key) => key.endsWith('_json'))).toBe(false);
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ version: 3, training_format: 'records' });
    const target = ProjectStore.create(path.join(dir, 'imported.recto'));
    try {
      const imported = importCorpus(target, out);
      expect(imported.problems).toEqual([]);
      expect(imported.pagesAdded).toBe(lines.length);
      expect(imported.revisionsAdded).toBe(corrected.length);
    } finally {
      target.close();
    }
  }, 120_000);

  it('chat: every line has a user turn with the image and prompt and an assistant turn; every image exists', async () => {
    await exportAs('chat');
    const out = path.join(dir, 'out-chat-png');
    const lines = readJsonl(path.join(out, 'chat.jsonl'));
    expect(lines.length).toBeGreaterThan(0);
    const records = new Map(readJsonl(path.join(out, 'records.jsonl')).map((r) => [r.id, r]));
    for (const line of lines) {
      const messages = line.messages as { role: string; content: string }[];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      // The grounding prompt goes with a grounded answer: parsed as the model's output, it gives back the corrected
      // text and the record's element boxes (to a cell of the model's 0–999 grid).
      const record = parseCorpusRecordLine(JSON.stringify(records.get(line.id)));
      expect(messages[0]!.content).toBe(`<image>${defaultDocumentPrompt}`);
      const parsed = parseGroundingOutput(messages[1]!.content, record.element_page);
      expect(parsed.warnings).toEqual([]);
      expect(parsed.markdown).toBe(record.corrected_markdown);
      expect(parsed.elements.length).toBeGreaterThan(0);
      const cell = Math.max(record.element_page.width, record.element_page.height) / GROUNDING_SCALE;
      for (const element of parsed.elements) {
        const source = record.elements.find((e) => e.box.every((v, k) => Math.abs(v - element.box[k]!) <= cell));
        expect(source, JSON.stringify(element.box)).toBeDefined();
      }
      const images = line.images as string[];
      expect(images).toHaveLength(1);
      expect(fs.statSync(path.join(out, images[0]!)).isFile()).toBe(true);
    }
    expect(fs.readFileSync(path.join(out, 'README.md'), 'utf8')).toContain('Training format: chat');
  }, 120_000);

  it('chat: LLaMA-Factory, imagefolder and the data card take the folder as it is, from any working folder', async () => {
    const out = path.join(dir, 'out-chat-png');
    const records = readJsonl(path.join(out, 'records.jsonl'));
    // LLaMA-Factory: dataset_info.json in the dataset folder, images under its media_dir (= the dataset folder).
    const samples = llamaFactorySamples(out, 'recto_chat');
    expect(samples).toHaveLength(readJsonl(path.join(out, 'chat.jsonl')).length);
    // imagefolder on images/: metadata.jsonl names each image relative to itself; the card's "pages" config reads
    // the same file as JSON (one builder for all of a card's configs: main/corpus/datasetsLoad.test.ts).
    const card = cardConfigs(out);
    const pages = card.configs.find((c) => c.config_name === 'pages')!;
    expect(pages.data_files[0]!.path).toBe('images/metadata.jsonl');
    const rows = imagefolderRows(path.join(out, 'images'), ['*.png', 'metadata.jsonl']);
    expect(rows.map((r) => r.metadata.id).sort()).toEqual(records.map((r) => r.id).sort());
    const features = card.dataset_info.find((c) => c.config_name === 'pages')!.features;
    expect(features[0]).toEqual({ name: 'file_name', dtype: 'string' });
    // The records config's declared features type every column of records.jsonl.
    const declared = featuresToArrow(card.dataset_info.find((c) => c.config_name === 'default')!.features);
    expect(loadJsonLikeDatasets([path.join(out, 'records.jsonl')], 10 << 20, declared).rows).toBe(records.length);
    const testsFeatures = card.dataset_info.find((c) => c.config_name === 'tests');
    if (testsFeatures) expect(loadJsonLikeDatasets([path.join(out, 'tests.jsonl')], 10 << 20, featuresToArrow(testsFeatures.features)).rows).toBeGreaterThan(0);
  });

  it('olmocr: a .md with the front matter olmOCR reads beside every PNG', async () => {
    await exportAs('olmocr');
    const images = path.join(dir, 'out-olmocr-png', 'images');
    const pngs = fs.readdirSync(images).filter((name) => name.endsWith('.png'));
    expect(pngs.length).toBeGreaterThan(0);
    for (const png of pngs) {
      const { meta, text } = readFrontMatter(path.join(images, png.replace(/\.png$/, '.md')));
      expect(Object.keys(meta)).toEqual(['primary_language', 'is_rotation_valid', 'rotation_correction', 'is_table', 'is_diagram']);
      expect(['true', 'false']).toContain(meta.is_table);
      expect(text.length).toBeGreaterThan(0);
    }
    // These invoices are in German (QualityHosting) and English (AWS).
    const languages = pngs.map((png) => readFrontMatter(path.join(images, png.replace(/\.png$/, '.md'))).meta.primary_language);
    expect(languages).toContain('de');
    expect(languages).toContain('en');
  }, 120_000);

  it('pairs: one line per corrected page with chosen, rejected and the reward terms', async () => {
    await exportAs('pairs', 'none');
    const lines = readJsonl(path.join(dir, 'out-pairs-none', 'pairs.jsonl'));
    expect(lines).toHaveLength(corrected.length);
    for (const line of lines) {
      expect(line.chosen).not.toBe(line.rejected);
      expect(line.prompt).toBe(defaultDocumentPrompt);
      expect(line.chosen).toContain('<|det|>');
      expect(line.rejected).toContain('<|det|>');
      const reward = line.reward as { score: number; terms: Record<string, number> };
      expect(reward.score).toBeGreaterThan(0);
      expect(reward.score).toBeLessThan(1);
      for (const value of Object.values(reward.terms)) expect(value).toBeLessThanOrEqual(1);
    }
  }, 120_000);

  it('refuses chat without images, writing nothing', async () => {
    await expect(exportAs('chat', 'none')).rejects.toThrow(CorpusExportRefusedError);
    expect(fs.existsSync(path.join(dir, 'out-chat-none'))).toBe(false);
  });
});

describe('format version 1 records', () => {
  it('are read as version 2 (JSON strings become nested values)', () => {
    const legacy = { id: 'x', engine: { settings_json: '{"a":1}', stats_json: '{}', words_json: null, fields_json: '{"total":3}', warnings_json: '["w"]', name: 'e' } };
    expect(upgradeRecord(legacy)).toEqual({ id: 'x', engine: { settings: { a: 1 }, stats: {}, words: null, fields: { total: 3 }, warnings: ['w'], name: 'e' } });
  });
});

describe('olmocr primary_language', () => {
  it("takes the document's language where a page alone cannot tell", () => {
    const page = (id: string, text: string) =>
      ({ id, image: `images/${id}.png`, corrected_markdown: text, engine_markdown: text, elements: [], source: { document_id: 'doc-1' } }) as unknown as Parameters<typeof trainingFormatFiles>[1][number];
    const files = trainingFormatFiles('olmocr', [
      page('a_p0001', 'Die Rechnung für die Lieferung der Ware und die Leistung ist mit dem Betrag von der Firma zu zahlen.'),
      page('a_p0002', 'Summe netto 12,00 EUR'),
    ]);
    expect(files.map((f) => /primary_language: (\S+)/.exec(f.content)![1])).toEqual(['de', 'de']);
  });
});
