/**
 * The synthetic invoices behind resources/samples: data and page layout only, so the generator and any test can see
 * exactly which text is on which page. Amounts are computed here from the line items, never typed twice.
 */

export type FontKey = 'regular' | 'bold' | 'italic';

/** One line of text as drawn: x, y of the baseline's left end in PDF points from the page's bottom-left. */
export interface TextRun {
  x: number;
  y: number;
  text: string;
  size: number;
  font: FontKey;
  /** Right-align at x instead of left-aligning. */
  alignRight?: boolean;
}

/** A horizontal rule: from (x1, y) to (x2, y), in points. */
export interface Rule {
  x1: number;
  x2: number;
  y: number;
  thickness: number;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  unit_price: number;
  amount: number;
}

/** The invoice fields of issue "Bundled CPU engine" (absent = null). */
export interface InvoiceFields {
  invoice_number: string;
  issue_date: string;
  due_date: string | null;
  seller: string;
  buyer: string;
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
  lines: InvoiceLine[];
}

export interface SampleInvoice {
  name: string;
  /** Standard font family used for the whole page. */
  family: 'Helvetica' | 'Times' | 'Courier';
  fields: InvoiceFields;
  runs: TextRun[];
  rules: Rule[];
}

const PAGE_WIDTH = 612;

function money(value: number, symbol: string): string {
  return `${symbol}${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function withAmounts(items: Array<Omit<InvoiceLine, 'amount'>>): InvoiceLine[] {
  return items.map((item) => ({ ...item, amount: round2(item.quantity * item.unit_price) }));
}

/** Layout A: seller block top-left, big INVOICE top-right, bill-to below, a ruled four-column item table. */
function northwind(): SampleInvoice {
  const lines = withAmounts([
    { description: 'Recycled copy paper A4, 500 sheets', quantity: 12, unit_price: 6.45 },
    { description: 'Blue ballpoint pens, box of 50', quantity: 3, unit_price: 14.9 },
    { description: 'Stapler heavy duty', quantity: 2, unit_price: 23.5 },
    { description: 'Archive boxes, pack of 10', quantity: 4, unit_price: 18.75 },
    { description: 'Delivery and handling', quantity: 1, unit_price: 9.99 },
  ]);
  const subtotal = round2(lines.reduce((sum, line) => sum + line.amount, 0));
  const tax = round2(subtotal * 0.08);
  const fields: InvoiceFields = {
    invoice_number: 'NW-2024-00187',
    issue_date: '2024-03-14',
    due_date: '2024-04-13',
    seller: 'Northwind Office Supplies Ltd.',
    buyer: 'Harbor Logistics Inc.',
    currency: 'USD',
    subtotal,
    tax,
    total: round2(subtotal + tax),
    lines,
  };
  const runs: TextRun[] = [
    { x: 50, y: 740, text: fields.seller, size: 16, font: 'bold' },
    { x: 50, y: 722, text: '1200 Commerce Street, Suite 400', size: 10, font: 'regular' },
    { x: 50, y: 709, text: 'Springfield, IL 62701', size: 10, font: 'regular' },
    { x: 50, y: 696, text: 'billing@northwind-supplies.example', size: 10, font: 'regular' },
    { x: 562, y: 736, text: 'INVOICE', size: 26, font: 'bold', alignRight: true },
    { x: 400, y: 700, text: 'Invoice number:', size: 10, font: 'regular' },
    { x: 562, y: 700, text: fields.invoice_number, size: 10, font: 'bold', alignRight: true },
    { x: 400, y: 686, text: 'Invoice date:', size: 10, font: 'regular' },
    { x: 562, y: 686, text: 'March 14, 2024', size: 10, font: 'regular', alignRight: true },
    { x: 400, y: 672, text: 'Due date:', size: 10, font: 'regular' },
    { x: 562, y: 672, text: 'April 13, 2024', size: 10, font: 'regular', alignRight: true },
    { x: 50, y: 640, text: 'Bill to:', size: 11, font: 'bold' },
    { x: 50, y: 625, text: fields.buyer, size: 10, font: 'regular' },
    { x: 50, y: 612, text: 'Attn: Accounts Payable', size: 10, font: 'regular' },
    { x: 50, y: 599, text: '88 Dockside Avenue, Portland, OR 97201', size: 10, font: 'regular' },
    { x: 50, y: 556, text: 'Description', size: 10, font: 'bold' },
    { x: 370, y: 556, text: 'Qty', size: 10, font: 'bold', alignRight: true },
    { x: 465, y: 556, text: 'Unit price', size: 10, font: 'bold', alignRight: true },
    { x: 562, y: 556, text: 'Amount', size: 10, font: 'bold', alignRight: true },
  ];
  const rules: Rule[] = [{ x1: 50, x2: 562, y: 550, thickness: 1 }];
  let y = 534;
  for (const line of lines) {
    runs.push(
      { x: 50, y, text: line.description, size: 10, font: 'regular' },
      { x: 370, y, text: String(line.quantity), size: 10, font: 'regular', alignRight: true },
      { x: 465, y, text: money(line.unit_price, '$'), size: 10, font: 'regular', alignRight: true },
      { x: 562, y, text: money(line.amount, '$'), size: 10, font: 'regular', alignRight: true },
    );
    y -= 20;
  }
  rules.push({ x1: 50, x2: 562, y: y + 12, thickness: 0.5 });
  y -= 8;
  for (const [label, value, font] of [
    ['Subtotal', fields.subtotal, 'regular'],
    ['Sales tax (8%)', fields.tax, 'regular'],
    ['Total due', fields.total, 'bold'],
  ] as const) {
    runs.push(
      { x: 400, y, text: label, size: 10, font },
      { x: 562, y, text: money(value, '$'), size: 10, font, alignRight: true },
    );
    y -= 16;
  }
  runs.push(
    { x: 50, y: 150, text: 'Payment terms: net 30 days. Please quote the invoice number with your payment.', size: 9, font: 'italic' },
    { x: 50, y: 137, text: 'Bank transfer to First Prairie Bank, account 0049 2231 7788, routing 071000013.', size: 9, font: 'italic' },
    { x: 50, y: 100, text: 'Thank you for your business!', size: 11, font: 'regular' },
  );
  return { name: 'northwind-invoice', family: 'Helvetica', fields, runs, rules };
}

/** Layout B: serif, centred letterhead, a two-column header (billed-to left, details right), hours × rate table. */
function brightline(): SampleInvoice {
  const lines = withAmounts([
    { description: 'Brand identity workshop', quantity: 6, unit_price: 95 },
    { description: 'Logo design, three concepts', quantity: 14, unit_price: 85 },
    { description: 'Style guide layout', quantity: 9.5, unit_price: 80 },
  ]);
  const subtotal = round2(lines.reduce((sum, line) => sum + line.amount, 0));
  const tax = round2(subtotal * 0.2);
  const fields: InvoiceFields = {
    invoice_number: 'BL-0932',
    issue_date: '2024-11-02',
    due_date: '2024-12-02',
    seller: 'Brightline Design Studio',
    buyer: 'Maple & Finch Bakery',
    currency: 'EUR',
    subtotal,
    tax,
    total: round2(subtotal + tax),
    lines,
  };
  const centre = (text: string, y: number, size: number, font: FontKey): TextRun => ({
    // Centred by the generator, which knows the font's widths; x is a placeholder here.
    x: PAGE_WIDTH / 2,
    y,
    text,
    size,
    font,
  });
  const runs: TextRun[] = [
    centre(fields.seller, 735, 22, 'bold'),
    centre('14 Rue des Lilas, 75011 Paris, France', 715, 10, 'regular'),
    centre('VAT FR 40 812 345 678', 702, 10, 'regular'),
    { x: 60, y: 650, text: 'Billed to', size: 12, font: 'bold' },
    { x: 60, y: 634, text: fields.buyer, size: 11, font: 'regular' },
    { x: 60, y: 620, text: '3 Baker Lane', size: 11, font: 'regular' },
    { x: 60, y: 606, text: 'Dublin D02 XY45, Ireland', size: 11, font: 'regular' },
    { x: 340, y: 650, text: 'Invoice details', size: 12, font: 'bold' },
    { x: 340, y: 634, text: `Invoice no. ${fields.invoice_number}`, size: 11, font: 'regular' },
    { x: 340, y: 620, text: 'Issued: 2 November 2024', size: 11, font: 'regular' },
    { x: 340, y: 606, text: 'Due: 2 December 2024', size: 11, font: 'regular' },
    { x: 60, y: 560, text: 'Service', size: 11, font: 'bold' },
    { x: 380, y: 560, text: 'Hours', size: 11, font: 'bold', alignRight: true },
    { x: 460, y: 560, text: 'Rate', size: 11, font: 'bold', alignRight: true },
    { x: 552, y: 560, text: 'Amount', size: 11, font: 'bold', alignRight: true },
  ];
  const rules: Rule[] = [
    { x1: 60, x2: 552, y: 574, thickness: 1 },
    { x1: 60, x2: 552, y: 552, thickness: 1 },
  ];
  let y = 534;
  for (const line of lines) {
    runs.push(
      { x: 60, y, text: line.description, size: 11, font: 'regular' },
      { x: 380, y, text: line.quantity.toFixed(1), size: 11, font: 'regular', alignRight: true },
      { x: 460, y, text: money(line.unit_price, 'EUR '), size: 11, font: 'regular', alignRight: true },
      { x: 552, y, text: money(line.amount, 'EUR '), size: 11, font: 'regular', alignRight: true },
    );
    y -= 22;
  }
  rules.push({ x1: 60, x2: 552, y: y + 12, thickness: 0.5 });
  y -= 10;
  for (const [label, value, font] of [
    ['Net amount', fields.subtotal, 'regular'],
    ['VAT 20%', fields.tax, 'regular'],
    ['Amount due', fields.total, 'bold'],
  ] as const) {
    runs.push(
      { x: 380, y, text: label, size: 11, font },
      { x: 552, y, text: money(value, 'EUR '), size: 11, font, alignRight: true },
    );
    y -= 18;
  }
  runs.push(
    { x: 60, y: 170, text: 'Notes', size: 12, font: 'bold' },
    { x: 60, y: 154, text: 'Payment by SEPA transfer within 30 days to IBAN FR76 3000 6000 0112 3456 7890 189.', size: 10, font: 'regular' },
    { x: 60, y: 140, text: 'Late payments incur a fixed recovery fee of EUR 40.00.', size: 10, font: 'regular' },
  );
  return { name: 'brightline-invoice', family: 'Times', fields, runs, rules };
}

export const sampleInvoices: readonly SampleInvoice[] = [northwind(), brightline()];

/** Centred runs are those whose x is the page centre and which are not right-aligned. */
export function isCentred(run: TextRun): boolean {
  return run.x === PAGE_WIDTH / 2 && !run.alignRight;
}

/** The page's text in reading order: runs grouped into rows by baseline (top first), left to right in a row. */
export function truthText(invoice: SampleInvoice): string {
  const rows = new Map<number, TextRun[]>();
  for (const run of invoice.runs) rows.set(run.y, [...(rows.get(run.y) ?? []), run]);
  return [...rows.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([, runs]) =>
      runs
        .sort((a, b) => (isCentred(a) ? 0 : a.x) - (isCentred(b) ? 0 : b.x))
        .map((run) => run.text)
        .join(' '),
    )
    .join('\n');
}
