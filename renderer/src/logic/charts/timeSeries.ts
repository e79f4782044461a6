/**
 * Corrections per UTC day arrive only for days that had some; a line over them would draw a straight slope across
 * idle days. `fillDays` inserts the missing days with zero pages (and no mean score) so the x axis is real time.
 */

export interface DayPoint {
  /** YYYY-MM-DD (UTC). */
  day: string;
  pages: number;
  /** Mean score of the pages corrected that day; null on days without corrections. */
  meanScore: number | null;
}

const dayMs = 86_400_000;

export function dayNumber(day: string): number {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? Number.NaN : Math.round(time / dayMs);
}

export function dayString(dayIndex: number): string {
  return new Date(dayIndex * dayMs).toISOString().slice(0, 10);
}

/** Every day from the first to the last given one, in order; days not given have 0 pages. Bad dates are dropped. */
export function fillDays(points: readonly { day: string; pages: number; meanScore: number | null }[], maxDays = 3660): DayPoint[] {
  const byDay = new Map<number, DayPoint>();
  for (const point of points) {
    const index = dayNumber(point.day);
    if (Number.isNaN(index)) continue;
    const existing = byDay.get(index);
    byDay.set(index, existing ? { ...existing, pages: existing.pages + point.pages } : { ...point, day: dayString(index) });
  }
  if (byDay.size === 0) return [];
  const days = [...byDay.keys()].sort((a, b) => a - b);
  const first = Math.max(days[0]!, days[days.length - 1]! - maxDays + 1);
  const last = days[days.length - 1]!;
  const filled: DayPoint[] = [];
  for (let index = first; index <= last; index += 1) {
    filled.push(byDay.get(index) ?? { day: dayString(index), pages: 0, meanScore: null });
  }
  return filled;
}

/** "30 Nov" — short and unambiguous in every locale we ship. */
export function formatDay(day: string): string {
  const [, month, date] = day.split('-');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const name = months[Number(month) - 1];
  return name && date ? `${Number(date)} ${name}` : day;
}
