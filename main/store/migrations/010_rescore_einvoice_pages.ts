/**
 * Check results of pages whose reading disagreed with the document's e-invoice were stored with score 0 (the queue
 * raised them that way; it now does so by its `xml-disagreement` signal, and the score is the reward evaluation
 * gives: app/curation/checkPage.ts). Their rows are removed, kinds first, so that `recomputeMissing` scores them again
 * by the one definition the next time the curation view or an export asks.
 */
import type { Migration } from './migration.js';

const disagreeing = `SELECT page_id FROM page_checks WHERE json_valid(results) AND json_extract(results, '$.einvoice') IS NOT NULL`;

export const rescoreEInvoicePagesSchema: Migration = {
  version: 10,
  name: 'rescore_einvoice_pages',
  statements: [`DELETE FROM page_check_kinds WHERE page_id IN (${disagreeing})`, `DELETE FROM page_checks WHERE page_id IN (${disagreeing})`],
};
