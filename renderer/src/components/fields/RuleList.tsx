/**
 * The invoice rules' results for the page: failures first (each a button: selects the fields involved and shows
 * their boxes), then the rules that hold, then a count of those that do not apply to this page.
 */
import type { RuleResult } from '../../../../app/invoice/rules/index.js';

interface RuleListProps {
  rules: readonly RuleResult[];
  /** An unread page has no rule results: it says so rather than "all hold". */
  read: boolean;
  activeIndex: number | null;
  onSelect(index: number): void;
}

export function RuleList({ rules, read, activeIndex, onSelect }: RuleListProps) {
  const indexed = rules.map((rule, index) => ({ rule, index }));
  const failed = indexed.filter(({ rule }) => rule.status === 'fail');
  const passed = indexed.filter(({ rule }) => rule.status === 'pass');
  const notApplicable = rules.length - failed.length - passed.length;
  const item = ({ rule, index }: { rule: RuleResult; index: number }) => (
    <li key={index}>
      <button
        className={`rule rule-${rule.status}${activeIndex === index ? ' active' : ''}`}
        data-rule={rule.rule}
        data-status={rule.status}
        onClick={() => onSelect(index)}
        title={rule.title}
      >
        <span className="rule-mark" aria-hidden="true">{rule.status === 'fail' ? '✕' : '✓'}</span>
        <span className="rule-name">{rule.rule}</span>
        <span className="rule-message">{rule.message}</span>
      </button>
    </li>
  );
  return (
    <section className="rules" aria-label="Invoice rules" data-testid="rule-list">
      <h3 className="fields-heading">
        Rules{' '}
        <span className={failed.length ? 'rule-count fail' : read ? 'rule-count' : 'rule-count pending'} data-testid="rule-count">
          {failed.length ? `${failed.length} failing` : read ? 'all hold' : 'not read yet'}
        </span>
      </h3>
      <ul className="rule-items">{failed.map(item)}</ul>
      {passed.length > 0 && (
        <details className="rules-passed">
          <summary>{passed.length} hold</summary>
          <ul className="rule-items">{passed.map(item)}</ul>
        </details>
      )}
      {notApplicable > 0 && <p className="muted rules-na">{notApplicable} not applicable to this page (values not printed)</p>}
    </section>
  );
}
