/**
 * The EN 16931 validation report of the document's e-invoice, beside the page: the verdict, the declared profile, the
 * schema layer's verdict (or why it was not checked), then the findings — schema errors first, then the fired rules
 * grouped by the invoice field they concern, fatal groups first. A group on a page field is a button: it selects the
 * field and its box on the page. Fields the analyst corrected are marked: the report is re-validated with their values.
 */
import type { EInvoiceValidation } from '../../../../app/contract/einvoiceValidation.js';
import { groupFailures } from '../../../../app/review/einvoiceValidation.js';
import { labelOf } from '../../../../app/invoice/review/index.js';

interface EInvoiceReportPanelProps {
  report: EInvoiceValidation;
  onSelectField(path: string): void;
}

/**
 * The heading names the rules the verdict is by: ZUGFeRD 1.0 predates EN 16931 and is judged by its own; an
 * XRechnung by EN 16931's and XRechnung's together (its BR-DE findings are listed with the others).
 */
function ruleSetTitle(report: EInvoiceValidation): string {
  if (report.ruleSets.includes('zugferd1')) return 'ZUGFeRD 1.0';
  return report.ruleSets.includes('xrechnung') ? 'EN 16931 + XRechnung' : 'EN 16931';
}

export function EInvoiceReportPanel({ report, onSelectField }: EInvoiceReportPanelProps) {
  const title = ruleSetTitle(report);
  const groups = groupFailures(report.failed);
  const fatal = report.failed.filter((f) => f.flag === 'fatal').length;
  const warnings = report.failed.length - fatal;
  return (
    <section className="einvoice-report" aria-label={`${title} validation of the e-invoice`} data-testid="einvoice-report">
      <h3 className="fields-heading">
        {title} <span className={report.valid ? 'rule-count' : 'rule-count fail'}>{report.valid ? 'valid' : `${fatal} fatal`}</span>
        {warnings > 0 && <span className="rule-count warn">{warnings} warning{warnings === 1 ? '' : 's'}</span>}
      </h3>
      <p className="muted einvoice-source" title={report.profile ?? undefined}>
        {report.fileName} · {report.syntax}
        {(report.profileName ?? report.profile) && <> · {report.profileName ?? report.profile}</>}
        {report.edited.length > 0 && <> · with your corrections of {report.edited.map((f) => labelOf(f)).join(', ')}</>}
      </p>
      {report.schema && (
        <p className={report.schema.checked && !report.schema.valid ? 'einvoice-schema is-fatal' : 'muted einvoice-schema'} data-testid="einvoice-schema">
          {report.schema.checked ? `${report.schema.schema}: ${report.schema.valid ? 'valid' : 'invalid'}` : `Schema not checked: ${report.schema.reason}`}
        </p>
      )}
      <ul className="einvoice-groups">
        {groups.map((group) => (
          <li key={group.term} className={group.fatal > 0 ? 'einvoice-group is-fatal' : 'einvoice-group'} data-term={group.term}>
            <button
              className="einvoice-group-head"
              disabled={!group.field}
              onClick={() => group.field && onSelectField(group.field)}
              title={group.field ? `Select ${labelOf(group.field)} and its box on the page` : 'Not a field read from the page'}
            >
              <span className="einvoice-term">{group.term}</span>
              <span className="einvoice-field">{group.field ? labelOf(group.field) : 'in the XML only'}</span>
            </button>
            <ul className="rule-items">
              {group.failures.map((f, index) => (
                <li key={`${f.id}-${f.line ?? ''}-${index}`} className={`einvoice-rule is-${f.flag}`} data-rule={f.id} data-flag={f.flag}>
                  <span className="rule-name">{f.id}</span>
                  {f.line !== undefined && <span className="einvoice-line">line {f.line}</span>}
                  {f.xmlLine !== undefined && <span className="einvoice-line">XML line {f.xmlLine}</span>}
                  <span className="rule-message">{f.message.replace(/^\[[^\]]+\]-?\s*/, '')}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {groups.length === 0 && <p className="muted">Every rule holds.</p>}
    </section>
  );
}
