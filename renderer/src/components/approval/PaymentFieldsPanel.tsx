/**
 * The fields a payment needs (seller and buyer VAT IDs, IBAN, BIC, payment terms, purchase order, contract), then the
 * routing and contact terms XRechnung requires (buyer reference / Leitweg-ID, seller contact, cities, post codes,
 * electronic addresses), under the invoice fields: the value with where it came from, what the page and the e-invoice XML each say, the check
 * (IBAN mod 97, VAT ID format) and an edit box (saved as a `payment.<key>` field correction); and, where the document
 * carries an e-invoice, its line items beside the page's.
 */
import { useCallback, useEffect, useState } from 'react';
import type { PaymentFieldViewWire } from '../../../../app/contract/approval.js';
import { useClient, useContractEvent } from '../../state/contractContext.js';
import type { RuleResult } from '../../../../app/invoice/rules/index.js';
import type { PaymentFieldView } from '../../../../app/invoices/paymentFieldViews.js';
import { paymentRules } from '../../../../app/invoices/paymentRules.js';
import { paymentFieldCatalogue } from '../../../../app/invoice/fieldCatalogue.js';
import { whenIdle } from '../../state/whenIdle.js';
import { ContractError } from '../../../../app/contract/client.js';
import { conflictDetailSchema, type FieldConflict } from '../../../../app/contract/conflicts.js';
import { FieldConflicts } from '../fields/FieldConflicts.js';

/** Payment fields are text (IBAN, BIC, VAT IDs, terms): any format shows them as they are. */
const textFormat = { decimal: '.', group: ',' } as const;

interface Line {
  description: string;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
}
interface PaymentData {
  fields: PaymentFieldViewWire[];
  pageLines: Line[];
  xmlLines: Line[] | null;
}

/** Which part of the panel a field sits in: what a payment needs, or the routing terms XRechnung requires. */
const groupOf = new Map<string, string>(paymentFieldCatalogue.map((f) => [f.key, f.group]));

const num = (n: number | null) => (n === null ? '' : String(n));

function PaymentRow({ field, onSave }: { field: PaymentFieldViewWire; onSave(value: string | null): void }) {
  const [draft, setDraft] = useState(field.value ?? '');
  useEffect(() => setDraft(field.value ?? ''), [field.value]);
  const commit = () => {
    const next = draft.trim() === '' ? null : draft.trim();
    if (next !== field.value) onSave(next);
  };
  return (
    <tr className={field.disagrees ? 'differs' : undefined} data-testid={`payment-${field.key}`}>
      <th title={`${field.bt}`}>{field.label}</th>
      <td>
        <input
          className="text-input"
          value={draft}
          aria-label={field.label}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
        {field.problem ? <div className="problem">{field.problem}</div> : null}
        {field.page !== null || field.xml !== null ? (
          <span className="seen">
            {field.page !== null ? `page: ${field.page}` : ''}
            {field.page !== null && field.xml !== null ? ' · ' : ''}
            {field.xml !== null ? `XML: ${field.xml}` : ''}
          </span>
        ) : null}
      </td>
      <td className="muted">{field.source ?? '—'}</td>
    </tr>
  );
}

function LinesTable({ title, lines }: { title: string; lines: Line[] }) {
  return (
    <table>
      <caption>{title}</caption>
      <thead>
        <tr><th>Description</th><th>Qty</th><th>Price</th><th>Amount</th></tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={i}><td>{l.description}</td><td>{num(l.quantity)}</td><td>{num(l.unit_price)}</td><td>{num(l.amount)}</td></tr>
        ))}
      </tbody>
    </table>
  );
}

/** `onRules`: the payment fields' failing rules each time they are loaded (the pinned failure summary shows them). */
export function PaymentFieldsPanel({ pageId, onRules }: { pageId: string | null; onRules?(rules: RuleResult[]): void }) {
  const client = useClient();
  const [data, setData] = useState<PaymentData | null>(null);
  useEffect(() => onRules?.(data ? paymentRules(data.fields as PaymentFieldView[]) : []), [data, onRules]);
  const load = useCallback(() => {
    if (!pageId) return setData(null);
    void client.call('invoice.paymentFields', { pageId }).then(setData, () => setData(null));
  }, [client, pageId]);
  // Asked once the page is painted (whenIdle.ts): a page switch does not wait for this request to start.
  useEffect(() => whenIdle(load), [load]);
  useContractEvent('page.updated', (payload) => {
    if (payload.pageId === pageId) whenIdle(load);
  });
  // A save on the value shown (basedOn): one that met a newer value is kept as a conflict, shown with the choice.
  const [conflicts, setConflicts] = useState<FieldConflict[]>([]);
  useEffect(() => setConflicts([]), [pageId]);
  const keepConflict = (caught: unknown, replacing?: string) => {
    const detail = caught instanceof ContractError && caught.code === 'conflict' ? conflictDetailSchema.safeParse(caught.detail) : null;
    if (detail?.success && detail.data.kind === 'field') {
      const conflict = detail.data.conflict;
      setConflicts((shown) => [...shown.filter((c) => c.field !== conflict.field && c.id !== replacing), conflict]);
    }
    load();
  };
  const choose = (conflict: FieldConflict, choice: 'theirs' | 'mine') =>
    void client.call('fields.resolveConflict', { conflictId: conflict.id, choice, basedOn: conflict.theirs.id }).then(
      () => (setConflicts((shown) => shown.filter((c) => c.id !== conflict.id)), load()),
      (caught: unknown) => keepConflict(caught, conflict.id),
    );
  if (!data || !pageId) return null;
  const save = (key: string, value: string | null) =>
    void client.call('fields.save', { pageId, field: `payment.${key}`, value, basedOn: data.fields.find((f) => f.key === key)?.revisionId ?? null }).then(load, keepConflict);
  return (
    // Folded by default: one line under the invoice fields and the e-invoice report, opened when needed.
    <details className="payment-fields" data-testid="payment-fields">
      <summary data-testid="payment-fields-toggle">
        Payment · {data.fields.filter((f) => f.value !== null).length} of {data.fields.length} given
        {data.fields.some((f) => f.problem || f.disagrees) ? ' · check' : ''}
        {data.xmlLines ? ' · XML line items' : ''}
      </summary>
      <FieldConflicts conflicts={conflicts} format={textFormat} onSelectField={() => undefined} onChoose={choose} />
      <table>
        <thead>
          <tr><th /><th>Value</th><th>From</th></tr>
        </thead>
        {(['payment', 'routing'] as const).map((group) => (
          <tbody key={group} data-group={group}>
            {group === 'routing' && (
              <tr className="payment-group">
                <th colSpan={3} title="What XRechnung requires beyond EN 16931 (BR-DE-*)">Routing and contact (XRechnung)</th>
              </tr>
            )}
            {data.fields
              .filter((field) => groupOf.get(field.key) === group)
              .map((field) => (
                <PaymentRow key={field.key} field={field} onSave={(value) => save(field.key, value)} />
              ))}
          </tbody>
        ))}
      </table>
      {data.xmlLines ? (
        <div className="xml-lines" data-testid="xml-lines">
          <LinesTable title="Line items on the page" lines={data.pageLines} />
          <LinesTable title="Line items in the e-invoice XML" lines={data.xmlLines} />
        </div>
      ) : null}
    </details>
  );
}
