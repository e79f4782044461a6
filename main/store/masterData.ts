/**
 * Master data for three-way matching (tables of migration 011): importing purchase orders, goods receipts and the
 * vendor master's accounts — each file replaces its whole set, updated row by row by key and reported as added /
 * changed / removed, all files of one import in one transaction — and what the matcher asks: a supplier's POs with
 * their receipts and what the project's other invoices billed, the analyst's links, the tolerances.
 */
import type Database from 'better-sqlite3';
import {
  defaultMatchSettings,
  matchSettingsSchema,
  nameKey,
  vatKey,
  type MatchSettings,
  type PoCandidate,
  type PoLine,
  type PurchaseOrder,
  type SupplierAccount,
} from '../../app/matching/index.js';

export interface GoodsReceiptRow {
  poNumber: string;
  line: number;
  quantityReceived: number;
  receivedOn: string;
}

export interface ImportDiff {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
}

export interface MasterDataImport {
  purchaseOrders?: readonly PurchaseOrder[];
  goodsReceipts?: readonly GoodsReceiptRow[];
  supplierAccounts?: readonly SupplierAccount[];
}

export interface MasterDataImportReport {
  purchaseOrders?: ImportDiff;
  poLines?: ImportDiff;
  goodsReceipts?: ImportDiff;
  supplierAccounts?: ImportDiff;
}

interface PoLineRow {
  po_number: string;
  line: number;
  description: string;
  item_id: string | null;
  quantity: number;
  unit: string | null;
  unit_price: number;
}

const emptyDiff = (): ImportDiff => ({ added: 0, changed: 0, removed: 0, unchanged: 0 });

/** Replaces the rows of one table by the given ones, by key: an update where a row changed, a delete where it is gone. */
function syncByKey<T>(
  existing: Map<string, string>,
  wanted: readonly T[],
  keyOf: (row: T) => string,
  valueOf: (row: T) => string,
  upsert: (row: T) => void,
  remove: (key: string) => void,
): ImportDiff {
  const diff = emptyDiff();
  const seen = new Set<string>();
  for (const row of wanted) {
    const key = keyOf(row);
    seen.add(key);
    const before = existing.get(key);
    const value = valueOf(row);
    if (before === value) {
      diff.unchanged++;
      continue;
    }
    if (before === undefined) diff.added++;
    else diff.changed++;
    upsert(row);
  }
  for (const key of existing.keys()) {
    if (seen.has(key)) continue;
    remove(key);
    diff.removed++;
  }
  return diff;
}

const SEP = '\u0000';
const supplierKeyOf = (vat: string | null, name: string | null): string => vatKey(vat) ?? nameKey(name) ?? '';

export class MasterDataRepository {
  /**
   * Bumped by every write of master data, links, tolerances or recorded matches: a match computed before is stale
   * (main/services/poMatchExceptions.ts caches the queue's match signals by it and documentStamp).
   */
  generation = 0;

  constructor(private readonly db: Database.Database) {}

  /**
   * What a document's reviewed invoice stands on — its pages' extractions (how many, the newest, their fields' size:
   * an in-place update changes it) and field corrections, and its pages' review statuses — as one string that changes
   * when any of them does. One indexed query, no JSON parsed.
   */
  /** How many pages are rejected: a rejected invoice's quantities no longer count against its POs (candidatesFor). */
  rejectedPages(): number {
    return (this.queries().rejected.get() as { n: number }).n;
  }

  documentStamp(documentId: string): string {
    const row = this.queries().stamp.get(documentId, documentId, documentId) as { stamp: string };
    return row.stamp;
  }

  /** Imports the given sets (each replacing its own set) in one transaction: all or nothing. */
  importMasterData(data: MasterDataImport): MasterDataImportReport {
    this.generation++;
    return this.db.transaction(() => {
      const report: MasterDataImportReport = {};
      if (data.purchaseOrders) Object.assign(report, this.syncPurchaseOrders(data.purchaseOrders));
      if (data.goodsReceipts) report.goodsReceipts = this.syncGoodsReceipts(data.goodsReceipts);
      if (data.supplierAccounts) report.supplierAccounts = this.syncSupplierAccounts(data.supplierAccounts);
      return report;
    })();
  }

  private syncPurchaseOrders(orders: readonly PurchaseOrder[]): { purchaseOrders: ImportDiff; poLines: ImportDiff } {
    const headValue = (po: PurchaseOrder) => JSON.stringify([po.supplierName, po.supplierVatId, po.currency, po.orderDate]);
    const existingHeads = new Map(
      (this.db.prepare('SELECT po_number, supplier_name, supplier_vat_id, currency, order_date FROM purchase_orders').all() as { po_number: string; supplier_name: string; supplier_vat_id: string | null; currency: string; order_date: string | null }[])
        .map((r) => [r.po_number, JSON.stringify([r.supplier_name, r.supplier_vat_id, r.currency, r.order_date])]),
    );
    const upsertHead = this.db.prepare(
      `INSERT INTO purchase_orders (po_number, supplier_name, supplier_vat_id, supplier_vat_key, supplier_name_key, currency, order_date)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (po_number) DO UPDATE SET supplier_name = excluded.supplier_name, supplier_vat_id = excluded.supplier_vat_id,
         supplier_vat_key = excluded.supplier_vat_key, supplier_name_key = excluded.supplier_name_key, currency = excluded.currency, order_date = excluded.order_date`,
    );
    const deleteHead = this.db.prepare('DELETE FROM purchase_orders WHERE po_number = ?');
    // Lines first when a PO goes: its lines and receipts go with it by cascade, so count them before.
    const lineValue = (l: PoLine) => JSON.stringify([l.description, l.itemId, l.quantity, l.unit, l.unitPrice]);
    const existingLines = new Map(
      (this.db.prepare('SELECT po_number, line, description, item_id, quantity, unit, unit_price FROM po_lines').all() as PoLineRow[])
        .map((r) => [`${r.po_number}${SEP}${r.line}`, JSON.stringify([r.description, r.item_id, r.quantity, r.unit, r.unit_price])]),
    );
    const purchaseOrders = syncByKey(
      existingHeads,
      orders,
      (po) => po.poNumber,
      headValue,
      (po) => upsertHead.run(po.poNumber, po.supplierName, po.supplierVatId, vatKey(po.supplierVatId), nameKey(po.supplierName), po.currency, po.orderDate),
      (key) => deleteHead.run(key),
    );
    const upsertLine = this.db.prepare(
      `INSERT INTO po_lines (po_number, line, description, item_id, quantity, unit, unit_price) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (po_number, line) DO UPDATE SET description = excluded.description, item_id = excluded.item_id,
         quantity = excluded.quantity, unit = excluded.unit, unit_price = excluded.unit_price`,
    );
    const deleteLine = this.db.prepare('DELETE FROM po_lines WHERE po_number = ? AND line = ?');
    const poLines = syncByKey(
      existingLines,
      orders.flatMap((po) => po.lines),
      (l) => `${l.poNumber}${SEP}${l.line}`,
      lineValue,
      (l) => upsertLine.run(l.poNumber, l.line, l.description, l.itemId, l.quantity, l.unit, l.unitPrice),
      (key) => {
        const [po, line] = key.split(SEP);
        deleteLine.run(po, Number(line));
      },
    );
    return { purchaseOrders, poLines };
  }

  private syncGoodsReceipts(receipts: readonly GoodsReceiptRow[]): ImportDiff {
    const existing = new Map(
      (this.db.prepare('SELECT po_number, line, received_on, quantity_received FROM goods_receipts').all() as { po_number: string; line: number; received_on: string; quantity_received: number }[])
        .map((r) => [`${r.po_number}${SEP}${r.line}${SEP}${r.received_on}`, String(r.quantity_received)]),
    );
    const upsert = this.db.prepare(
      `INSERT INTO goods_receipts (po_number, line, received_on, quantity_received) VALUES (?, ?, ?, ?)
       ON CONFLICT (po_number, line, received_on) DO UPDATE SET quantity_received = excluded.quantity_received`,
    );
    const remove = this.db.prepare('DELETE FROM goods_receipts WHERE po_number = ? AND line = ? AND received_on = ?');
    return syncByKey(
      existing,
      receipts,
      (r) => `${r.poNumber}${SEP}${r.line}${SEP}${r.receivedOn}`,
      (r) => String(r.quantityReceived),
      (r) => upsert.run(r.poNumber, r.line, r.receivedOn, r.quantityReceived),
      (key) => {
        const [po, line, on] = key.split(SEP);
        remove.run(po, Number(line), on);
      },
    );
  }

  private syncSupplierAccounts(accounts: readonly SupplierAccount[]): ImportDiff {
    const existing = new Map(
      (this.db.prepare('SELECT supplier_key, iban, supplier_name, vat_id FROM supplier_accounts').all() as { supplier_key: string; iban: string; supplier_name: string; vat_id: string | null }[])
        .map((r) => [`${r.supplier_key}${SEP}${r.iban}`, JSON.stringify([r.supplier_name, r.vat_id])]),
    );
    const upsert = this.db.prepare(
      `INSERT INTO supplier_accounts (supplier_key, iban, supplier_name, vat_id, vat_key, name_key) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (supplier_key, iban) DO UPDATE SET supplier_name = excluded.supplier_name, vat_id = excluded.vat_id, vat_key = excluded.vat_key, name_key = excluded.name_key`,
    );
    const remove = this.db.prepare('DELETE FROM supplier_accounts WHERE supplier_key = ? AND iban = ?');
    return syncByKey(
      existing,
      accounts,
      (a) => `${supplierKeyOf(a.vatId, a.supplierName)}${SEP}${a.iban}`,
      (a) => JSON.stringify([a.supplierName, a.vatId]),
      (a) => upsert.run(supplierKeyOf(a.vatId, a.supplierName), a.iban, a.supplierName, a.vatId, vatKey(a.vatId), nameKey(a.supplierName)),
      (key) => {
        const [supplier, iban] = key.split(SEP);
        remove.run(supplier, iban);
      },
    );
  }

  /** The line numbers of an imported PO; null where the project has no such PO. */
  poLineNumbers(poNumber: string): Set<number> | null {
    const rows = this.db.prepare('SELECT line FROM po_lines WHERE po_number = ?').all(poNumber) as { line: number }[];
    if (rows.length > 0) return new Set(rows.map((r) => r.line));
    return this.db.prepare('SELECT 1 FROM purchase_orders WHERE po_number = ?').get(poNumber) ? new Set() : null;
  }

  hasPurchaseOrders(): boolean {
    return this.db.prepare('SELECT 1 FROM purchase_orders LIMIT 1').get() !== undefined;
  }

  counts(): { purchaseOrders: number; poLines: number; goodsReceipts: number; supplierAccounts: number } {
    const count = (table: string) => (this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { purchaseOrders: count('purchase_orders'), poLines: count('po_lines'), goodsReceipts: count('goods_receipts'), supplierAccounts: count('supplier_accounts') };
  }

  /**
   * The POs an invoice may be matched to: the one its reference names, and the supplier's — by VAT ID where the
   * supplier has POs under it, else by name — each with its lines, the quantities received (where receipts were
   * imported for it) and those billed by the project's other documents that are not rejected.
   */
  candidatesFor(invoice: { documentId: string | null; purchaseOrder: string | null; supplierVatId: string | null; supplierName: string | null }): PoCandidate[] {
    const numbers = new Set<string>();
    const ref = invoice.purchaseOrder?.trim();
    if (ref && this.db.prepare('SELECT 1 FROM purchase_orders WHERE po_number = ?').get(ref)) numbers.add(ref);
    const vat = vatKey(invoice.supplierVatId);
    const name = nameKey(invoice.supplierName);
    let bySupplier = vat ? (this.db.prepare('SELECT po_number FROM purchase_orders WHERE supplier_vat_key = ?').all(vat) as { po_number: string }[]) : [];
    if (bySupplier.length === 0 && name) bySupplier = this.db.prepare('SELECT po_number FROM purchase_orders WHERE supplier_name_key = ?').all(name) as { po_number: string }[];
    for (const row of bySupplier) numbers.add(row.po_number);
    return this.candidates([...numbers], invoice.documentId);
  }

  /** The POs with their lines, receipts and what other documents billed: four queries however many POs. */
  private candidates(poNumbers: readonly string[], documentId: string | null): PoCandidate[] {
    if (poNumbers.length === 0) return [];
    const list = JSON.stringify(poNumbers);
    const q = this.queries();
    const heads = q.heads.all(list) as { po_number: string; supplier_name: string; supplier_vat_id: string | null; currency: string; order_date: string | null }[];
    const lines = new Map<string, PoLine[]>();
    for (const r of q.lines.all(list) as PoLineRow[]) {
      const line: PoLine = { poNumber: r.po_number, line: r.line, description: r.description, itemId: r.item_id, quantity: r.quantity, unit: r.unit, unitPrice: r.unit_price };
      const of = lines.get(r.po_number);
      if (of) of.push(line);
      else lines.set(r.po_number, [line]);
    }
    const received = new Map<string, Map<number, number>>();
    for (const r of q.receipts.all(list) as { po_number: string; line: number; q: number }[]) {
      if (!received.has(r.po_number)) received.set(r.po_number, new Map());
      received.get(r.po_number)!.set(r.line, r.q);
    }
    const billed = new Map<string, Map<number, number>>();
    for (const r of q.billed.all(list, documentId) as { po_number: string; line: number; q: number }[]) {
      if (!billed.has(r.po_number)) billed.set(r.po_number, new Map());
      billed.get(r.po_number)!.set(r.line, r.q);
    }
    return heads.map((head) => ({
      po: { poNumber: head.po_number, supplierName: head.supplier_name, supplierVatId: head.supplier_vat_id, currency: head.currency, orderDate: head.order_date, lines: lines.get(head.po_number) ?? [] },
      received: received.get(head.po_number) ?? null,
      invoicedElsewhere: billed.get(head.po_number) ?? new Map(),
    }));
  }

  private prepared: ReturnType<MasterDataRepository['prepare']> | null = null;
  private queries() {
    this.prepared ??= this.prepare();
    return this.prepared;
  }
  private prepare() {
    const inList = 'IN (SELECT value FROM json_each(?))';
    return {
      heads: this.db.prepare(`SELECT po_number, supplier_name, supplier_vat_id, currency, order_date FROM purchase_orders WHERE po_number ${inList} ORDER BY po_number`),
      lines: this.db.prepare(`SELECT po_number, line, description, item_id, quantity, unit, unit_price FROM po_lines WHERE po_number ${inList} ORDER BY po_number, line`),
      receipts: this.db.prepare(`SELECT po_number, line, sum(quantity_received) AS q FROM goods_receipts WHERE po_number ${inList} GROUP BY po_number, line`),
      rejected: this.db.prepare(`SELECT count(*) AS n FROM pages WHERE review_status = 'rejected'`),
      stamp: this.db.prepare(
        `SELECT (SELECT count(*) || ':' || coalesce(max(e.created_at), '') || ':' || coalesce(sum(length(e.fields)), 0) FROM extractions e JOIN pages p ON p.id = e.page_id WHERE p.document_id = ?)
           || '|' || (SELECT count(*) || ':' || coalesce(max(f.seq), 0) FROM field_revisions f JOIN pages p ON p.id = f.page_id WHERE p.document_id = ?)
           || '|' || (SELECT coalesce(group_concat(review_status), '') FROM pages WHERE document_id = ?) AS stamp`,
      ),
      billed: this.db.prepare(
        `SELECT m.po_number, m.po_line AS line, sum(m.quantity) AS q FROM invoice_po_lines m
         WHERE m.po_number ${inList} AND m.document_id IS NOT ?
           AND NOT EXISTS (SELECT 1 FROM pages p WHERE p.document_id = m.document_id AND p.review_status = 'rejected')
         GROUP BY m.po_number, m.po_line`,
      ),
    };
  }

  /** Records what a document bills on which PO lines (replacing what it billed before). */
  recordInvoiceMatch(documentId: string, lines: readonly { poNumber: string; poLine: number; quantity: number }[]): void {
    this.generation++;
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM invoice_po_lines WHERE document_id = ?').run(documentId);
      const insert = this.db.prepare(
        `INSERT INTO invoice_po_lines (document_id, po_number, po_line, quantity) VALUES (?, ?, ?, ?)
         ON CONFLICT (document_id, po_number, po_line) DO UPDATE SET quantity = quantity + excluded.quantity`,
      );
      for (const l of lines) insert.run(documentId, l.poNumber, l.poLine, l.quantity);
    })();
  }

  /** The vendor master's accounts of a supplier: by VAT key where it has any, else by name key. */
  accountsOf(keys: { vat: string | null; name: string | null }): SupplierAccount[] {
    const map = (rows: { supplier_name: string; vat_id: string | null; iban: string }[]) => rows.map((r) => ({ supplierName: r.supplier_name, vatId: r.vat_id, iban: r.iban }));
    if (keys.vat) {
      const rows = this.db.prepare('SELECT supplier_name, vat_id, iban FROM supplier_accounts WHERE vat_key = ?').all(keys.vat) as { supplier_name: string; vat_id: string | null; iban: string }[];
      if (rows.length > 0) return map(rows);
    }
    if (!keys.name) return [];
    return map(this.db.prepare('SELECT supplier_name, vat_id, iban FROM supplier_accounts WHERE name_key = ?').all(keys.name) as { supplier_name: string; vat_id: string | null; iban: string }[]);
  }

  /** The analyst's links of a supplier (its VAT key, else name key): normalised description → PO line. */
  linksOf(supplierKey: string): Map<string, { poNumber: string; line: number }> {
    const rows = this.db.prepare('SELECT description_key, po_number, po_line FROM po_links WHERE supplier_key = ?').all(supplierKey) as { description_key: string; po_number: string; po_line: number }[];
    return new Map(rows.map((r) => [r.description_key, { poNumber: r.po_number, line: r.po_line }]));
  }

  /** Remembers that this supplier's line described so is billed on that PO line (null forgets the link). */
  setLink(supplierKey: string, descriptionKey: string, target: { poNumber: string; line: number } | null): void {
    this.generation++;
    if (!target) {
      this.db.prepare('DELETE FROM po_links WHERE supplier_key = ? AND description_key = ?').run(supplierKey, descriptionKey);
      return;
    }
    this.db
      .prepare(
        `INSERT INTO po_links (supplier_key, description_key, po_number, po_line) VALUES (?, ?, ?, ?)
         ON CONFLICT (supplier_key, description_key) DO UPDATE SET po_number = excluded.po_number, po_line = excluded.po_line`,
      )
      .run(supplierKey, descriptionKey, target.poNumber, target.line);
  }

  matchSettings(): MatchSettings {
    const row = this.db.prepare('SELECT settings FROM match_settings WHERE id = 1').get() as { settings: string } | undefined;
    if (!row) return defaultMatchSettings();
    let stored: unknown;
    try {
      stored = JSON.parse(row.settings);
    } catch {
      return defaultMatchSettings();
    }
    const parsed = matchSettingsSchema.safeParse(stored);
    return parsed.success ? parsed.data : defaultMatchSettings();
  }

  setMatchSettings(settings: MatchSettings): void {
    this.generation++;
    const valid = matchSettingsSchema.parse(settings);
    this.db.prepare('INSERT INTO match_settings (id, settings) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET settings = excluded.settings').run(JSON.stringify(valid));
  }
}

/** The key a supplier's links and tolerances are kept under: its VAT key, else its name key. */
export const supplierKey = supplierKeyOf;
