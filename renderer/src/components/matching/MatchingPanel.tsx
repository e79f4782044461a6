/**
 * The Matching panel beside the fields (docs/po-matching.md): the PO the invoice was matched to and how it was found,
 * then each invoice line against its PO line — billed and ordered quantity, received, billed and ordered price — with
 * what differs highlighted and the findings under it. Each line's PO line is a choice the analyst can change; the
 * link is remembered for the supplier's next invoices.
 */
import type { DocumentMatchWire } from '../../../../app/contract/matching.js';

interface MatchingPanelProps {
  match: DocumentMatchWire;
  onLink(line: number, target: { poNumber: string; line: number } | null): void;
}

const statusText: Record<DocumentMatchWire['status'], string> = {
  matched: 'matched',
  'within-tolerance': 'within tolerance',
  exception: 'exception',
  'no-po': 'no PO',
};

const show = (n: number | null): string => (n === null ? '—' : String(Math.round(n * 10_000) / 10_000));
const key = (poNumber: string, line: number) => `${poNumber}#${line}`;

export function MatchingPanel({ match, onLink }: MatchingPanelProps) {
  const failing = match.findings.length;
  return (
    <section className="matching-panel" aria-label="Matching against purchase orders" data-testid="matching-panel">
      <h3 className="fields-heading">
        Matching{' '}
        <span className={failing > 0 ? 'rule-count fail' : 'rule-count'} data-testid="match-status">
          {statusText[match.status]}
        </span>
      </h3>
      <p className="muted">
        {match.poNumber ? (
          <>
            PO {match.poNumber} · found by {match.foundBy === 'reference' ? 'the invoice’s PO reference' : 'supplier and lines'}
          </>
        ) : (
          'No purchase order of this supplier matches.'
        )}
      </p>
      {match.lines.length > 0 && (
        <table className="lines-table matching-table" data-testid="matching-lines">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">PO line</th>
              <th scope="col">Qty billed / ordered</th>
              <th scope="col">Received</th>
              <th scope="col">Price billed / ordered</th>
            </tr>
          </thead>
          <tbody>
            {match.lines.map((l) => {
              const qtyOff = l.findings.some((f) => f.rule === 'PO-QTY');
              const priceOff = l.findings.some((f) => f.rule === 'PO-PRICE');
              return (
                <tr key={l.line} className={l.findings.length > 0 ? 'disagrees' : undefined} data-line={l.line}>
                  <th scope="row" title={l.description}>
                    {l.line}
                  </th>
                  <td>
                    <select
                      aria-label={`PO line of invoice line ${l.line}`}
                      value={l.poNumber !== null && l.poLine !== null ? key(l.poNumber, l.poLine) : ''}
                      onChange={(event) => {
                        const choice = match.choices.find((c) => key(c.poNumber, c.line) === event.target.value);
                        onLink(l.line, choice ? { poNumber: choice.poNumber, line: choice.line } : null);
                      }}
                    >
                      <option value="">none (extra)</option>
                      {match.choices.map((c) => (
                        <option key={key(c.poNumber, c.line)} value={key(c.poNumber, c.line)}>
                          {c.poNumber}/{c.line} {c.description.slice(0, 40)}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className={qtyOff ? 'match-off' : undefined}>
                    {show(l.billedQuantity)} / {show(l.orderedQuantity)}
                  </td>
                  <td className={qtyOff && l.receivedQuantity !== null ? 'match-off' : undefined}>{show(l.receivedQuantity)}</td>
                  <td className={priceOff ? 'match-off' : undefined}>
                    {show(l.billedUnitPrice)} / {show(l.orderedUnitPrice)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {failing > 0 && (
        <ul className="rule-items" data-testid="match-findings">
          {match.findings.map((f, i) => (
            <li key={i} className="einvoice-rule is-fatal" data-rule={f.rule}>
              <span className="rule-name">{f.rule}</span> <span className="rule-message">{f.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
