/**
 * Document e-invoices (table document_einvoices, migration 006): the XML a document carries, kept with the document
 * so that the review screen, `recto ocr` and the page-vs-XML checks read the issuer's own values. Written in the
 * transaction that adds the document; read back as the parsed EInvoice (the reader is pure and cheap).
 */
import type Database from 'better-sqlite3';
import { EInvoiceError, readEInvoice, type EInvoice } from '../../app/einvoice/index.js';

export type NewDocumentEInvoice =
  | { status: 'read'; fileName: string; syntax: 'CII' | 'UBL'; profile: string | null; xml: Uint8Array }
  | { status: 'refused'; fileName: string; message: string };

export type StoredEInvoiceXml =
  | { status: 'stored'; fileName: string; xml: Uint8Array }
  | { status: 'refused'; fileName: string; message: string };

export type StoredEInvoice =
  | { status: 'read'; fileName: string; invoice: EInvoice; xml: Uint8Array }
  | { status: 'refused'; fileName: string; message: string };

interface Row {
  status: 'read' | 'refused';
  file_name: string;
  xml: Buffer | null;
  message: string | null;
}

export class DocumentEInvoicesRepository {
  private readonly statements: { insert: Database.Statement; get: Database.Statement; readIds: Database.Statement };

  constructor(db: Database.Database) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO document_einvoices (document_id, status, file_name, syntax, profile, xml, message, added_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (document_id) DO UPDATE SET status = excluded.status, file_name = excluded.file_name, syntax = excluded.syntax,
           profile = excluded.profile, xml = excluded.xml, message = excluded.message, added_at = excluded.added_at`,
      ),
      get: db.prepare('SELECT status, file_name, xml, message FROM document_einvoices WHERE document_id = ?'),
      readIds: db.prepare(`SELECT document_id FROM document_einvoices WHERE status = 'read'`).pluck(),
    };
  }

  /** Call inside the transaction that adds the document. */
  put(documentId: string, einvoice: NewDocumentEInvoice): void {
    const now = new Date().toISOString();
    if (einvoice.status === 'read') {
      this.statements.insert.run(documentId, 'read', einvoice.fileName, einvoice.syntax, einvoice.profile, Buffer.from(einvoice.xml), null, now);
    } else {
      this.statements.insert.run(documentId, 'refused', einvoice.fileName, null, null, null, einvoice.message, now);
    }
  }

  /** The documents whose e-invoice was read at import (validated for the review and the queue). */
  readDocumentIds(): string[] {
    return this.statements.readIds.all() as string[];
  }

  /** The document's e-invoice as stored, its XML not read; null where it has none. */
  getStored(documentId: string): StoredEInvoiceXml | null {
    const row = this.statements.get.get(documentId) as Row | undefined;
    if (!row) return null;
    if (row.status === 'refused' || !row.xml) return { status: 'refused', fileName: row.file_name, message: row.message ?? 'not readable' };
    return { status: 'stored', fileName: row.file_name, xml: new Uint8Array(row.xml) };
  }

  /**
   * The document's e-invoice; null where it has none. A stored XML the current reader refuses reads as refused.
   * The XML is read on this thread: the reading queue reads it in a worker instead (main/jobs/storedEInvoice.ts).
   */
  get(documentId: string): StoredEInvoice | null {
    const stored = this.getStored(documentId);
    if (stored?.status !== 'stored') return stored;
    const { fileName, xml } = stored;
    try {
      return { status: 'read', fileName, invoice: readEInvoice(xml, fileName), xml };
    } catch (error) {
      if (error instanceof EInvoiceError) return { status: 'refused', fileName, message: error.message };
      throw error;
    }
  }
}
