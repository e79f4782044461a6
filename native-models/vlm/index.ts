/**
 * Public surface of the VLM runtime for main/ (engine host, CLI): the engine, pack generation and checks, providers.
 * Everything else in native-models/vlm is internal.
 */
export { VlmEngine, VLM_ENGINE_ID, VLM_ENGINE_VERSION, type VlmEngineOptions } from './engine/vlmEngine.js';
export type { DecoderKind } from './engine/pageReader.js';
export type { ImageModeName } from './preprocess/imageModes.js';
export { verifyPackFiles, PackError } from './pack/loadPack.js';
export { writeReferencePack, type DraftVariant } from './pack/writeReferencePack.js';
export { referencePackDir } from './pack/referencePackCache.js';
export { supportedProviders, type ProviderPreference } from './runtime/onnxRuntime.js';
