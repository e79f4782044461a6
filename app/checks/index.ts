/**
 * Deterministic checks of an engine's page output: pure functions, no I/O, usable live in the renderer.
 * Figures on the public test set: docs/benchmarks.md; why the scorers differ from upstream: docs/decisions.md.
 */
export * from './textDistance.js';
export * from './fuzzySearch.js';
export * from './formula.js';
export * from './repetition.js';
export * from './structure.js';
export * from './teds.js';
export * from './treeEditDistance.js';
export * from './tableNeighbours.js';
export * from './invoiceArithmetic.js';
export * from './pageScore.js';
export * as olmocr from './olmocr/index.js';
export * from './pageChecks.js';
export * from './reward.js';
