/**
 * Small stand-ins for tests of the session and shells: an engine that echoes the text layer, and an importer that
 * accepts files starting with "PAGES n" (and rejects anything else, naming the file), so that tests of the
 * plumbing need neither pdf.js nor OCR.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Engine, PageInput } from '../app/model/engine.js';
import type { Extraction } from '../app/model/extraction.js';
import type { EngineFactory } from '../main/engines/engineRegistry.js';
import type { InspectFile } from '../main/services/documentImporter.js';

// 1×1 transparent PNG.
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export const fakeInspect: InspectFile = async (filePath, outDir, displayName) => {
  const bytes = fs.readFileSync(filePath);
  const match = /^PAGES (\d+)/.exec(bytes.toString('latin1'));
  if (!match) throw new Error(`${displayName ?? path.basename(filePath)}: not a test document`);
  const count = Number(match[1]);
  const pages = Array.from({ length: count }, (_, index) => {
    const imagePath = path.join(outDir, `${index + 1}.png`);
    fs.writeFileSync(imagePath, tinyPng);
    return {
      pageNumber: index + 1,
      width: 100,
      height: 140,
      dpi: 144,
      imagePath,
      textLayer: { words: [{ text: `word-${index + 1}`, box: [1, 1, 50, 10] as [number, number, number, number], fontSize: 9 }] },
    };
  });
  return { sha256: createHash('sha256').update(bytes).digest('hex'), mediaType: 'application/pdf', pages };
};

export class EchoEngine implements Engine {
  readonly descriptor = { id: 'echo', name: 'Echo', version: '1', licence: null, available: true };
  pagesRead = 0;
  constructor(private readonly delayMs = 0) {}

  async read(input: PageInput, options: { signal?: AbortSignal } = {}): Promise<Extraction> {
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (options.signal?.aborted) throw new Error('cancelled');
    if (input.textLayer?.words.some((w) => w.text === 'word-fail')) throw new Error(`${input.label}: cannot read`);
    this.pagesRead += 1;
    const text = input.textLayer?.words.map((w) => w.text).join(' ') ?? '';
    return {
      markdown: text,
      elements: [{ id: 'e0', kind: 'text', box: [1, 1, 50, 10], span: [0, text.length], confidence: 1 }],
      page: { width: input.width, height: input.height },
      engine: { id: 'echo', name: 'Echo', version: '1', packSha256: null, licence: null, provider: 'test', settings: {} },
      stats: { durationMs: this.delayMs },
      warnings: [],
    };
  }

  async dispose(): Promise<void> {}
}

export function echoEngineFactory(engine = new EchoEngine()): EngineFactory {
  return { descriptor: () => engine.descriptor, create: async () => engine };
}
