/** Box tests shared by the table finders. */
import type { Box } from '../../../app/model/extraction.js';

/** Horizontal overlap of two boxes (negative: the gap between them). */
export function overlapX(a: Box, b: Box): number {
  return Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
}

/** `inner`'s centre lies in `outer` (grown by `slack`) and `inner` does not stick out of it sideways. */
export function inside(inner: Box, outer: Box, slack: number): boolean {
  const cx = (inner[0] + inner[2]) / 2;
  const cy = (inner[1] + inner[3]) / 2;
  return cx >= outer[0] - slack && cx <= outer[2] + slack && cy >= outer[1] - slack && cy <= outer[3] + slack && inner[0] >= outer[0] - slack && inner[2] <= outer[2] + slack;
}
