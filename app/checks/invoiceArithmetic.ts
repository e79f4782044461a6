/**
 * Invoice arithmetic: do the numbers on an invoice agree with each other? Line amount = quantity × unit price, the sum
 * of line amounts = subtotal, subtotal + tax = total. Values within a rounding tolerance (default: 1 cent per
 * operand, at least 0.01, plus 0.5% for line products where unit prices are rounded) count as consistent.
 * Missing values make a relation unchecked, not failed.
 */
export interface InvoiceLineNumbers {
  quantity?: number | null;
  unitPrice?: number | null;
  amount?: number | null;
}

export interface InvoiceNumbers {
  lines?: InvoiceLineNumbers[];
  subtotal?: number | null;
  tax?: number | null;
  total?: number | null;
}

export interface ArithmeticRelation {
  name: string;
  expected: number;
  actual: number;
  ok: boolean;
}

export interface ArithmeticReport {
  relations: ArithmeticRelation[];
  /** Share of checked relations that hold; 1 when nothing could be checked. */
  score: number;
}

const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

export function checkInvoiceArithmetic(invoice: InvoiceNumbers, centsTolerance = 0.01): ArithmeticReport {
  const relations: ArithmeticRelation[] = [];
  const add = (name: string, expected: number, actual: number, tolerance: number): void => {
    relations.push({ name, expected, actual, ok: Math.abs(expected - actual) <= tolerance + 1e-9 });
  };
  const lines = invoice.lines ?? [];
  lines.forEach((line, i) => {
    if (known(line.quantity) && known(line.unitPrice) && known(line.amount)) {
      const product = line.quantity * line.unitPrice;
      add(`line ${i + 1}: quantity × unit price = amount`, product, line.amount, Math.max(centsTolerance, Math.abs(product) * 0.005));
    }
  });
  const amounts = lines.map((l) => l.amount);
  if (known(invoice.subtotal) && amounts.length > 0 && amounts.every(known)) {
    const sum = (amounts as number[]).reduce((a, b) => a + b, 0);
    add('sum of line amounts = subtotal', sum, invoice.subtotal, centsTolerance * Math.max(1, amounts.length));
  }
  if (known(invoice.subtotal) && known(invoice.tax) && known(invoice.total)) {
    add('subtotal + tax = total', invoice.subtotal + invoice.tax, invoice.total, centsTolerance * 2);
  }
  const ok = relations.filter((r) => r.ok).length;
  return { relations, score: relations.length === 0 ? 1 : ok / relations.length };
}
