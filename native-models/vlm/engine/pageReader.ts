/**
 * One page through the pack: page image → views → vision encoder → visual embeddings in DeepSeek-OCR's layout →
 * prompt embeddings → greedy or FastMTP decoding → text. Runs inside the engine worker (session.run blocks its thread).
 */
import { createDecodeModels, decodeOptionsFor } from '../decoding/decodeModels.js';
import { acceptanceRates, type DecodeModels, type DecodeStats, meanAcceptedLength } from '../decoding/decodeTypes.js';
import { fastMtpDecode } from '../decoding/fastMtpDecode.js';
import { greedyDecode } from '../decoding/greedyDecode.js';
import { loadPack, type LoadedPack } from '../pack/loadPack.js';
import { tensorNames } from '../pack/packContract.js';
import { imageModes, type ImageModeName, imageTokenCount } from '../preprocess/imageModes.js';
import { prepareViews } from '../preprocess/pageImage.js';
import { layoutVisualEmbeddings } from '../preprocess/visualLayout.js';
import { floatTensor, type ProviderPreference } from '../runtime/onnxRuntime.js';
import { PackTokenizer, TextStreamer } from '../tokenizer.js';

export type DecoderKind = 'greedy' | 'fastmtp';

export interface ReadSettings {
  imageMode: ImageModeName;
  decoder: DecoderKind;
  /** FastMTP draft depth K. */
  draftDepth: number;
  maxNewTokens: number;
  /** Replaces the pack's prompt (served requests); `<image>` marks where the visual tokens go. */
  prompt?: string;
}

export interface PageText {
  text: string;
  tokens: number;
  hitMaxTokens: boolean;
  cancelled: boolean;
  visualTokens: number;
  promptTokens: number;
  durationMs: number;
  decodeMs: number;
  /** FastMTP only. */
  meanAcceptedLength?: number;
  acceptancePerPosition?: number[];
  raw: DecodeStats;
}

/** Statistics while a page decodes. */
export interface LiveStats {
  tokens: number;
  maxNewTokens: number;
  elapsedMs: number;
  tokensPerSecond: number;
  meanAcceptedLength?: number;
  acceptancePerPosition?: number[];
}

export interface ReadHooks {
  onText?: (text: string) => void;
  /** After every decoding step. */
  onStats?: (stats: LiveStats) => void;
  shouldStop?: () => boolean;
}

export interface PackInfo {
  name: string;
  version: string;
  licence: string;
  manifestSha256: string;
  provider: string;
  warnings: string[];
  defaults: ReadSettings;
  /** Positions of the decoder's table: prompt, image and answer together (a served prompt is bounded by it). */
  maxPositions: number;
}

/** How the error for a prompt that the position table cannot hold begins (the /v1 routes answer it with a 400). */
export const PROMPT_TOO_LONG = 'prompt too long';
/** Positions kept free for the answer: a prompt that leaves fewer is refused before the model runs. */
const MIN_ANSWER_POSITIONS = 16;

export class PageReader {
  private constructor(
    private readonly pack: LoadedPack,
    private readonly models: DecodeModels,
    private readonly tokenizer: PackTokenizer,
  ) {}

  static async open(packDir: string, options: { provider: ProviderPreference; threads?: number }): Promise<PageReader> {
    const pack = await loadPack(packDir, { provider: options.provider, intraOpThreads: options.threads });
    return new PageReader(pack, createDecodeModels(pack), new PackTokenizer(pack.tokenizerJson, `${packDir}/tokenizer.json`));
  }

  get info(): PackInfo {
    const m = this.pack.manifest;
    return {
      name: m.name,
      version: m.version,
      licence: m.licence,
      manifestSha256: this.pack.manifestSha256,
      provider: this.pack.provider,
      warnings: this.pack.warnings,
      defaults: { imageMode: m.defaultImageMode, decoder: 'fastmtp', draftDepth: m.draftDepth, maxNewTokens: m.maxNewTokens },
      maxPositions: m.maxPositions,
    };
  }

  async read(imagePath: string, settings: ReadSettings, hooks: ReadHooks = {}): Promise<PageText> {
    const start = performance.now();
    const { embeds, length, visualTokens } = await this.promptEmbeddings(imagePath, settings.imageMode, settings.prompt ?? this.pack.manifest.prompt);
    const streamer = new TextStreamer(this.tokenizer, (text) => hooks.onText?.(text));
    // The decoder cannot go past its position table: a page that would is cut there and flagged like max tokens.
    const maxNewTokens = Math.max(1, Math.min(settings.maxNewTokens, this.pack.manifest.maxPositions - length - settings.draftDepth - 1));
    const fastMtp = settings.decoder === 'fastmtp';
    const decodeStart = performance.now();
    const options = decodeOptionsFor(this.pack, {
      maxNewTokens,
      onToken: (t) => streamer.push(t),
      shouldStop: hooks.shouldStop,
      onStep: (stats, tokens) =>
        hooks.onStats?.({
          tokens,
          maxNewTokens,
          elapsedMs: performance.now() - start,
          // since decoding began, prefill included: what the user waits for
          tokensPerSecond: (tokens / Math.max(1, performance.now() - decodeStart)) * 1000,
          ...(fastMtp ? { meanAcceptedLength: meanAcceptedLength(stats), acceptancePerPosition: acceptanceRates(stats) } : {}),
        }),
    });
    const result =
      settings.decoder === 'fastmtp'
        ? await fastMtpDecode(this.models, embeds, length, settings.draftDepth, options)
        : await greedyDecode(this.models, embeds, length, options);
    streamer.flush();
    const fast = settings.decoder === 'fastmtp';
    return {
      text: this.tokenizer.decode(result.tokens),
      tokens: result.tokens.length,
      hitMaxTokens: result.hitMaxTokens,
      cancelled: result.cancelled,
      visualTokens,
      promptTokens: length,
      durationMs: performance.now() - start,
      decodeMs: result.stats.decodeMs,
      ...(fast ? { meanAcceptedLength: meanAcceptedLength(result.stats), acceptancePerPosition: acceptanceRates(result.stats) } : {}),
      raw: result.stats,
    };
  }

  /** BOS + text before `<image>` + visual embeddings + text after it. [length × H] */
  private async promptEmbeddings(imagePath: string, modeName: ImageModeName, prompt: string): Promise<{ embeds: Float32Array; length: number; visualTokens: number }> {
    const mode = imageModes[modeName];
    const views = await prepareViews(imagePath, mode);
    // The text is tokenized and counted with the image's tokens before the vision graph runs: a prompt the position
    // table cannot hold is refused here in plain words, not by onnxruntime after seconds of work.
    const [before, after = ''] = prompt.split('<image>');
    const headIds = [this.pack.manifest.specialTokens.bos, ...this.tokenizer.encode(before ?? '')];
    const tailIds = this.tokenizer.encode(after);
    const positions = headIds.length + imageTokenCount(mode, views.grid) + tailIds.length;
    const maxPositions = this.pack.manifest.maxPositions;
    if (positions + MIN_ANSWER_POSITIONS > maxPositions) {
      throw new Error(`${PROMPT_TOO_LONG}: the prompt and the image take ${positions} positions; the model has ${maxPositions}, and ${MIN_ANSWER_POSITIONS} are kept for the answer`);
    }
    const H = this.pack.manifest.dims.hidden;
    const vision = this.pack.sessions.vision;
    const global = await vision.run({ [tensorNames.vision.pixelValues]: floatTensor(views.global.data, [1, 3, views.global.size, views.global.size]) });
    const features = global[tensorNames.vision.imageFeatures]!;
    let tiles: { data: Float32Array; side: number } | null = null;
    if (views.tiles) {
      const t = views.tiles;
      const out = await vision.run({ [tensorNames.vision.pixelValues]: floatTensor(t.data, [t.count, 3, t.size, t.size]) });
      const tileFeatures = out[tensorNames.vision.imageFeatures]!;
      tiles = { data: tileFeatures.data as Float32Array, side: tileFeatures.dims[1]! };
    }
    const visual = layoutVisualEmbeddings({
      global: { data: features.data as Float32Array, side: features.dims[1]! },
      tiles,
      grid: views.grid,
      newline: global[tensorNames.vision.imageNewline]!.data as Float32Array,
      separator: global[tensorNames.vision.viewSeparator]!.data as Float32Array,
      hidden: H,
    });
    const visualTokens = visual.length / H;
    const expected = imageTokenCount(mode, views.grid);
    if (visualTokens !== expected) {
      throw new Error(`vision encoder gave ${visualTokens} visual tokens where ${modeName} mode needs ${expected}; the pack's vision graph does not match DeepSeek-OCR's 16× compression`);
    }
    const head = await this.models.embedder.embed(headIds);
    const tail = await this.models.embedder.embed(tailIds);
    const embeds = new Float32Array(head.length + visual.length + tail.length);
    embeds.set(head, 0);
    embeds.set(visual, head.length);
    embeds.set(tail, head.length + visual.length);
    return { embeds, length: embeds.length / H, visualTokens };
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.pack.sessions).map((s) => s.release()));
  }
}
