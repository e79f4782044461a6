/**
 * The invoice queue's table: one row per document. Headers sort (again: the other way); the checkbox selects a row
 * for a bulk action; a row opens its invoice in Review.
 */
import { ageDays, type InvoiceQueueRow, type InvoiceQueueSort, type InvoiceQueueSortKey } from '../../../../app/invoices/invoiceQueue.js';
import { signalNames } from '../curation/signalNames.js';

interface InvoiceQueueTableProps {
  rows: readonly InvoiceQueueRow[];
  sort: InvoiceQueueSort;
  onSort(key: InvoiceQueueSortKey): void;
  selected: ReadonlySet<string>;
  onSelect(documentId: string, selected: boolean): void;
  onOpen(row: InvoiceQueueRow): void;
  me: string;
  now: number;
  onAssignToMe(row: InvoiceQueueRow): void;
}

const statusLabels: Record<InvoiceQueueRow['status'], string> = { reading: 'Reading', 'in-review': 'In review', reopened: 'Reopened', approved: 'Approved', rejected: 'Rejected' };

const money = (row: InvoiceQueueRow) => {
  if (row.total === null) return '—';
  const amount = row.total.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return row.currency ? `${amount} ${row.currency}` : amount;
};

function Header({ label, title, sortKey, sort, onSort, className }: { label: string; title: string; sortKey: InvoiceQueueSortKey; sort: InvoiceQueueSort; onSort(key: InvoiceQueueSortKey): void; className?: string }) {
  const active = sort.key === sortKey;
  return (
    <th scope="col" className={className} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button className={active ? 'th-sort active' : 'th-sort'} title={`${title} — sort by this (again: the other way)`} onClick={() => onSort(sortKey)} data-testid={`invoice-sort-${sortKey}`}>
        {label}
        {active && <span aria-hidden="true">{sort.descending ? ' ▼' : ' ▲'}</span>}
      </button>
    </th>
  );
}

export function InvoiceQueueTable({ rows, sort, onSort, selected, onSelect, onOpen, me, now, onAssignToMe }: InvoiceQueueTableProps) {
  const header = { sort, onSort };
  return (
    <table className="curation-table invoice-queue-table" data-testid="invoice-queue-table">
      <thead>
        <tr>
          <th scope="col" className="col-select">
            <span className="visually-hidden">Select</span>
          </th>
          <Header label="Attention" title="Exceptions first, then doubts; decided invoices last" sortKey="attention" {...header} />
          <Header label="Supplier" title="The seller" sortKey="supplier" {...header} />
          <Header label="Number" title="Invoice number" sortKey="number" {...header} />
          <Header label="Total" title="Total with VAT, in the invoice's currency" sortKey="total" className="col-number" {...header} />
          <Header label="Due" title="Payment due date" sortKey="due" {...header} />
          <Header label="Waiting" title="Days since the document was imported" sortKey="age" className="col-number" {...header} />
          <Header label="Status" title="In review, reopened, approved, rejected" sortKey="status" {...header} />
          <Header label="Exceptions" title="What an approval would need a reason for" sortKey="exceptions" className="col-number" {...header} />
          <Header label="Assignee" title="Who the invoice is given to; who has claimed it or has it open" sortKey="assignee" {...header} />
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const others = row.openBy.filter((person) => person !== me);
          return (
            <tr
              key={row.documentId}
              className={`curation-row invoice-row${row.clean ? ' clean' : ''}`}
              data-testid="invoice-row"
              data-document-id={row.documentId}
              data-document-name={row.documentName}
              data-clean={row.clean ? 'true' : 'false'}
              tabIndex={0}
              onClick={() => onOpen(row)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(row);
              }}
            >
              <td className="col-select" onClick={(event) => event.stopPropagation()}>
                <input type="checkbox" aria-label={`Select ${row.documentName}`} checked={selected.has(row.documentId)} onChange={(event) => onSelect(row.documentId, event.target.checked)} data-testid="invoice-select" />
              </td>
              <td className="col-attention">
                {row.clean ? (
                  <span className="invoice-clean" title="No exception, every value from the XML, corrected, or read without a doubt">
                    Clean
                  </span>
                ) : (
                  <span className="kind-chips">
                    {[...new Set(row.signals)].map((kind) => (
                      <span key={kind} className="kind-chip" data-signal={kind}>
                        {signalNames[kind] ?? kind}
                      </span>
                    ))}
                  </span>
                )}
              </td>
              <td>
                <span className="curation-doc" data-testid="invoice-supplier">{row.supplier ?? <span className="muted">{row.isInvoice ? 'no supplier read' : 'not an invoice'}</span>}</span>
                <span className="curation-engine" title={row.documentName}>
                  {row.documentName}
                  {row.pageCount > 1 ? ` · ${row.pageCount} pages` : ''}
                </span>
              </td>
              <td data-testid="invoice-number">{row.invoiceNumber ?? '—'}</td>
              <td className="col-number" data-testid="invoice-total">{money(row)}</td>
              <td className="col-when" data-testid="invoice-due">{row.dueDate ?? '—'}</td>
              <td className="col-number" title={`Imported ${new Date(row.importedAt).toLocaleString()}`}>
                {ageDays(row, now)} d
              </td>
              <td>
                <span className={`status-pill status-${row.status}`} data-testid="invoice-status">
                  {statusLabels[row.status]}
                </span>
              </td>
              <td className="col-number" data-testid="invoice-exceptions">{row.exceptions}</td>
              <td>
                <div className="invoice-people">
                {row.assignee ?? (
                  <button
                    className="link-button"
                    onClick={(event) => {
                      event.stopPropagation();
                      onAssignToMe(row);
                    }}
                    title="Give this invoice to yourself"
                  >
                    Take
                  </button>
                )}
                {row.claimedBy && row.claimedBy !== row.assignee && <span className="invoice-claim" title="Claimed: working on it">claimed by {row.claimedBy}</span>}
                {others.length > 0 && (
                  <span className="invoice-open" data-testid="invoice-open-by" title="Has it open now">
                    open: {others.join(', ')}
                  </span>
                )}
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
