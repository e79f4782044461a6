/**
 * Which leading rows of a table are header rows, for tables found from ruling lines and from alignment alike:
 * leading rows without numbers (at most 3) when numbers follow; a first row that spans columns heads the row under
 * it too (the spanned sub-headings); a header cell that spans rows down makes the rows it covers header rows.
 */
import { isNumericText } from './tableText.js';

export interface HeaderCellInfo {
  text: string;
  colspan: number;
  rowspan: number;
}

/** At most this many leading rows are header rows. */
const MAX_HEADER_ROWS = 3;

export function countHeaderRows(rows: readonly (readonly HeaderCellInfo[])[]): number {
  const filled = rows.map((row) => row.filter((cell) => cell.text.trim().length > 0));
  const numericRow = (row: readonly HeaderCellInfo[]): boolean => row.some((cell) => isNumericText(cell.text));
  if (!filled.some(numericRow)) return 0;
  let count = 0;
  const limit = Math.min(MAX_HEADER_ROWS, rows.length - 1);
  while (count < limit && !numericRow(filled[count]) && (filled[count].length >= 2 || filled[count].some((cell) => cell.colspan > 1))) count++;
  if (count === 1 && filled[0].some((cell) => cell.colspan > 1) && rows.length > 2 && !numericRow(filled[1])) count = 2;
  // A header cell spanning rows down ("Groups" beside two rows of sub-headings) takes the rows it covers.
  for (let r = 0; r < count; r++) {
    for (const cell of filled[r]) if (r + cell.rowspan > count && r + cell.rowspan < rows.length) count = r + cell.rowspan;
  }
  return count >= rows.length ? 0 : count;
}
