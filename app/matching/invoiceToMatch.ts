/**
 * What matching reads of an invoice: who sent it, in which currency, the purchase-order reference it prints (BT-13),
 * the bank account it asks to be paid to (BT-84), and its lines. The reviewed invoice is the source; master data
 * never changes it, it only raises exceptions against it.
 */

export interface LineToMatch {
  description: string;
  quantity: number | null;
  unitPrice: number | null;
  amount: number | null;
  /** The seller's or buyer's item identifier where the invoice gives one (BT-155 / BT-156). */
  itemId?: string | null;
}

export interface InvoiceToMatch {
  supplierName: string | null;
  supplierVatId: string | null;
  currency: string | null;
  /** BT-13 as printed; null where the invoice names no purchase order. */
  purchaseOrder: string | null;
  iban: string | null;
  lines: LineToMatch[];
}

/** The quantity billed: as given, else amount ÷ unit price; null where neither says. */
export function billedQuantity(line: LineToMatch): number | null {
  if (line.quantity !== null) return line.quantity;
  if (line.amount !== null && line.unitPrice) return line.amount / line.unitPrice;
  return null;
}

/**
 * The unit price billed: the line's net amount ÷ its quantity where both are given — the amount is what is paid,
 * after line allowances and charges and a price per base quantity (EN 16931 BT-131 against BT-146 / BT-149) — else
 * the unit price as given; null where neither says.
 */
export function billedUnitPrice(line: LineToMatch): number | null {
  if (line.amount !== null && line.quantity) return line.amount / line.quantity;
  return line.unitPrice;
}

/**
 * Whether a line bills something a PO could have ordered: a positive quantity, or with no quantity a positive
 * amount. A credit or discount line (negative) lowers what is paid and is not held against the PO; a line with
 * neither quantity nor amount is a note.
 */
export function isBilled(line: LineToMatch): boolean {
  if (line.quantity !== null) return line.quantity > 0;
  return line.amount !== null && line.amount > 0;
}
