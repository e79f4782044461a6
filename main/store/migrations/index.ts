/**
 * Every migration, in order. Add a new numbered file and list it here; never edit a released one.
 */
import type { Migration } from './migration.js';
import { initialSchema } from './001_initial.js';
import { pageChecksSchema } from './002_page_checks.js';
import { curationRollupsSchema } from './003_curation_rollups.js';
import { fieldRevisionsSchema } from './004_field_revisions.js';
import { reviewNotesSchema } from './005_review_notes.js';
import { documentEInvoicesSchema } from './006_document_einvoices.js';
import { supplierMemorySchema } from './007_supplier_memory.js';
import { invoiceReviewSchema } from './008_invoice_review.js';
import { approvalTrailSchema } from './009_approval_trail.js';
import { rescoreEInvoicePagesSchema } from './010_rescore_einvoice_pages.js';
import { masterDataSchema } from './011_master_data.js';
import { invoiceExportsSchema } from './012_invoice_exports.js';
import { accountsSchema } from './013_accounts.js';
import { saveConflictsSchema } from './014_save_conflicts.js';
import { workAssignmentsSchema } from './015_work_assignments.js';
import { chainInvoiceExportsSchema } from './016_chain_invoice_exports.js';
import { chainConflictsAndWorkSchema } from './017_chain_conflicts_and_work.js';

export const migrations: readonly Migration[] = [
  initialSchema,
  pageChecksSchema,
  curationRollupsSchema,
  fieldRevisionsSchema,
  reviewNotesSchema,
  documentEInvoicesSchema,
  supplierMemorySchema,
  invoiceReviewSchema,
  approvalTrailSchema,
  rescoreEInvoicePagesSchema,
  masterDataSchema,
  invoiceExportsSchema,
  accountsSchema,
  saveConflictsSchema,
  workAssignmentsSchema,
  chainInvoiceExportsSchema,
  chainConflictsAndWorkSchema,
];

/** The schema version this build of Recto writes. */
export const currentSchemaVersion = migrations[migrations.length - 1]!.version;
