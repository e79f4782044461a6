/**
 * The bundled CPU engine (PDF text layer + tesseract.js OCR + layout v1) and its pure layout steps.
 */
export { BundledEngine, BUNDLED_ENGINE_VERSION, type BundledEngineOptions } from './bundledEngine.js';
export { judgeTextLayer, type TextLayerVerdict } from './textLayerQuality.js';
export { layoutPage, layoutBlocks, type LayoutPageOptions } from './layout/layoutPage.js';
export type { LayoutWord, LayoutBlock } from './layout/layoutTypes.js';
