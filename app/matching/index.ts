/** Purchase orders, goods receipts and three-way matching (docs/po-matching.md). */
export * from './masterData.js';
export * from './tolerances.js';
export * from './invoiceToMatch.js';
export { descriptionSimilarity, normalisedDescription } from './descriptionSimilarity.js';
export { pairLines, DESCRIPTION_MATCH, type LinePair, type PairedBy, type RememberedLinks } from './linePairing.js';
export type { LineMatch } from './lineChecks.js';
export { matchInvoice, type InvoiceMatchResult, type MatchContext, type MatchFinding, type MatchRule, type MatchStatus } from './matchInvoice.js';
export { supplierAccountFindings, type SupplierAccountFinding } from './supplierAccounts.js';
