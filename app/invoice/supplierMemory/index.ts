/** Supplier memory: pure functions, no I/O (docs/supplier-memory.md). Persistence: main/store/supplierMemory.ts. */
export * from './lessonSchema.js';
export { learnLesson, type ConfirmedValues } from './learnLesson.js';
export { memoryPage, type MemoryPage } from './pageText.js';
export { ownIdentifiers, SupplierIndex, type Recognised } from './recogniseSupplier.js';
export { readThroughMemory, reliability, type MemoryReading, type MemoryValue } from './readThroughMemory.js';
export { scoreAgainst, type KeptCorrected } from './trackRecord.js';
export { confirmedOf, readWithMemory } from './memoryReading.js';
export { genericScores, storedScores, TRUSTED_PAGE, type GenericScore, type GenericScores } from './pageTrust.js';
export { MEMORY_SOURCE, memoryProposals, overlayDocumentMemory, overlaySupplierMemory, pageSupplierOf, withoutSupplierMemory, type PageSupplier } from './overlayExtraction.js';
