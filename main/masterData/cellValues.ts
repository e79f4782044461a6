/**
 * The values of master-data cells, read strictly: a number in the file's decimal convention (point or comma, with
 * thousands grouping only in whole groups of three), an ISO date (or DD.MM.YYYY), a currency code, a text that a
 * spreadsheet would not run as a formula. Each reader returns the value or a reason; the caller adds file and line.
 */
import type { CsvRow } from './csvReader.js';

export type DecimalMark = 'point' | 'comma';

const POINT_NUMBER = /^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/;
const COMMA_NUMBER = /^-?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$/;

export function parseNumber(text: string, mark: DecimalMark): number | string {
  const t = text.trim();
  if (t === '') return 'empty';
  const pattern = mark === 'point' ? POINT_NUMBER : COMMA_NUMBER;
  if (!pattern.test(t)) return `"${text.slice(0, 40)}" is not a number with a decimal ${mark}`;
  const plain = mark === 'point' ? t.replace(/,/g, '') : t.replace(/\./g, '').replace(',', '.');
  const value = Number(plain);
  return Number.isFinite(value) ? value : `"${text.slice(0, 40)}" is out of range`;
}

/**
 * The decimal mark of the file's numeric columns: declared, else a comma where any number has a comma and none has
 * a point after its digit groups, else a point. A comma-delimited file cannot carry an unquoted decimal comma, so
 * only a semicolon- or tab-delimited file is searched for one.
 */
export function detectDecimalMark(rows: readonly CsvRow[], columns: readonly number[], delimiter: string): DecimalMark {
  if (delimiter === ',') return 'point';
  let comma = false;
  for (const row of rows) {
    for (const c of columns) {
      const t = row.cells[c]?.trim() ?? '';
      if (/^-?\d+,\d{1,2}$/.test(t) || /^-?\d+,\d{4,}$/.test(t) || /\d\.\d{3},\d/.test(t)) comma = true;
      else if (/^-?\d+\.\d{1,2}$/.test(t) || /^-?\d+\.\d{4,}$/.test(t) || /\d,\d{3}\.\d/.test(t)) return 'point';
    }
  }
  return comma ? 'comma' : 'point';
}

export function parseDate(text: string): string | null | { problem: string } {
  const t = text.trim();
  if (t === '') return null;
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  let [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  if (!m) {
    m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(t);
    if (!m) return { problem: `"${t.slice(0, 40)}" is not a date (YYYY-MM-DD or DD.MM.YYYY)` };
    [y, mo, d] = [Number(m[3]), Number(m[2]), Number(m[1])];
  }
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return { problem: `"${t}" is no calendar date` };
  return date.toISOString().slice(0, 10);
}

/** Characters that make a spreadsheet run a cell as a formula (OWASP CSV injection); a minus is one unless a number follows. */
const FORMULA = /^(?:[=+@\t\r]|-(?![\d.,]))/;

/** A text cell, trimmed; a reason where it could run as a formula or holds control characters. */
export function parseText(text: string, what: string): string | { problem: string } {
  if (FORMULA.test(text)) return { problem: `${what} "${text.slice(0, 40)}" starts like a spreadsheet formula` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return { problem: `${what} holds a control character` };
  return text.trim();
}
