/**
 * The engines this installation offers. The bundled CPU engine is always there; the vision-language engine is
 * offered when a model pack is configured (--pack, RECTO_PACK).
 */
import { EngineRegistry, type EngineFactory } from '../engines/engineRegistry.js';

export interface EngineOptions {
  /** Folder of a jina-ocr-v1 model pack for the VLM engine. */
  packDir?: string;
  /** Extra or replacement engines (tests). */
  extraEngines?: EngineFactory[];
}

export function createEngineRegistry(options: EngineOptions): EngineRegistry {
  const factories = new Map<string, EngineFactory>();
  for (const factory of options.extraEngines ?? []) factories.set(factory.descriptor().id, factory);
  return new EngineRegistry(factories);
}
