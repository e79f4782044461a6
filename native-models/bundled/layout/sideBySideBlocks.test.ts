import { describe, expect, it } from 'vitest';
import { layoutPage } from './layoutPage.js';
import type { LayoutWord } from './layoutTypes.js';
import { line } from '../../../testing/syntheticWords.js';

const page = { source: 'text-layer' as const, pageHeight: 2000 };

/** Lines of text from (x, y) down, `pitch` apart; `size` for all but the first, which can be set apart. */
function block(texts: string[], x: number, y: number, options: { pitch?: number; size?: number; first?: Partial<LayoutWord> & { size?: number } } = {}): LayoutWord[] {
  const { pitch = 26, size = 20, first = {} } = options;
  return texts.flatMap((text, i) => {
    if (i > 0) return line(text, x, y + i * pitch, size);
    const { size: firstSize = size, ...extra } = first;
    return line(text, x, y, firstSize, extra);
  });
}

/** A label at x and its value at valueX, one pair a line. */
function pairs(rows: Array<[string, string]>, x: number, valueX: number, y: number, pitch = 26): LayoutWord[] {
  return rows.flatMap(([label, value], i) => [...line(label, x, y + i * pitch), ...line(value, valueX, y + i * pitch)]);
}

describe('blocks side by side', () => {
  it('reads a block with a heading beside another block that holds its own labels one after the other', () => {
    const left = ['Billed to', 'Maple & Finch Bakery', '3 Baker Lane', 'Dublin D02 XY45, Ireland'];
    const right = ['Invoice details', 'Invoice no. BL-0932', 'Issued: 2 November 2024', 'Due: 2 December 2024'];
    const words = [...block(left, 100, 300, { first: { size: 22 } }), ...block(right, 700, 300, { first: { size: 22 } })];
    expect(layoutPage(words, page).markdown).toBe(`${left.join('\n')}\n\n${right.join('\n')}`);
  });

  it('reads an address beside a block of label/value lines that starts lower, keeping each label with its value', () => {
    const words = [
      ...block(['1200 Commerce Street, Suite 400', 'Springfield, IL 62701', 'billing@northwind.example'], 100, 100),
      ...pairs([['Invoice number:', 'NW-2024-00187'], ['Invoice date:', 'March 14, 2024'], ['Due date:', 'April 13, 2024']], 800, 1000, 140),
    ];
    expect(layoutPage(words, page).markdown).toBe(
      '1200 Commerce Street, Suite 400\nSpringfield, IL 62701\nbilling@northwind.example\n\n' +
        'Invoice number: NW-2024-00187\nInvoice date: March 14, 2024\nDue date: April 13, 2024',
    );
  });

  it('reads two addresses under their own headings one after the other ("Bill to:" beside "Ship to:")', () => {
    const left = ['Bill to:', 'Strategic Corp', 'Fakestreet 46', '3500 MJ Utrecht', 'Nederland'];
    const right = ['Ship to:', 'Fakestreet 46', '3500 MJ Utrecht'];
    const words = [...block(left, 100, 300), ...block(right, 700, 300)];
    expect(layoutPage(words, page).markdown).toBe(`${left.join('\n')}\n\n${right.join('\n')}`);
  });

  it('takes a bold first line over regular ones for a heading', () => {
    const bold = { fontName: 'ABCDEF+NotoSans-Bold' };
    const left = ['Invoice address', 'Strategic Corp', 'Fakestreet 46', 'Nederland'];
    const right = ['Delivery address', 'Fakestreet 46', 'Utrecht'];
    const words = [...block(left, 100, 300, { first: bold }), ...block(right, 700, 300, { first: bold })];
    expect(layoutPage(words, page).markdown).toBe(`${left.join('\n')}\n\n${right.join('\n')}`);
  });

  it('reads what the longer side sets under the other block after a gap once both blocks are read', () => {
    const words = [
      ...block(['Northwind Supplies', '1200 Commerce Street'], 100, 100),
      ...pairs([['Invoice number:', 'NW-1'], ['Due date:', 'April 13']], 800, 1000, 100),
      // 18 px under the address: a paragraph gap, not yet a band of its own (24 px).
      ...block(['Bill to:', 'Harbor Logistics Inc.'], 100, 126 + 38),
    ];
    expect(layoutPage(words, page).markdown).toBe('Northwind Supplies\n1200 Commerce Street\n\nInvoice number: NW-1\nDue date: April 13\n\nBill to:\nHarbor Logistics Inc.');
  });
});

describe('lines that run across a gutter stay lines', () => {
  it('keeps labels ending in a colon with the values across from them', () => {
    const words = pairs([['Invoice number:', 'NW-1'], ['Customer:', 'Maple Bakery'], ['Address:', '3 Baker Lane']], 100, 700, 300);
    expect(layoutPage(words, page).markdown).toBe('Invoice number: NW-1\nCustomer: Maple Bakery\nAddress: 3 Baker Lane');
  });

  it('keeps lines that hold their own labels beside a column of amounts', () => {
    const words = pairs([['Tax rate: 20%', 'EUR 504.00'], ['Discount: 5%', 'EUR 10.00'], ['Net amount', 'EUR 2,520.00']], 100, 700, 300);
    expect(layoutPage(words, page).markdown).toBe('Tax rate: 20% EUR 504.00\nDiscount: 5% EUR 10.00\nNet amount EUR 2,520.00');
  });

  it('keeps the rows of two columns under bold headings that start and end level', () => {
    const bold = { fontName: 'ABCDEF+Helvetica-Bold' };
    const words = [
      ...line('Item', 100, 300, 20, bold),
      ...line('Notes', 700, 300, 20, bold),
      ...pairs([['Widget', 'blue and small'], ['Gadget', 'red, sold out'], ['Gizmo', 'back in May']], 100, 700, 326),
    ];
    expect(layoutPage(words, page).markdown).toBe('Item Notes\nWidget blue and small\nGadget red, sold out\nGizmo back in May');
  });

  it('keeps two columns of label/value pairs whose gutter is no wider than a label/value gap', () => {
    const words = [
      ...pairs([['Order:', 'A-1'], ['Date:', 'May 3']], 100, 400, 300),
      ...pairs([['Ship date:', 'May 9'], ['Carrier:', 'DHL']], 700, 1000, 300),
    ];
    expect(layoutPage(words, page).markdown).toBe('Order: A-1 Ship date: May 9\nDate: May 3 Carrier: DHL');
  });
});
