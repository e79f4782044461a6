/**
 * An amount typed by the analyst in the document's own number format (`12,50` on a German invoice is 12.5, not
 * 1250); an ambiguous entry is refused rather than guessed. User input, so bounded like page text: over
 * MAX_AMOUNT_TEXT_CHARS or MAX_DECIMAL_DIGITS digits is refused, and the number is checked by one scan.
 */
import { digitCountWithin, MAX_AMOUNT_TEXT_CHARS } from './printedAmount.js';

export interface NumberFormat {
  decimal: ',' | '.';
  group: '.' | ',' | ' ';
}

const SPACES = new Set([' ', '\u00a0', '\u202f']);

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

/** An amount typed in `format`; currency symbols/codes around it and a minus sign allowed. */
export function parseAmountIn(text: string, format: NumberFormat): number | null {
  let s = text.trim();
  if (s.length > MAX_AMOUNT_TEXT_CHARS) return null;
  s = s.replace(/^[A-Z]{3}\s*|\s*[A-Z]{3}$/g, '').replace(/[€$£¥₹]/g, '').trim();
  let negative = false;
  if (/^[-−]/.test(s)) {
    negative = true;
    s = s.slice(1).trim();
  }
  const normalised = normaliseIn(s, format);
  if (normalised === null) return null;
  const value = Number(normalised);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/**
 * Digits grouped by threes with the format's group mark (or a space) and an optional decimal part, or plain digits
 * with an optional decimal part → `1234.5`; null otherwise.
 */
function normaliseIn(s: string, format: NumberFormat): string | null {
  if (s === '' || digitCountWithin(s) < 0) return null;
  const point = s.indexOf(format.decimal);
  const whole = point < 0 ? s : s.slice(0, point);
  const fraction = point < 0 ? '' : s.slice(point + 1);
  if (point >= 0 && (fraction === '' || ![...fraction].every(isDigit))) return null;
  let digits = '';
  const groupEnds: number[] = []; // digit counts before each group mark
  for (const ch of whole) {
    if (isDigit(ch)) digits += ch;
    else if (ch === format.group || SPACES.has(ch)) groupEnds.push(digits.length);
    else return null;
  }
  if (digits === '') return null;
  if (groupEnds.length > 0) {
    // "1.234.567": the first group 1–3 digits, every later one exactly three.
    if (groupEnds[0]! < 1 || groupEnds[0]! > 3) return null;
    for (let k = 1; k < groupEnds.length; k++) if (groupEnds[k]! - groupEnds[k - 1]! !== 3) return null;
    if (digits.length - groupEnds[groupEnds.length - 1]! !== 3) return null;
  }
  return fraction === '' ? digits : `${digits}.${fraction}`;
}
