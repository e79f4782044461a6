/**
 * Master data for three-way matching (docs/po-matching.md): purchase orders and their lines, goods receipts, the
 * vendor master's bank accounts; what each invoice was matched to (so a partially invoiced PO keeps its open
 * quantities across invoices); the analyst's links from a supplier's line description to a PO line; and the
 * matching tolerances. Suppliers are found by normalised keys (app/matching/masterData.ts vatKey, nameKey), indexed.
 * Rows are updated in place on re-import (never replaced: a replace would cascade to a PO's lines and receipts).
 */
import type { Migration } from './migration.js';

export const masterDataSchema: Migration = {
  version: 11,
  name: 'master_data',
  statements: [
    `CREATE TABLE IF NOT EXISTS purchase_orders (
       po_number TEXT PRIMARY KEY,
       supplier_name TEXT NOT NULL,
       supplier_vat_id TEXT,
       supplier_vat_key TEXT,
       supplier_name_key TEXT,
       currency TEXT NOT NULL,
       order_date TEXT
     ) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS purchase_orders_by_vat ON purchase_orders(supplier_vat_key)`,
    `CREATE INDEX IF NOT EXISTS purchase_orders_by_name ON purchase_orders(supplier_name_key)`,
    `CREATE TABLE IF NOT EXISTS po_lines (
       po_number TEXT NOT NULL REFERENCES purchase_orders(po_number) ON DELETE CASCADE,
       line INTEGER NOT NULL,
       description TEXT NOT NULL,
       item_id TEXT,
       quantity REAL NOT NULL,
       unit TEXT,
       unit_price REAL NOT NULL,
       PRIMARY KEY (po_number, line)
     ) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS goods_receipts (
       po_number TEXT NOT NULL,
       line INTEGER NOT NULL,
       received_on TEXT NOT NULL,
       quantity_received REAL NOT NULL,
       PRIMARY KEY (po_number, line, received_on),
       FOREIGN KEY (po_number, line) REFERENCES po_lines(po_number, line) ON DELETE CASCADE
     ) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS supplier_accounts (
       supplier_key TEXT NOT NULL,
       iban TEXT NOT NULL,
       supplier_name TEXT NOT NULL,
       vat_id TEXT,
       vat_key TEXT,
       name_key TEXT,
       PRIMARY KEY (supplier_key, iban)
     ) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS supplier_accounts_by_vat ON supplier_accounts(vat_key)`,
    `CREATE INDEX IF NOT EXISTS supplier_accounts_by_name ON supplier_accounts(name_key)`,
    `CREATE TABLE IF NOT EXISTS invoice_po_lines (
       document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
       po_number TEXT NOT NULL,
       po_line INTEGER NOT NULL,
       quantity REAL NOT NULL,
       PRIMARY KEY (document_id, po_number, po_line)
     ) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS invoice_po_lines_by_po ON invoice_po_lines(po_number, po_line)`,
    `CREATE TABLE IF NOT EXISTS po_links (
       supplier_key TEXT NOT NULL,
       description_key TEXT NOT NULL,
       po_number TEXT NOT NULL,
       po_line INTEGER NOT NULL,
       PRIMARY KEY (supplier_key, description_key)
     ) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS match_settings (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       settings TEXT NOT NULL
     )`,
  ],
};
