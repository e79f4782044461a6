/**
 * The engines this installation offers. The bundled CPU engine is always there; the vision-language engine is
 * offered when a model pack is configured (--pack, RECTO_PACK).
 */
import { BundledEngine } from '../../native-models/bundled/index.js';
import { EngineRegistry, type EngineFactory } from '../engines/engineRegistry.js';

export interface EngineOptions {
  /** Folder of a jina-ocr-v1 model pack for the VLM engine. */
  packDir?: string;
  /** Extra or replacement engines (tests). */
  extraEngines?: EngineFactory[];
}

function bundledEngineFactory(): EngineFactory {
  // Constructing the engine starts nothing (OCR workers start on the first scanned page), so one serves as the
  // descriptor; each create() gets a fresh engine because dispose() ends an engine's workers for good.
  const descriptor = new BundledEngine().descriptor;
  return { descriptor: () => descriptor, create: async () => new BundledEngine() };
}

export function createEngineRegistry(options: EngineOptions): EngineRegistry {
  const factories = new Map<string, EngineFactory>();
  const add = (factory: EngineFactory) => factories.set(factory.descriptor().id, factory);
  add(bundledEngineFactory());
  for (const factory of options.extraEngines ?? []) add(factory);
  return new EngineRegistry(factories);
}
