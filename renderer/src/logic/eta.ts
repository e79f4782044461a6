/**
 * Human wording for the time left on a reading job ("about 2 min left"). Rounded on purpose: an ETA that ticks
 * every second reads as more precise than it is.
 */
export function formatEta(etaMs: number | null | undefined): string {
  if (etaMs === null || etaMs === undefined || !Number.isFinite(etaMs) || etaMs < 0) return 'estimating time left…';
  const seconds = etaMs / 1000;
  if (seconds < 10) return 'a few seconds left';
  if (seconds < 55) return `about ${Math.max(10, Math.round(seconds / 10) * 10)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${Math.max(1, minutes)} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `about ${hours} h left` : `about ${hours} h ${rest} min left`;
}

/** "3 of 12 pages" for the progress label. */
export function formatPageCount(done: number, total: number): string {
  return `${done} of ${total} ${total === 1 ? 'page' : 'pages'}`;
}
