/**
 * The vendor master's check of where an invoice asks to be paid: where the supplier is in the vendor master (by VAT
 * ID, then name) with bank accounts, an IBAN on the invoice that is none of them is an exception (SUP-IBAN) — the
 * classic payment-diversion fraud is an invoice from a known supplier with a new account.
 */
import { ibanKey, nameKey, vatKey, type SupplierAccount } from './masterData.js';

export interface SupplierAccountFinding {
  rule: 'SUP-IBAN';
  detail: string;
}

export function supplierAccountFindings(
  invoice: { supplierName: string | null; supplierVatId: string | null; iban: string | null },
  accountsOf: (keys: { vat: string | null; name: string | null }) => readonly SupplierAccount[],
): SupplierAccountFinding[] {
  const iban = ibanKey(invoice.iban);
  if (!iban) return [];
  const accounts = accountsOf({ vat: vatKey(invoice.supplierVatId), name: nameKey(invoice.supplierName) });
  if (accounts.length === 0) return [];
  if (accounts.some((a) => ibanKey(a.iban) === iban)) return [];
  const known = accounts.map((a) => a.iban).slice(0, 3).join(', ');
  return [{ rule: 'SUP-IBAN', detail: `IBAN ${invoice.iban} is not in the vendor master for ${accounts[0]!.supplierName} (known: ${known})` }];
}
