/**
 * Conventions of till receipts that the invoice readers follow (a receipt is an invoice in EN 16931's sense: seller,
 * date, total, often a VAT table; testdata has no receipts, so receiptConventions.test.ts writes them out):
 * - the merchant's name is the first name-like line (the letterhead rule, parties.ts), its address under it;
 * - the amount due is the total ("SUMME", "TOTAL", "Total à payer", "Balance due"); what follows it settles the
 *   payment — the cash tendered ("BAR", "Gegeben", "CASH", "Espèces", "Tendered", a card), the change ("Rückgeld",
 *   "Wechselgeld", "CHANGE", "Rendu", "Monnaie") — and is never the total, even where its line repeats a total word
 *   ("Total tendered", "Total Cash");
 * - the date and time are printed together, often last, and the date order follows the page's locale (dateOrder.ts:
 *   a US state and ZIP code in the address is the US order).
 */

/** Words of a payment line: cash or card tendered, change given back. */
export const tenderedOrChange =
  /(?<![\p{L}])(?:cash|tender(?:ed)?|change|bar(?:geld)?|gegeben|r[üu]ckgeld|wechselgeld|esp[èe]ces|rendu|monnaie|card|karte|ec-?cash|visa|mastercard|girocard)(?![\p{L}])/iu;

/** A total label's segment that names a payment instead ("Total Cash 20.00", "Geg. BAR 10,00"). */
export const isPaymentLine = (text: string): boolean => tenderedOrChange.test(text);
