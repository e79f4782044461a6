/**
 * Needs-attention signals per page (app/review/attention.ts), from the page's latest reading, its text and field
 * corrections and its reference-free check scores (structure, repetition in page_checks). Kept in memory per page and
 * recomputed only when one of those changed (a cheap key per page is read each time), so asking for the queue after
 * every approval stays fast on large projects.
 */
import type Database from 'better-sqlite3';
import type { AttentionItem } from '../../../app/contract/attention.js';
import { breakdownDisagreements, breakdownReadingDoubts, detectNumberFormat, documentRuleResults, reviewRules, reviewValues, scalarFields, valueAt, type EngineFieldValues } from '../../../app/invoice/review/index.js';
import type { Extraction } from '../../../app/model/extraction.js';
import type { ReviewStatus } from '../../../app/model/page.js';
import { attentionSignals, type AttentionSignal } from '../../../app/review/attention.js';
import { namesAgree } from '../../../app/einvoice/pageVsXml.js';
import { printsAmount, printsFieldValue } from '../../../app/einvoice/printedOnPage.js';
import { paymentFieldViews } from '../../../app/invoices/paymentFieldViews.js';
import { paymentRules } from '../../../app/invoices/paymentRules.js';
import type { XmlPaymentFields } from '../../../app/invoices/xmlPaymentFields.js';
import { correctionsOf, type FieldRevisionsRepository } from '../fieldRevisions.js';

/** Page and XML state the same: amounts within half a cent, names loosely (legal form, case, line breaks aside). */
function samePrinted(field: string, page: string | number, xml: string | number): boolean {
  if (typeof page === 'number' && typeof xml === 'number') return Math.abs(page - xml) < 0.005;
  if (field === 'seller' || field === 'buyer') return namesAgree(String(page), String(xml));
  return String(page).replace(/\s+/g, '').toLowerCase() === String(xml).replace(/\s+/g, '').toLowerCase();
}

interface PageKeyRow {
  page_id: string;
  document_id: string;
  document_name: string;
  page_number: number;
  review_status: ReviewStatus;
  extraction_id: string | null;
  revision_id: string | null;
  field_revisions: number;
  /** Fields whose newest revision sets a value: one undone back to the engine's reading is not corrected. */
  corrected_fields: number;
  checks_at: string | null;
  repetition_score: number | null;
  structure_score: number | null;
}

export class AttentionRepository {
  private readonly cache = new Map<string, { key: string; signals: AttentionSignal[] }>();

  constructor(
    private readonly db: Database.Database,
    private readonly fields: FieldRevisionsRepository,
    private readonly latestExtraction: (pageId: string) => Extraction | null,
    private readonly latestText: (pageId: string) => string | null,
    /** The payment fields of the document's e-invoice XML; null where it has none (read only when a key changed). */
    private readonly xmlPayment: (documentId: string) => XmlPaymentFields | null = () => null,
  ) {}

  /** Every read page with its signals in project order; with `documentId`, that document's pages only (an approval's check). */
  list(documentId?: string): AttentionItem[] {
    const rows = this.db
      .prepare(
        `SELECT p.id AS page_id, p.document_id, d.name AS document_name, p.page_number, p.review_status,
           (SELECT x.id FROM extractions x WHERE x.page_id = p.id ORDER BY x.created_at DESC, x.rowid DESC LIMIT 1) AS extraction_id,
           (SELECT v.id FROM revisions v WHERE v.page_id = p.id ORDER BY v.seq DESC LIMIT 1) AS revision_id,
           (SELECT COUNT(*) FROM field_revisions f WHERE f.page_id = p.id) AS field_revisions,
           (SELECT COUNT(*) FROM field_revisions f WHERE f.page_id = p.id AND f.new_value IS NOT NULL
              AND f.seq = (SELECT MAX(g.seq) FROM field_revisions g WHERE g.page_id = f.page_id AND g.field = f.field)) AS corrected_fields,
           c.computed_at AS checks_at, c.repetition_score, c.structure_score
         FROM pages p JOIN documents d ON d.id = p.document_id LEFT JOIN page_checks c ON c.page_id = p.id
         WHERE p.status = 'done' ${documentId === undefined ? '' : 'AND p.document_id = ?'} ORDER BY d.imported_at, d.rowid, p.page_number`,
      )
      .all(...(documentId === undefined ? [] : [documentId])) as PageKeyRow[];
    // Per document: what its field signals depend on (every page's reading and text, its field revisions).
    const documentKeys = new Map<string, string>();
    const firstPages = new Set<string>();
    for (const row of rows) {
      if (!documentKeys.has(row.document_id)) firstPages.add(row.page_id);
      documentKeys.set(row.document_id, `${documentKeys.get(row.document_id) ?? ''}${row.extraction_id}:${row.revision_id}:${row.field_revisions};`);
    }
    const correctedFields = new Map<string, number>();
    for (const row of rows) correctedFields.set(row.document_id, (correctedFields.get(row.document_id) ?? 0) + row.corrected_fields);
    return rows.map((row) => ({
      pageId: row.page_id,
      documentId: row.document_id,
      documentName: row.document_name,
      pageNumber: row.page_number,
      reviewStatus: row.review_status,
      corrected: row.revision_id !== null || (firstPages.has(row.page_id) && (correctedFields.get(row.document_id) ?? 0) > 0),
      signals: this.signalsOf(row, documentKeys.get(row.document_id)!, firstPages.has(row.page_id)),
    }));
  }

  /**
   * A document's invoice fields are checked once, on its first page (the fields panel shows the same on every page);
   * every page has its own word, repetition and structure signals.
   */
  private signalsOf(row: PageKeyRow, documentKey: string, firstOfDocument: boolean): AttentionSignal[] {
    const key = `${row.extraction_id}|${row.revision_id}|${row.checks_at}|${firstOfDocument ? documentKey : ''}`;
    const cached = this.cache.get(row.page_id);
    if (cached?.key === key) return cached.signals;
    const extraction = this.latestExtraction(row.page_id);
    const engine = firstOfDocument ? this.fields.documentEngine(row.page_id) : null;
    const revisions = firstOfDocument ? this.fields.list(row.page_id) : [];
    const pageIds = firstOfDocument ? this.fields.documentPageIds(row.page_id) : [];
    const text = pageIds.map((id) => this.latestText(id) ?? this.latestExtraction(id)?.markdown ?? '').join('\n\n');
    let rules = null;
    let valuesForXml: EngineFieldValues | null = null;
    const disagreements: string[] = [];
    const readingDoubts: string[] = [];
    const fieldConfidences: { field: string; confidence: number | null }[] = [];
    if (engine || revisions.length > 0) {
      const base = engine?.values ?? this.fields.engineValues(row.page_id);
      const values = reviewValues({ engine: base, corrections: correctionsOf(revisions), engineMarkdown: text, currentMarkdown: text });
      // Messages name amounts as the page prints them ("1.234,50" on a German invoice).
      valuesForXml = values;
      const correctedPaths = new Set(revisions.map((r) => r.field));
      rules = documentRuleResults(reviewRules(values, text, detectNumberFormat(Object.values(engine?.sources ?? {}).map((source) => source.text))), engine?.origin ?? 'page', correctedPaths);
      // The payment fields' checks and their page-vs-XML agreement are rules of the page like the others.
      rules = [...rules, ...paymentRules(paymentFieldViews(text, correctionsOf(revisions), this.xmlPayment(row.document_id)).fields)];
      const corrected = new Set(revisions.map((r) => r.field));
      // Where the XML is the invoice, the page's own reading is what is compared with it (a corrected field is the
      // analyst's decision, no disagreement); the XML's values are the issuer's, so no reading doubt is theirs.
      const page = engine?.origin === 'xml' ? engine.page : values;
      for (const { key: field } of scalarFields) {
        if (engine?.origin === 'xml' && corrected.has(field)) continue;
        const xml = engine?.xml?.[field];
        const mine = page ? valueAt(page, field) : null;
        if (xml !== null && xml !== undefined && mine !== null && mine !== undefined && !samePrinted(field, mine, xml)) {
          // Where the page prints the XML's value as well, the reader picked another printed value: a doubt, not the document's.
          (printsFieldValue(text, field, xml) ? readingDoubts : disagreements).push(`${field}: page ${mine} — XML ${xml}`);
        }
        const source = engine?.sources[field];
        if (source && !corrected.has(field) && engine?.origin !== 'xml') fieldConfidences.push({ field, confidence: source.confidence });
      }
      valuesForXml = page;
    }
    if (rules) {
      const printed = (amount: number) => printsAmount(text, amount);
      disagreements.push(...breakdownDisagreements(valuesForXml?.tax_breakdown ?? [], engine?.xml?.tax_breakdown, printed));
      readingDoubts.push(...breakdownReadingDoubts(valuesForXml?.tax_breakdown ?? [], engine?.xml?.tax_breakdown, printed));
    }
    const signals = attentionSignals({
      rules,
      disagreements,
      readingDoubts,
      fieldConfidences,
      wordConfidences: (extraction?.words ?? []).map((w) => w.confidence),
      repetitionScore: row.repetition_score,
      structureScore: row.structure_score,
      boxless: extraction !== null && extraction.elements.length === 0 && extraction.markdown.trim() !== '',
    });
    this.cache.set(row.page_id, { key, signals });
    return signals;
  }
}
