/** The invoice fields under review: the engine's values (a narrow adapter), corrections, number formats, rules input. */
export * from './fieldPaths.js';
export * from './engineFields.js';
export * from './corrections.js';
export * from './numberFormat.js';
export * from './reviewInvoice.js';
export * from './documentView.js';
export * from './breakdownVsXml.js';
export * from './undoTarget.js';
