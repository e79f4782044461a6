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

/** The unit price billed: as given, else amount ÷ quantity; null where neither says. */
export function billedUnitPrice(line: LineToMatch): number | null {
  if (line.unitPrice !== null) return line.unitPrice;
  if (line.amount !== null && line.quantity) return line.amount / line.quantity;
  return null;
}
