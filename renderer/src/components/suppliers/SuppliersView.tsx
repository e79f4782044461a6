/**
 * The Suppliers view: what supplier memory learned in this project (docs/supplier-memory.md). Each supplier with the
 * pages that taught it (which open in the review screen), the fields it knows where to read, its own identifiers, and
 * how often the values it proposed were kept or corrected since — a supplier whose values keep being corrected is
 * marked. Rename (Enter renames, Escape puts the name back), merge into another, forget (after asking, with an Undo
 * while the view is open); confirm a bank account memory holds but no approval here backs.
 */
import { useState } from 'react';
import type { SupplierSummaryWire } from '../../../../app/contract/suppliers.js';
import { useSuppliers } from '../../state/useSuppliers.js';
import { MasterDataImport } from '../matching/MasterDataImport.js';

/** A supplier whose proposals were corrected this often (share of all) is shown as doubted: its confidence drops. */
const DOUBTED_SHARE = 0.2;

/** The supplier's own identifiers, each named by its kind (the buyer's are never listed: main/store/supplierMemory.ts). */
const identifiers = (s: SupplierSummaryWire): string[] => [
  ...s.vatIds.map((v) => `VAT ${v}`),
  ...s.taxNumbers.map((v) => `tax no. ${v}`),
  ...s.ibans.map((v) => `IBAN ${v}`),
  ...s.glns.map((v) => `GLN ${v}`),
  ...(s.phones ?? []).map((v) => `tel. ${v}`),
];

interface SuppliersViewProps {
  onOpenPage(pageId: string): void;
}

interface SupplierRowProps {
  supplier: SupplierSummaryWire;
  others: SupplierSummaryWire[];
  actions: ReturnType<typeof useSuppliers>;
  onOpenPage(pageId: string): void;
  onForgotten(forgotten: Forgotten): void;
}

/** A forget that can still be undone: its token, and the words that say what it took. */
interface Forgotten {
  undo: string;
  name: string;
  invoices: number;
}

const invoicesWord = (n: number) => `${n} invoice${n === 1 ? '' : 's'}`;

function SupplierRow({ supplier, others, actions, onOpenPage, onForgotten }: SupplierRowProps) {
  const [name, setName] = useState(supplier.name);
  const [mergeFrom, setMergeFrom] = useState('');
  const [askingForget, setAskingForget] = useState(false);
  const renamable = name.trim() !== supplier.name && name.trim() !== '';
  const rename = () => {
    if (renamable) void actions.rename(supplier.id, name);
  };
  const forget = async () => {
    setAskingForget(false);
    const undo = await actions.forget(supplier.id);
    if (undo) onForgotten({ undo, name: supplier.name, invoices: supplier.pages.length });
  };
  const proposed = supplier.kept + supplier.corrected;
  const doubted = proposed > 0 && supplier.corrected / proposed >= DOUBTED_SHARE;
  return (
    <tr data-testid="supplier-row" className={doubted ? 'supplier-doubted' : undefined}>
      <td>
        <div className="suppliers-name">
          <input
            aria-label="Supplier name"
            value={name}
            title={supplier.name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                rename();
              } else if (e.key === 'Escape') {
                e.preventDefault();
                setName(supplier.name);
              }
            }}
          />
          {renamable && <button onClick={rename}>Rename</button>}
        </div>
        <div className="suppliers-ids" data-testid="supplier-ids">
          {identifiers(supplier).join(' · ') || 'no identifier of its own printed'}
        </div>
        {(supplier.unconfirmedIbans ?? []).map((iban) => (
          // An account memory holds that no approval here backs: invoices paying to it are exceptions until confirmed.
          <div key={iban} className="suppliers-unconfirmed" data-testid="supplier-unconfirmed-iban">
            IBAN {iban} not confirmed <button onClick={() => void actions.confirmIban(supplier.id, iban)}>Confirm as this supplier's account</button>
          </div>
        ))}
      </td>
      <td>
        {supplier.pages.map((page, i) => (
          <button key={page.pageId} className="suppliers-page" title={`learned ${page.learnedAt}: open its first page`} onClick={() => onOpenPage(page.pageId)}>
            invoice {i + 1}
          </button>
        ))}
      </td>
      <td>{supplier.fields.map((f) => f.replace(/_/g, ' ')).join(', ')}</td>
      <td className="num" data-testid="supplier-kept">
        {proposed === 0 ? 'none checked yet' : `${supplier.kept} kept / ${supplier.corrected} corrected${doubted ? ' — doubted' : ''}`}
      </td>
      <td>
        <div className="suppliers-actions">
          <select aria-label="Merge into this supplier" value={mergeFrom} onChange={(e) => setMergeFrom(e.target.value)}>
            <option value="">merge another into it…</option>
            {others.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
          {mergeFrom && <button onClick={() => void actions.merge(supplier.id, mergeFrom).then(() => setMergeFrom(''))}>Merge</button>}
          {!askingForget && <button onClick={() => setAskingForget(true)}>Forget</button>}
        </div>
        {askingForget && (
          // Forgetting takes back what every invoice of this supplier taught: asked first, and undoable after.
          <div
            className="suppliers-confirm"
            role="alertdialog"
            aria-label={`Forget ${supplier.name}`}
            data-testid="supplier-forget-confirm"
            onKeyDown={(e) => {
              if (e.key === 'Escape') setAskingForget(false);
            }}
          >
            Forget {supplier.name} and what {invoicesWord(supplier.pages.length)} taught it? Your corrections stay.
            <div className="suppliers-actions">
              <button autoFocus onClick={() => void forget()}>
                Forget supplier
              </button>
              <button onClick={() => setAskingForget(false)}>Cancel</button>
            </div>
          </div>
        )}
      </td>
    </tr>
  );
}

export function SuppliersView({ onOpenPage }: SuppliersViewProps) {
  const actions = useSuppliers();
  const { suppliers, error } = actions;
  const [forgotten, setForgotten] = useState<Forgotten | null>(null);
  return (
    <section className="suppliers-view" data-testid="suppliers-view">
      <h2>Suppliers</h2>
      <p className="suppliers-muted">
        Learned from the invoices you corrected or approved: where each supplier prints its fields and how, never the values of an invoice. The next invoice of a supplier is read through
        its memory.
      </p>
      {error && <p role="alert">{error}</p>}
      {forgotten && (
        <p className="suppliers-undo" role="status" data-testid="supplier-forgotten">
          Forgot {forgotten.name} ({invoicesWord(forgotten.invoices)}).{' '}
          <button onClick={() => void actions.undoForget(forgotten.undo).then(() => setForgotten(null))}>Undo</button>
        </p>
      )}
      <MasterDataImport />
      {suppliers.length === 0 ? (
        <p className="suppliers-muted">No supplier learned yet: correct or approve an invoice's fields in the review screen.</p>
      ) : (
        <table className="suppliers-table">
          <thead>
            <tr>
              <th className="suppliers-name-col">Supplier</th>
              <th>Learned from</th>
              <th>Fields it reads</th>
              <th>Its values since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {suppliers.map((s) => (
              <SupplierRow key={`${s.id}:${s.name}`} supplier={s} others={suppliers.filter((o) => o.id !== s.id)} actions={actions} onOpenPage={onOpenPage} onForgotten={setForgotten} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
