/**
 * The engines this installation offers. The bundled CPU engine is always there; the vision-language engine is
 * offered when a model pack is configured (--pack, RECTO_PACK); the remote engine when endpoints are (--endpoint, or
 * `remote` in the settings file).
 */
import path from 'node:path';
import { BundledEngine } from '../../native-models/bundled/index.js';
import { RemoteEngine, type RemoteEngineOptions } from '../../native-models/remote/index.js';
import { VlmEngine, type DecoderKind, type ProviderPreference } from '../../native-models/vlm/index.js';
import { EngineRegistry, type EngineFactory } from '../engines/engineRegistry.js';

export interface EngineOptions {
  /** Folder of a jina-ocr-v1 model pack for the VLM engine (else RECTO_PACK). */
  packDir?: string;
  /** Execution provider preference for the VLM engine (else RECTO_PROVIDER, else auto). */
  provider?: ProviderPreference;
  /** Greedy or FastMTP decoding (else fastmtp). */
  decoder?: DecoderKind;
  /** FastMTP draft depth K. */
  draftDepth?: number;
  /** OpenAI-compatible servers for the remote engine (--endpoint, or the settings file); offered when given. */
  remote?: RemoteEngineOptions;
  /** Extra or replacement engines (tests). */
  extraEngines?: EngineFactory[];
}

function bundledEngineFactory(): EngineFactory {
  // Constructing the engine starts nothing (OCR workers start on the first scanned page), so one serves as the
  // descriptor; each create() gets a fresh engine because dispose() ends an engine's workers for good.
  const descriptor = new BundledEngine().descriptor;
  return { descriptor: () => descriptor, create: async () => new BundledEngine() };
}

/** The vision-language engine over a model pack; its descriptor says why it is unavailable when the pack is bad. */
function vlmEngineFactory(options: EngineOptions & { packDir: string }): EngineFactory {
  const settings = {
    packDir: path.resolve(options.packDir),
    provider: options.provider ?? (process.env.RECTO_PROVIDER as ProviderPreference | undefined) ?? 'auto',
    decoder: options.decoder ?? 'fastmtp',
    draftDepth: options.draftDepth,
  };
  const descriptor = new VlmEngine(settings).descriptor;
  return { descriptor: () => descriptor, create: async () => new VlmEngine(settings) };
}

/** The remote engine over its endpoints; one instance for the session, as its endpoint pool is shared by all reads. */
function remoteEngineFactory(options: RemoteEngineOptions): EngineFactory {
  const descriptor = new RemoteEngine(options).descriptor;
  return { descriptor: () => descriptor, create: async () => new RemoteEngine(options) };
}

export function createEngineRegistry(options: EngineOptions): EngineRegistry {
  const factories = new Map<string, EngineFactory>();
  const add = (factory: EngineFactory) => factories.set(factory.descriptor().id, factory);
  add(bundledEngineFactory());
  const packDir = options.packDir ?? process.env.RECTO_PACK;
  if (packDir) add(vlmEngineFactory({ ...options, packDir }));
  if (options.remote && options.remote.endpoints.length > 0) add(remoteEngineFactory(options.remote));
  for (const factory of options.extraEngines ?? []) add(factory);
  return new EngineRegistry(factories);
}
