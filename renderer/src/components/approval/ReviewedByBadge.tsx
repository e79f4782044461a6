/**
 * A page's review status as the rail and the queue show it when someone set it: "approved with exceptions" is its
 * own badge, and the title says who, when, and why.
 */
import type { ReviewedBy } from '../../../../app/model/page.js';

export function reviewedByTitle(by: ReviewedBy): string {
  const when = new Date(by.at).toLocaleString();
  const why = by.reason ? ` — ${by.exceptions} exception(s) approved over: ${by.reason}` : '';
  return `${by.status.replace(/-/g, ' ')} by ${by.reviewer}, ${when}${why}`;
}

/** The rail's badge for an approval with exceptions (plain approvals keep their own badge). */
export function ExceptionsBadge({ by }: { by: ReviewedBy | null | undefined }) {
  if (by?.status !== 'approved-with-exceptions') return null;
  return (
    <span className="page-item-badge approved-with-exceptions" title={reviewedByTitle(by)} data-testid="approved-with-exceptions">
      approved with exceptions
    </span>
  );
}

/** The queue's status cell: the status, or "approved with exceptions", and who set it. */
export function ReviewStatusCell({ status, by }: { status: string; by: ReviewedBy | null | undefined }) {
  const shown = by?.status === 'approved-with-exceptions' && status === 'approved' ? 'approved-with-exceptions' : status;
  return (
    <>
      <span className={`status-pill ${shown}`} title={by ? reviewedByTitle(by) : undefined}>
        {shown.replace(/-/g, ' ')}
      </span>
      {by ? <span className="reviewed-by">{by.reviewer}</span> : null}
    </>
  );
}
