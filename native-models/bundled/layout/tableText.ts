/** Text tests shared by the table finders: what counts as a number in a cell, and a segment's text. */
import type { Segment } from './layoutTypes.js';

const NUMERIC = /^[\s(]*(?:[-+–−]\s*)?(?:[$€£¥]\s*)?\d[\d\s.,'’]*(%|[$€£¥]|[A-Z]{3})?[)*]*$/u;

/**
 * A cell that holds an amount, a count, a percentage or a dash for "none"; or numbers only, one with its share in
 * brackets ("1269 (19.9%)").
 */
export function isNumericText(text: string): boolean {
  const trimmed = text.trim();
  if (NUMERIC.test(trimmed) || /^[-–—]$/u.test(trimmed)) return true;
  const parts = trimmed.split(/[\s()]+/u).filter(Boolean);
  return parts.length >= 2 && parts.length <= 3 && /^[\d(]/u.test(trimmed) && parts.every((part) => NUMERIC.test(part));
}

export function segmentText(segment: Segment): string {
  return segment.words.map((word) => word.text).join(' ');
}
