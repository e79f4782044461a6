/**
 * The invoice fields beside the editor: number, dates, parties, currency, totals and amount due, then the line items
 * as a small table, then the rule results. Each value shows its confidence as a colour, selects its box on the page,
 * and edits inline (FieldValueCell). Where the document carries an e-invoice XML, the values are the XML's (unless
 * corrected: "use XML" takes a correction back to the XML's value) and a second column shows the page's own reading,
 * marking where page and XML disagree. A value read through supplier memory is marked and names the invoice that
 * taught it.
 * Collapsible to a thin strip; every value is reachable with Tab.
 */
import type { ReactElement, ReactNode } from 'react';
import { type FieldValue, lineColumns, lineTermColumns, linePath, scalarFields, shownField, taxColumns, taxPath, valueAt } from '../../../../app/invoice/review/index.js';
import type { FieldReview } from '../../state/useFieldReview.js';
import { formatFieldValue } from '../../logic/fields/fieldEditing.js';
import { FieldValueCell } from './FieldValueCell.js';
import { shortcutOf } from '../../logic/keymap.js';
import { isMac } from '../../state/keyContext.js';
import { RuleList } from './RuleList.js';
import { FailureSummary } from './FailureSummary.js';
import { FieldConflicts } from './FieldConflicts.js';
import { sameFieldValue, summarizeFailures, xmlDisagreements, type SummaryDuplicate } from '../../logic/fields/failureSummary.js';
import type { RuleResult } from '../../../../app/invoice/rules/index.js';
import { DOCUMENT_TYPE_PATH, documentTypes, isDocumentType, type DocumentType } from '../../../../app/invoice/documentType.js';

interface FieldsPanelProps {
  fields: FieldReview;
  selected: ReadonlySet<string>;
  activeRule: number | null;
  /** The page has been read (its rules mean something). */
  read: boolean;
  collapsed: boolean;
  onToggle(): void;
  onSelectField(path: string): void;
  onFocusField(path: string): void;
  onSelectRule(index: number): void;
  /** Other invoices this one looks like (pinned in the summary). */
  duplicates: readonly SummaryDuplicate[];
  /** Opens another page (a duplicate's). */
  onOpenPage(pageId: string): void;
  /** The entry of the field being typed, as parsed so far; undefined when the edit ends. */
  onDraft?(path: string, value: FieldValue | undefined): void;
  /** Failing rules of the document's payment fields (checked on the main side), shown in the summary with the page's. */
  paymentRules?: readonly RuleResult[];
  /**
   * The panels under the fields (the e-invoice's report, the PO match, duplicates, payment): in the fields' own
   * scroll area, under the pinned summary — one scroll area for the column, so none of them pushes the summary away.
   */
  below?: ReactNode;
}

type MemoryOrigin = { supplier: string; taughtBy: string; taughtByDocument: string | null };

const memoryTitle = (memory: MemoryOrigin) =>
  `Read through the supplier memory of ${memory.supplier}, taught by ${memory.taughtByDocument ?? 'a document no longer in the project'}${memory.taughtByDocument ? ': open it' : ''}`;

/**
 * The document's type, as the page was read or as the analyst set it: a till receipt owes its merchant, date and total
 * (not an invoice's number, currency code or buyer: documentType.ts), and invoices.csv says `receipt`. Changing it is a
 * field correction like any other (undone with the panel's undo).
 */
function DocumentTypeChoice({ type, corrected, onChange }: { type: DocumentType; corrected: boolean; onChange(type: DocumentType): void }) {
  return (
    <label className="document-type" title="A receipt owes its merchant, date and total; an invoice also its number, currency code and buyer">
      Document type{' '}
      <select value={type} onChange={(event) => isDocumentType(event.target.value) && onChange(event.target.value)} data-testid="document-type" data-corrected={corrected || undefined}>
        {documentTypes.map((t) => (
          <option key={t} value={t}>
            {t === 'invoice' ? 'Invoice' : 'Receipt'}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Where values came from supplier memory: one line over the fields naming the supplier and the invoice that taught
 * it (a link), and a small mark beside each such value (also a link) — the analyst sees which values the page's own
 * reading did not give, without a line under every value in a narrow column.
 */
function MemorySummary({ origins, onOpenPage }: { origins: { memory: MemoryOrigin; labels: string[] }[]; onOpenPage(pageId: string): void }) {
  return (
    <>
      {origins.map(({ memory, labels }) => (
        <p key={memory.taughtBy} className="memory-summary" data-testid="memory-summary">
          {labels.join(', ')}: read through the memory of {memory.supplier}, taught by{' '}
          {memory.taughtByDocument ? (
            <button className="link-button memory-doc" title={memoryTitle(memory)} onClick={() => onOpenPage(memory.taughtBy)}>
              {memory.taughtByDocument}
            </button>
          ) : (
            'a document no longer in the project'
          )}
        </p>
      ))}
    </>
  );
}

function MemoryMark({ field, memory, onOpenPage }: { field: string; memory: MemoryOrigin; onOpenPage(pageId: string): void }) {
  return (
    <button className="memory-mark" data-memory-source={field} title={memoryTitle(memory)} disabled={!memory.taughtByDocument} onClick={() => onOpenPage(memory.taughtBy)}>
      memory
    </button>
  );
}

export function FieldsPanel(props: FieldsPanelProps) {
  const { fields, selected, collapsed } = props;
  const failingFields = new Set(fields.rules.filter((r) => r.status === 'fail').flatMap((r) => r.fields));
  const failing = fields.rules.filter((r) => r.status === 'fail').length;
  if (collapsed) {
    return (
      <aside className="fields-panel collapsed" aria-label="Invoice fields (collapsed)">
        <button className="fields-toggle" onClick={props.onToggle} title="Show the invoice fields (Ctrl+Shift+F)" data-testid="fields-toggle">
          <span className="fields-toggle-label">Fields</span>
          {failing > 0 && <span className="rule-count fail">{failing}</span>}
        </button>
      </aside>
    );
  }
  const values = fields.values;
  const xml = fields.engine?.xml ?? null;
  // The XML's unit and VAT category per line, shown while the lines are the XML's (a line added by a correction has none).
  const lineTerms = fields.engine?.lineTerms ?? null;
  // Where the document carries an e-invoice its XML is the invoice (the values shown and checked); the page's own
  // reading is the column beside it, compared field by field — a corrected field is the analyst's decision.
  const pageReading = fields.engine?.origin === 'xml' ? fields.engine.page : null;
  // A difference where the page also prints the XML's value is a reading doubt, as the approval counts it: not marked ≠.
  const disagreeing = new Set(pageReading ? xmlDisagreements(pageReading, xml, fields.documentText).filter((key) => !fields.corrected.has(key)) : xmlDisagreements(values, xml, fields.documentText));
  const fieldsRead = !!values && (scalarFields.some((field) => valueAt(values, field.key) !== null) || values.lines.length > 0);
  const summary = summarizeFailures(fields.rules, [...disagreeing], props.read, { documentRules: props.paymentRules, duplicates: props.duplicates, fieldsRead, withXml: xml !== null });
  const monthFirst = values?.currency === 'USD';
  // A corrected value is the analyst's, whatever memory read before.
  const memoryOf = (key: string) => (fields.corrected.has(key) ? undefined : fields.engine?.sources[key]?.memory);
  const memoryOrigins: { memory: MemoryOrigin; labels: string[] }[] = [];
  for (const field of scalarFields) {
    const memory = memoryOf(field.key);
    if (!memory || !shownField(field, values ? valueAt(values, field.key) : null, fields.engine?.xml?.[field.key])) continue;
    const origin = memoryOrigins.find((o) => o.memory.taughtBy === memory.taughtBy);
    if (origin) origin.labels.push(field.label);
    else memoryOrigins.push({ memory, labels: [field.label] });
  }
  const cell = (path: string, label: string, kind: (typeof scalarFields)[number]['kind'] | (typeof lineColumns)[number]['kind'] | (typeof taxColumns)[number]['kind']) => (
    <FieldValueCell
      path={path}
      label={label}
      value={values ? valueAt(values, path) : null}
      kind={kind}
      format={fields.format}
      monthFirst={monthFirst}
      confidence={fields.corrected.has(path) ? 1 : (fields.engine?.sources[path]?.confidence ?? null)}
      corrected={fields.corrected.has(path)}
      selected={selected.has(path)}
      failing={failingFields.has(path)}
      onSelect={props.onSelectField}
      onFocusField={props.onFocusField}
      onSave={(field, value) => void fields.save(field, value)}
      onEditStart={fields.beginEdit}
      onEditEnd={fields.endEdit}
      onDraft={props.onDraft}
    />
  );
  return (
    <aside className="fields-panel" aria-label="Invoice fields" data-testid="fields-panel">
      <div className="pane-toolbar">
        <div className="pane-title">Invoice fields</div>
        <span className="toolbar-spacer" />
        <button className="icon-button" onClick={() => void fields.undo()} title={`Undo the last field correction (${shortcutOf('undo-field', isMac)} in the panel)`} disabled={fields.revisions.length === 0}>
          ↶
        </button>
        <button className="icon-button" onClick={props.onToggle} title={`Hide the invoice fields (${shortcutOf('focus-fields', isMac)} shows them again)`} data-testid="fields-toggle">
          ›
        </button>
      </div>
      <FailureSummary summary={summary} onSelectRule={props.onSelectRule} onSelectField={props.onSelectField} onOpenPage={props.onOpenPage} />
      <div className="fields-body">
        {!fields.engine && props.read && <p className="muted fields-empty">The engine found no invoice fields on this page. Values entered here are kept as corrections.</p>}
        {fields.error && <p className="fields-error" role="alert">{fields.error}</p>}
        <FieldConflicts conflicts={fields.conflicts} format={fields.format} onSelectField={props.onSelectField} onChoose={(conflict, choice) => void fields.resolveConflict(conflict, choice)} />
        {memoryOrigins.length > 0 && <MemorySummary origins={memoryOrigins} onOpenPage={props.onOpenPage} />}
        {values && <DocumentTypeChoice type={values.document_type ?? 'invoice'} corrected={fields.corrected.has(DOCUMENT_TYPE_PATH)} onChange={(type) => void fields.save(DOCUMENT_TYPE_PATH, type)} />}
        <table className="fields-table">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col" title={pageReading ? "The e-invoice XML's value unless you corrected it" : undefined}>{pageReading ? 'Value (XML)' : 'Page'}</th>
              {xml && <th scope="col">{pageReading ? 'Page' : 'XML'}</th>}
            </tr>
          </thead>
          <tbody>
            {scalarFields.map((field) => {
              const pageValue = values ? valueAt(values, field.key) : null;
              const xmlValue = xml?.[field.key];
              if (!shownField(field, pageValue, xmlValue) && !fields.corrected.has(field.key)) return null;
              const disagrees = disagreeing.has(field.key);
              const memory = memoryOf(field.key);
              return (
                <tr key={field.key} className={[disagrees && 'disagrees', fields.conflicts.some((c) => c.field === field.key) && 'conflicted'].filter(Boolean).join(' ') || undefined}>
                  <th scope="row">
                    {field.label}
                    {memory && <MemoryMark field={field.key} memory={memory} onOpenPage={props.onOpenPage} />}
                  </th>
                  <td>{cell(field.key, field.label, field.kind)}</td>
                  {xml && !pageReading && (
                    <td className="xml-value" data-xml={field.key} title={disagrees ? 'Page and XML disagree' : undefined}>
                      {disagrees && <span className="disagree-mark" aria-label="disagrees">≠ </span>}
                      {formatFieldValue(xmlValue, field.kind, fields.format) || <span className="muted">—</span>}
                    </td>
                  )}
                  {pageReading && (
                    <td className="xml-value page-reading" data-page-reading={field.key} title={disagrees ? 'The page prints otherwise than the XML' : 'As read from the page'}>
                      {disagrees && <span className="disagree-mark" aria-label="disagrees">≠ </span>}
                      {formatFieldValue(valueAt(pageReading, field.key) ?? null, field.kind, fields.format) || <span className="muted">—</span>}
                      {fields.corrected.has(field.key) && xmlValue !== undefined && !sameFieldValue(pageValue, xmlValue) && (
                        <button className="link-button use-xml" onClick={() => void fields.save(field.key, xmlValue)} title={`Use the XML's value: ${formatFieldValue(xmlValue, field.kind, fields.format) || 'none'}`} data-use-xml={field.key}>
                          use XML
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
        <h3 className="fields-heading">Line items</h3>
        {values && values.lines.length > 0 ? (
          <table className="lines-table" data-testid="line-items">
            <thead>
              <tr>
                <th scope="col">#</th>
                {lineColumns.map((column) => (
                  <th key={column.key} scope="col">
                    {column.label}
                  </th>
                ))}
                {lineTerms && (
                  <>
                    <th scope="col" title={`${lineTermColumns[0].term}, as the XML states it`}>{lineTermColumns[0].label}</th>
                    <th scope="col" title={`${lineTermColumns[1].term} and ${lineTermColumns[2].term.toLowerCase()}, as the XML states them`}>{lineTermColumns[1].label}</th>
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {values.lines.map((_, index) => (
                <tr key={index}>
                  <th scope="row">{index + 1}</th>
                  {lineColumns.map((column) => (
                    <td key={column.key} className={`line-${column.key}`}>
                      {cell(linePath(index, column.key), `Line ${index + 1} ${column.label.toLowerCase()}`, column.kind)}
                    </td>
                  ))}
                  {lineTerms && <LineTermCells terms={lineTerms[index]} />}
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">No line items read.</p>
        )}
        <VatBreakdownTable fields={fields} cell={cell} />
        <RuleList rules={fields.rules} read={props.read} activeIndex={props.activeRule} onSelect={props.onSelectRule} />
        {props.below}
      </div>
    </aside>
  );
}

/** A line's unit and VAT category with rate as its XML states them (BT-130, BT-151, BT-152); a dash where it states none. */
function LineTermCells({ terms }: { terms: { unitCode: string | null; category: string | null; rate: number | null } | undefined }) {
  const vat = terms?.category ? `${terms.category}${terms.rate !== null ? ` ${terms.rate} %` : ''}` : terms?.rate != null ? `${terms.rate} %` : null;
  return (
    <>
      <td className="line-term line-unit" data-line-unit>
        {terms?.unitCode ?? <span className="muted">—</span>}
      </td>
      <td className="line-term line-vat" data-line-vat>
        {vat ?? <span className="muted">—</span>}
      </td>
    </>
  );
}

const sameRow = (a: { rate: number | null; base: number | null; amount: number | null }, b: typeof a): boolean =>
  (['rate', 'base', 'amount'] as const).every((k) => (a[k] === null && b[k] === null) || (a[k] !== null && b[k] !== null && Math.abs(a[k]! - b[k]!) < 0.005));

/**
 * The VAT breakdown (one row per rate: rate, taxable amount, tax), editable like the line items; shown where the page,
 * the XML or a correction gives one. With an XML, rows the XML does not state are marked.
 */
function VatBreakdownTable({ fields, cell }: { fields: FieldReview; cell: (path: string, label: string, kind: (typeof taxColumns)[number]['kind']) => ReactElement }) {
  const rows = fields.values?.tax_breakdown ?? [];
  const xmlRows = fields.engine?.xml?.tax_breakdown ?? null;
  if (rows.length === 0 && !xmlRows?.length) return null;
  return (
    <>
      <h3 className="fields-heading">VAT breakdown</h3>
      {rows.length > 0 ? (
        <table className="lines-table vat-table" data-testid="vat-breakdown">
          <thead>
            <tr>
              {taxColumns.map((column) => (
                <th key={column.key} scope="col">
                  {column.label}
                </th>
              ))}
              {xmlRows && <th scope="col">XML</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const inXml = xmlRows ? xmlRows.some((x) => sameRow(x, row)) : null;
              return (
                <tr key={index} className={inXml === false ? 'disagrees' : undefined}>
                  {taxColumns.map((column) => (
                    <td key={column.key} className={`vat-${column.key}`}>
                      {cell(taxPath(index, column.key), `VAT row ${index + 1} ${column.label.toLowerCase()}`, column.kind)}
                    </td>
                  ))}
                  {xmlRows && <td className="xml-value">{inXml ? '=' : <span className="disagree-mark" aria-label="not in the XML">≠</span>}</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="muted">No VAT breakdown read from the page.</p>
      )}
      {xmlRows && xmlRows.length > 0 && (
        <p className="muted vat-xml" data-testid="vat-breakdown-xml">
          XML:{' '}
          {xmlRows
            .map((x) => `${x.rate ?? '?'} % ${formatFieldValue(x.base, 'amount', fields.format) || '—'} → ${formatFieldValue(x.amount, 'amount', fields.format) || '—'}`)
            .join('; ')}
        </p>
      )}
    </>
  );
}
