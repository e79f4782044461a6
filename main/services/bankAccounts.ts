/**
 * Bank-account changes are exceptions (issue 37, docs/security.md). A supplier is known to be paid to the accounts of
 * its invoices approved here (local approvals, sealed, not approved over a bank-account exception) and to the accounts
 * an analyst confirmed in the Suppliers view. An invoice whose IBAN or BIC is not one of them — or whose seller VAT ID
 * differs from the one approved before under the same name — is an exception naming the old and the new; approving
 * over it needs a reason, and that approval does not make the account known. An account that supplier memory holds
 * (learned from corrections, or brought by a merge or import) but that no local approval or confirmation backs is
 * unconfirmed: an invoice paying to it is an exception too. A supplier seen for the first time raises nothing.
 */
import { compactId } from '../../app/invoice/identifiers.js';
import type { ApprovalException } from '../../app/contract/approval.js';
import { approvedContentOf, type ApprovedContent } from '../store/approvalSeals.js';
import type { ProjectStore } from '../store/projectStore.js';
import { isApproval } from '../store/reviewEvents.js';

interface Payee {
  documentId: string;
  documentName: string;
  name: string | null;
  vat: string | null;
  iban: string | null;
  bic: string | null;
}

const nameKey = (name: string | null) => (name ? name.trim().toLowerCase().replace(/\s+/g, ' ') : null);
const idOf = (value: string | null | undefined) => (value ? compactId(value) : null);

/** The key a supplier's confirmed accounts are kept under: its compact VAT ID, else its name in lower case. */
export function supplierKey(vat: string | null, name: string | null): string | null {
  return idOf(vat) ?? nameKey(name);
}

function payeeOf(documentId: string, documentName: string, content: ApprovedContent): Payee {
  const seller = (content.fields as unknown as Record<string, unknown>).seller;
  return {
    documentId,
    documentName,
    name: typeof seller === 'string' ? seller : null,
    vat: idOf(content.payment.seller_vat_id),
    iban: idOf(content.payment.iban),
    bic: idOf(content.payment.bic),
  };
}

/**
 * The queue asks for every invoice's exceptions on each refresh: the payee read from a document's content is kept
 * per project until the document's content stamp changes (documents.contentStamp). The approval itself never uses it.
 */
const payeeCache = new WeakMap<ProjectStore, Map<string, { stamp: string; payee: Payee }>>();

function cachedPayee(store: ProjectStore, documentId: string, documentName: string): Payee {
  let cache = payeeCache.get(store);
  if (!cache) payeeCache.set(store, (cache = new Map()));
  const stamp = store.documents.contentStamp(documentId);
  const hit = cache.get(documentId);
  if (hit && hit.stamp === stamp) return hit.payee;
  const payee = payeeOf(documentId, documentName, approvedContentOf(store, documentId));
  cache.set(documentId, { stamp, payee });
  return payee;
}

/** Where a known account comes from, for the exception's words. */
type Known = Map<string, string[]>;

const add = (known: Known, value: string | null, source: string) => {
  if (value) known.set(value, [...(known.get(value) ?? []), source]);
};

const sameSupplier = (a: Payee, b: Pick<Payee, 'vat' | 'name'>) => (a.vat !== null && a.vat === b.vat) || (a.name !== null && nameKey(a.name) === nameKey(b.name));

/** The payee of a document approved here whole, when its approval makes its accounts known; else null. */
function approvedPayeeOf(store: ProjectStore, doc: { id: string; name: string; pages: readonly { id: string; reviewStatus: string }[] }): Payee | null {
  const first = doc.pages[0];
  if (!first || !doc.pages.every((p) => p.reviewStatus === 'approved')) return null;
  const event = store.reviewEvents.latest(first.id);
  // A decision from elsewhere, or one taken over a bank-account exception, does not make an account known.
  if (!event || event.origin || !event.sealed || !isApproval(event.status) || event.exceptions.some((e) => e.startsWith('bank-account'))) return null;
  try {
    return payeeOf(doc.id, doc.name, JSON.parse(event.sealed) as ApprovedContent);
  } catch {
    // An unreadable seal does not hold (approvalSeals.ts): no account is known from it.
    return null;
  }
}

/** What the project knows about who is paid where: built once, asked per invoice. */
export class KnownAccounts {
  private constructor(
    private readonly store: ProjectStore,
    /** Invoices approved here, as approved (their seals). */
    private readonly approved: Payee[],
    /** Supplier memory's suppliers with their identifiers. */
    private memory: readonly { name: string; vatIds: string[]; ibans: string[] }[],
  ) {}

  static of(store: ProjectStore): KnownAccounts {
    const approved: Payee[] = [];
    for (const doc of store.documents.listDocuments()) {
      const payee = approvedPayeeOf(store, doc);
      if (payee) approved.push(payee);
    }
    return new KnownAccounts(store, approved, store.supplierMemory.list());
  }

  /**
   * After `documentId` was approved (or decided otherwise) while this instance is in use — a bulk approval checks each
   * invoice after the ones approved before it without listing every document again: the document's payee counts as
   * known exactly when `of` would count it now, and supplier memory (which the approval may have taught) is read again.
   */
  noteDecision(documentId: string): void {
    const index = this.approved.findIndex((p) => p.documentId === documentId);
    if (index >= 0) this.approved.splice(index, 1);
    const payee = approvedPayeeOf(this.store, this.store.documents.getDocument(documentId));
    if (payee) this.approved.push(payee);
    this.memory = this.store.supplierMemory.list();
  }

  /** Whether an approval here (not over a bank-account exception) or a confirmation backs `iban` for the supplier. */
  isKnownIban(supplier: { name: string; vatIds: readonly string[] }, iban: string): boolean {
    const value = compactId(iban);
    const vats = supplier.vatIds.map(compactId);
    const who = { name: supplier.name, vat: null as string | null };
    if (this.approved.some((p) => p.iban === value && (sameSupplier(p, who) || (p.vat !== null && vats.includes(p.vat))))) return true;
    const keys = new Set([...vats, nameKey(supplier.name)].filter((k): k is string => k !== null));
    return [...keys].some((key) => this.store.confirmedAccounts.ofSupplier(key).some((c) => c.kind === 'iban' && compactId(c.value) === value));
  }

  /** The invoice's bank-account and VAT-ID exceptions; `cached` (the queue): the payee read once per content change. */
  exceptionsOf(documentId: string, { cached = false } = {}): ApprovalException[] {
    const doc = this.store.documents.getDocument(documentId);
    const now = cached ? cachedPayee(this.store, documentId, doc.name) : payeeOf(documentId, doc.name, approvedContentOf(this.store, documentId));
    if (!now.vat && !now.name) return [];
    const earlier = this.approved.filter((p) => p.documentId !== documentId && sameSupplier(p, now));
    const ibans: Known = new Map();
    const bics: Known = new Map();
    const vats: Known = new Map();
    for (const p of earlier) {
      add(ibans, p.iban, `approved ${p.documentName}`);
      add(bics, p.bic, `approved ${p.documentName}`);
      if (nameKey(p.name) === nameKey(now.name)) add(vats, p.vat, `approved ${p.documentName}`);
    }
    for (const key of new Set([supplierKey(now.vat, null), nameKey(now.name)].filter((k): k is string => k !== null))) {
      for (const c of this.store.confirmedAccounts.ofSupplier(key)) {
        add(c.kind === 'iban' ? ibans : c.kind === 'bic' ? bics : vats, idOf(c.value), `confirmed by ${c.confirmedBy}`);
      }
    }
    const memory = new Set<string>();
    for (const supplier of this.memory) {
      const matches = (now.vat !== null && supplier.vatIds.map(compactId).includes(now.vat)) || nameKey(supplier.name) === nameKey(now.name);
      if (matches) for (const iban of supplier.ibans) memory.add(compactId(iban));
    }
    const supplier = now.name ?? now.vat!;
    const exceptions: string[] = [];
    const changed = (what: string, known: Known, value: string | null) => {
      if (!value || known.size === 0 || known.has(value)) return;
      const before = [...known].map(([v, sources]) => `${v} (${[...new Set(sources)].join(', ')})`).join(', ');
      exceptions.push(`${what} changed: ${supplier} was paid to ${before}; this invoice names ${value}`);
    };
    changed('IBAN', ibans, now.iban);
    changed('BIC', bics, now.bic);
    if (now.vat && vats.size > 0 && !vats.has(now.vat)) {
      exceptions.push(`seller VAT ID changed: ${supplier} was approved with ${[...vats.keys()].join(', ')}; this invoice names ${now.vat}`);
    }
    if (now.iban && ibans.size === 0 && memory.size > 0) {
      exceptions.push(
        memory.has(now.iban)
          ? `IBAN ${now.iban} is known only from supplier memory, never confirmed by an approval here: confirm it in the Suppliers view`
          : `IBAN changed: supplier memory holds ${[...memory].join(', ')} (unconfirmed) for ${supplier}; this invoice names ${now.iban}`,
      );
    }
    return exceptions.map((detail) => ({ kind: 'bank-account' as const, detail, pageNumber: 1 }));
  }
}
