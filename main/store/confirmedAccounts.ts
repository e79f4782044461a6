/**
 * Bank accounts and VAT IDs an analyst confirmed for a supplier in the Suppliers view (table confirmed_accounts,
 * migration 009). With the accounts earlier local approvals paid to, they are what a supplier is known to be paid to
 * (services/bankAccounts.ts); an account memory learned, or a merge or import brought, is not one until confirmed.
 */
import type Database from 'better-sqlite3';
import { osAccountName } from './reviewEvents.js';

export type AccountKind = 'iban' | 'bic' | 'vat';

export interface ConfirmedAccount {
  supplier: string;
  kind: AccountKind;
  value: string;
  confirmedBy: string;
  osAccount: string | null;
  at: string;
}

export class ConfirmedAccountsRepository {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      insert: db.prepare('INSERT OR IGNORE INTO confirmed_accounts (supplier, kind, value, confirmed_by, os_account, at) VALUES (?, ?, ?, ?, ?, ?)'),
      ofSupplier: db.prepare('SELECT * FROM confirmed_accounts WHERE supplier = ? ORDER BY at'),
    };
  }

  /** `supplier`: the supplier's key (its compact VAT ID, else its name in lower case: bankAccounts.ts). */
  confirm(supplier: string, kind: AccountKind, value: string, confirmedBy: string): void {
    this.statements.insert.run(supplier, kind, value, confirmedBy, osAccountName(), new Date().toISOString());
  }

  ofSupplier(supplier: string): ConfirmedAccount[] {
    return (this.statements.ofSupplier.all(supplier) as { supplier: string; kind: AccountKind; value: string; confirmed_by: string; os_account: string | null; at: string }[]).map((r) => ({
      supplier: r.supplier,
      kind: r.kind,
      value: r.value,
      confirmedBy: r.confirmed_by,
      osAccount: r.os_account,
      at: r.at,
    }));
  }
}
