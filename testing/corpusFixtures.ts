/**
 * Projects with invoice-like pages for the curation and corpus tests and the store benchmark: an engine extraction
 * with element spans (title, header, text, table, formula, footer) and analyst corrections of chosen kinds.
 */
import { createHash } from 'node:crypto';
import type { Element, Extraction } from '../app/model/extraction.js';
import type { ProjectStore } from '../main/store/projectStore.js';

export interface FixturePage {
  markdown: string;
  elements: Element[];
}

/** An invoice page as an engine writes it; `variant` changes names and amounts so pages differ. */
export function invoicePage(variant: number): FixturePage {
  const parts: [Element['kind'], string][] = [
    ['header', `ACME Supplies Ltd · 12 Harbour Road · Invoice ${1000 + variant}`],
    ['title', `# Invoice ${1000 + variant}`],
    ['text', `Bill to: Northwind Traders ${variant}, 4 Elm Street, Springfield. Date: 2024-03-${String((variant % 28) + 1).padStart(2, '0')}`],
    [
      'table',
      '<table><tr><th>Item</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr>' +
        `<tr><td>Paper A4 box</td><td>${(variant % 9) + 1}</td><td>12.50</td><td>${(((variant % 9) + 1) * 12.5).toFixed(2)}</td></tr>` +
        '<tr><td>Toner cartridge</td><td>2</td><td>48.00</td><td>96.00</td></tr>' +
        '<tr><td>Stapler heavy duty</td><td>1</td><td>23.90</td><td>23.90</td></tr>' +
        '<tr><td>Delivery</td><td>1</td><td>9.00</td><td>9.00</td></tr></table>',
    ],
    ['formula', '$$\\text{Total} = \\sum_i q_i p_i$$'],
    ['text', 'Payment is due within thirty days of the invoice date. Please quote the invoice number with your payment.'],
    ['footer', `Registered in England No. ${5550000 + variant} · VAT GB 123 4567 89`],
  ];
  let markdown = '';
  const elements: Element[] = [];
  parts.forEach(([kind, text], index) => {
    if (index > 0) markdown += '\n\n';
    const start = markdown.length;
    markdown += text;
    elements.push({ id: `e${index}`, kind, box: [40, 40 + index * 90, 1200, 110 + index * 90], span: [start, markdown.length], confidence: 0.9 });
  });
  return { markdown, elements };
}

export type CorrectionKind = 'table' | 'text' | 'formula' | 'header' | 'order';

/** The analyst's version of a page: the chosen kinds of element corrected. */
export function correctPage(markdown: string, kinds: readonly CorrectionKind[]): string {
  let text = markdown;
  for (const kind of kinds) {
    if (kind === 'table') text = text.replace('<td>Toner cartridge</td><td>2</td><td>48.00</td>', '<td>Toner cartridge black</td><td>3</td><td>48.00</td>');
    if (kind === 'text') text = text.replace('Payment is due within thirty days', 'Payment is due within fourteen days');
    if (kind === 'formula') text = text.replace('\\sum_i q_i p_i', '\\sum_{i=1}^{n} q_i p_i + t');
    if (kind === 'header') text = text.replace(/^ACME Supplies Ltd[^\n]*\n\n/, '');
    if (kind === 'order') {
      const blocks = text.split('\n\n');
      const last = blocks.length - 1;
      [blocks[last - 1], blocks[last]] = [blocks[last]!, blocks[last - 1]!];
      text = blocks.join('\n\n');
    }
  }
  return text;
}

export function fixtureExtraction(page: FixturePage, engineId = 'fixture'): Extraction {
  return {
    markdown: page.markdown,
    elements: page.elements,
    page: { width: 1240, height: 1754 },
    engine: { id: engineId, name: 'Fixture engine', version: '1.0', packSha256: 'ab'.repeat(32), licence: 'MIT', provider: 'cpu', settings: { dpi: 150 } },
    stats: { durationMs: 1200, tokens: 420 },
    warnings: [],
  };
}

export interface FixtureDocument {
  name: string;
  pages: number;
  /** Corrections per page (index), absent = page not corrected. */
  corrections?: Record<number, CorrectionKind[]>;
  engineId?: string;
}

/** Adds documents, reads every page with the fixture engine and saves the corrections; returns page ids in order. */
export function fillProject(store: ProjectStore, documents: FixtureDocument[], seed = 0): string[] {
  const pageIds: string[] = [];
  documents.forEach((doc, docIndex) => {
    const bytes = Buffer.from(`PAGES ${doc.pages} ${doc.name} ${seed}`);
    const added = store.documents.addDocument({
      sha256: createHash('sha256').update(bytes).digest('hex'),
      name: doc.name,
      mediaType: 'application/pdf',
      bytes,
      pages: Array.from({ length: doc.pages }, (_, i) => ({ pageNumber: i + 1, width: 1240, height: 1754, dpi: 150, textLayer: null })),
    });
    if (!added) throw new Error(`${doc.name}: already in the project`);
    added.pages.forEach((page, i) => {
      const fixture = invoicePage(docIndex * 100 + i + seed);
      store.readings.saveExtraction(page.id, fixtureExtraction(fixture, doc.engineId), new Date());
      const kinds = doc.corrections?.[i];
      if (kinds) store.revisions.saveRevision(page.id, correctPage(fixture.markdown, kinds), 'Ana Analyst', null);
      pageIds.push(page.id);
    });
  });
  return pageIds;
}
