/**
 * One line item of an invoice, as the readers of item tables (lineItems.ts, headerlessItems.ts) and the item
 * arithmetic (itemArithmetic.ts) share it: its own module so that none of them imports another for the type.
 */
import type { Word } from '../model/extraction.js';

export interface InvoiceLineItem {
  description: string;
  quantity: number | null;
  unitPrice: number | null;
  amount: number | null;
  words: Word[];
}
