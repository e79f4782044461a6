/**
 * The pinned summary at the top of the fields panel: what fails on this page, at a glance and above the fold at
 * 1280×720 (the rule list below may be scrolled off). Each entry selects its rule or field, as the list does; a
 * possible duplicate opens the other invoice.
 */
import { byRule, clearMessage, fieldLabel, type FailureSummary as Summary } from '../../logic/fields/failureSummary.js';

interface FailureSummaryProps {
  summary: Summary;
  onSelectRule(index: number): void;
  onSelectField(path: string): void;
  /** Opens another invoice's page (a possible duplicate). */
  onOpenPage(pageId: string): void;
}

/** Entries shown per group before "+N more" (the rule list below holds them all). */
const SHOWN_PER_GROUP = 3;

export function FailureSummary({ summary, onSelectRule, onSelectField, onOpenPage }: FailureSummaryProps) {
  if (!summary.read) {
    return (
      <div className="failure-summary pending" data-testid="failure-summary" data-state="unread">
        Not read yet: the rules run once the page has been read.
      </div>
    );
  }
  const toActOn = summary.failing.length + summary.missing.length + summary.disagreements.length + summary.duplicates.length;
  if (!summary.fieldsRead && toActOn === 0) {
    return (
      <div className="failure-summary pending" data-testid="failure-summary" data-state="no-fields">
        No invoice field was read on this page: no rule had anything to check. Enter the fields to check them.
      </div>
    );
  }
  if (summary.clear) {
    return (
      <div className="failure-summary clear" data-testid="failure-summary" data-state="clear">
        <span aria-hidden="true">✓</span> {clearMessage(summary)}
      </div>
    );
  }
  const rules = (label: string, kind: string, entries: Summary['failing']) =>
    entries.length > 0 && (
      <div className="summary-group" data-summary={kind}>
        <span className="summary-label">
          {label} <b>{entries.length}</b>
        </span>
        {byRule(entries).slice(0, SHOWN_PER_GROUP).map((entry) => (
          <button key={`${entry.rule}-${entry.index}`} className="summary-chip fail" title={entry.message} onClick={() => (entry.field ? onSelectField(entry.field) : onSelectRule(entry.index))} data-summary-rule={entry.rule}>
            {entry.rule}
            {entry.count > 1 && ` ×${entry.count}`}
          </button>
        ))}
        {byRule(entries).length > SHOWN_PER_GROUP && <span className="muted">+{byRule(entries).length - SHOWN_PER_GROUP} more below</span>}
      </div>
    );
  return (
    <div className="failure-summary" data-testid="failure-summary" data-state="failing" role="status" aria-label="What fails on this page">
      {rules('Failing rules', 'failing', summary.failing)}
      {rules('Missing fields', 'missing', summary.missing)}
      {summary.disagreements.length > 0 && (
        <div className="summary-group" data-summary="xml">
          <span className="summary-label">
            Page ≠ XML <b>{summary.disagreements.length}</b>
          </span>
          {summary.disagreements.map((key) => (
            <button key={key} className="summary-chip warn" onClick={() => onSelectField(key)} data-summary-field={key}>
              {fieldLabel(key)}
            </button>
          ))}
        </div>
      )}
      {summary.duplicates.length > 0 && (
        <div className="summary-group" data-summary="duplicate">
          <span className="summary-label">
            Duplicate? <b>{summary.duplicates.length}</b>
          </span>
          {summary.duplicates.slice(0, SHOWN_PER_GROUP).map((duplicate) =>
            duplicate.pageId ? (
              <button
                key={`${duplicate.why}:${duplicate.documentName}`}
                className="summary-chip warn"
                title={`${duplicate.why} ${duplicate.documentName}: open it`}
                onClick={() => onOpenPage(duplicate.pageId!)}
                data-summary-duplicate={duplicate.pageId}
              >
                {duplicate.documentName}
              </button>
            ) : (
              <span key={`${duplicate.why}:${duplicate.documentName}`} className="summary-chip warn" title={duplicate.why}>
                {duplicate.documentName}
              </span>
            ),
          )}
          {summary.duplicates.length > SHOWN_PER_GROUP && <span className="muted">+{summary.duplicates.length - SHOWN_PER_GROUP} more below</span>}
        </div>
      )}
    </div>
  );
}
