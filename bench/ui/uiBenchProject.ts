/**
 * The bench:ui project: N one-page invoices (PNG pages, so no PDF rendering stands between a page and its image),
 * each read by a fixture engine into Markdown with five HTML tables (the line items and four more) and the invoice
 * fields the bundled engine attaches (values, boxes, confidences), consistent so every rule holds until an edit.
 */
import path from 'node:path';
import sharp from 'sharp';
import { createHash } from 'node:crypto';
import type { Element, Extraction } from '../../app/model/extraction.js';
import { PageImageCache } from '../../main/services/pageImageCache.js';
import { ProjectStore } from '../../main/store/projectStore.js';

const WIDTH = 1240;
const HEIGHT = 1754;

function table(title: string, rows: string[][]): string {
  return `<table><tr>${rows[0]!.map((c) => `<th>${c}</th>`).join('')}</tr>${rows
    .slice(1)
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</table>` + (title ? '' : '');
}

/** An invoice page with five tables; `n` varies the number and amounts. */
export function benchInvoice(n: number): Extraction {
  const qty = (n % 7) + 1;
  const lines = [
    { description: 'Consulting hours', quantity: qty, unit_price: 95, amount: qty * 95 },
    { description: 'Travel flat rate', quantity: 1, unit_price: 120, amount: 120 },
    { description: 'Licence fee', quantity: 2, unit_price: 49.5, amount: 99 },
  ];
  const subtotal = lines.reduce((s, l) => s + l.amount, 0);
  const tax = Math.round(subtotal * 19) / 100;
  const total = Math.round((subtotal + tax) * 100) / 100;
  const parts: [Element['kind'], string][] = [
    ['title', `# Invoice INV-${10000 + n}`],
    ['text', `Seller: Example Consulting GmbH · Buyer: Customer ${n} AG · Invoice date: 2024-03-${String((n % 28) + 1).padStart(2, '0')} · Currency: EUR`],
    ['table', table('', [['Description', 'Qty', 'Unit price', 'Amount'], ...lines.map((l) => [l.description, String(l.quantity), l.unit_price.toFixed(2), l.amount.toFixed(2)])])],
    ['table', table('', [['', 'Amount'], ['Subtotal', subtotal.toFixed(2)], ['VAT 19%', tax.toFixed(2)], ['Total', total.toFixed(2)]])],
    ['table', table('', [['Rate', 'Base', 'VAT'], ['19%', subtotal.toFixed(2), tax.toFixed(2)]])],
    ['table', table('', [['Bank', 'IBAN', 'BIC'], ['Example Bank', 'DE89 3704 0044 0532 0130 00', 'COBADEFFXXX']])],
    ['table', table('', [['Order', 'Delivery', 'Project'], [`PO-${n}`, '2024-02-28', `P-${n % 13}`]])],
    ['footer', 'Example Consulting GmbH · USt-IdNr.: DE123456789'],
  ];
  let markdown = '';
  const elements: Element[] = [];
  parts.forEach(([kind, text], i) => {
    if (i > 0) markdown += '\n\n';
    const start = markdown.length;
    markdown += text;
    elements.push({ id: `e${i}`, kind, box: [60, 60 + i * 190, WIDTH - 60, 220 + i * 190], span: [start, markdown.length], confidence: 0.95 });
  });
  const box = (row: number, x: number): [number, number, number, number] => [x, 60 + row * 190 + 40, x + 160, 60 + row * 190 + 70];
  return {
    markdown,
    elements,
    page: { width: WIDTH, height: HEIGHT },
    engine: { id: 'fixture', name: 'Fixture engine', version: '1', packSha256: null, licence: null, provider: 'cpu', settings: {} },
    stats: { durationMs: 1 },
    warnings: [],
    words: [],
    fields: {
      invoice: {
        invoice_number: `INV-${10000 + n}`, issue_date: `2024-03-${String((n % 28) + 1).padStart(2, '0')}`, due_date: null,
        seller: 'Example Consulting GmbH', buyer: `Customer ${n} AG`, currency: 'EUR', subtotal, tax, total, lines,
      },
      invoiceSources: {
        invoice_number: { text: `INV-${10000 + n}`, label: 'Invoice', boxes: [box(0, 300)], confidence: 0.95 },
        total: { text: total.toFixed(2), label: 'Total', boxes: [box(3, 900)], confidence: 0.9 },
        subtotal: { text: subtotal.toFixed(2), label: 'Subtotal', boxes: [box(3, 700)], confidence: 0.9 },
        tax: { text: tax.toFixed(2), label: 'VAT', boxes: [box(3, 500)], confidence: 0.7 },
        lines: lines.map((l, i) => ({ text: l.description, label: null, boxes: [box(2, 80 + i * 10)] })),
      },
    },
  };
}

/**
 * Creates the project file with `pages` invoices; returns its path. With `imageCacheDir` (the server's cache folder,
 * `$RECTO_HOME/cache`) the page images and their screen copies are put in the cache as an import does, so the first visit of a page does not
 * measure re-rendering an image that an imported project already has.
 */
export async function createUiBenchProject(dir: string, pages: number, imageCacheDir?: string): Promise<string> {
  const file = path.join(dir, 'bench-ui.recto');
  const store = ProjectStore.create(file);
  const images = imageCacheDir ? new PageImageCache(imageCacheDir, () => Promise.reject(new Error('bench: pages are seeded, never inspected'))) : null;
  try {
    for (let n = 0; n < pages; n++) {
      // A near-white page whose colour differs per document, so every source has its own SHA-256.
      const bytes = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: { r: 255, g: 255 - (n % 200), b: 250 - Math.floor(n / 200) } } })
        .png({ compressionLevel: 1 })
        .toBuffer();
      const doc = store.documents.addDocument({
        sha256: createHash('sha256').update(bytes).digest('hex'),
        name: `invoice-${String(n).padStart(3, '0')}.png`,
        mediaType: 'image/png',
        bytes,
        pages: [{ pageNumber: 1, width: WIDTH, height: HEIGHT, dpi: 150, textLayer: null }],
      });
      if (!doc) throw new Error(`bench page ${n}: duplicate image`);
      images?.seed(doc.sha256, 1, bytes);
      await images?.makeScreenCopies(doc.sha256, 1);
      store.readings.saveExtraction(doc.pages[0]!.id, benchInvoice(n), new Date());
    }
  } finally {
    store.close();
  }
  return file;
}
