/** Public surface of the remote engine for main/ (engine registry, CLI, the server's /v1 routes). */
export { RemoteEngine, REMOTE_ENGINE_ID, DEFAULT_REMOTE_MODEL, DEFAULT_CONCURRENCY, type RemoteEngineOptions } from './remoteEngine.js';
export { GROUNDING_PROMPT, pageChatRequest } from './chatRequest.js';
export * from './openAiSchema.js';
