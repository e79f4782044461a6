/**
 * The bundled CPU engine (PDF text layer + tesseract.js OCR + layout) and its pure layout steps.
 */
export { BundledEngine, BUNDLED_ENGINE_VERSION, type BundledEngineOptions } from './bundledEngine.js';
export { judgeTextLayer, judgePartialTextLayer, type TextLayerVerdict } from './textLayerQuality.js';
export { layoutPage, layoutBlocks, type LayoutPageOptions } from './layout/layoutPage.js';
export { detectTables, type TableLayout, type TableCellLayout } from './layout/detectTables.js';
export { rowWithFormulas } from './layout/formulas.js';
export { estimateSkew } from './deskew.js';
export { installedOcrLanguages } from './tesseractPool.js';
export type { LayoutWord, LayoutBlock } from './layout/layoutTypes.js';
