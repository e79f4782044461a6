/** Small comparisons memory makes of a page's text and segments (shared by learning, reading and the party blocks). */
import type { Segment } from '../layout.js';

/** Letters and digits only, lowercase: how a name is found in a page's text. */
export const compactText = (text: string): string => text.toLowerCase().replace(/[^\p{L}\d]+/gu, '');

/** Two segments share some width: one stands over the other in a column. */
export const overlaps = (a: Segment, b: Segment): boolean => Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > 0;
