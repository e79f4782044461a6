/**
 * Which grid cell the editor's cursor is in, so the table grid opens where the analyst is (not on the first cell).
 * A cursor on a cell's text picks that cell; on the markup between cells (`<td>`, `|`), the nearest cell.
 */
import type { EditableTable } from '../../../app/tables/index.js';

/** `offset`: the cursor's offset into the table's source. Null when no cell has a place in the source. */
export function cellAtOffset(table: EditableTable, offset: number): { row: number; col: number } | null {
  let best: { row: number; col: number } | null = null;
  let bestDistance = Infinity;
  for (const cell of table.cells) {
    if (!cell.sourceRange) continue;
    const [start, end] = cell.sourceRange;
    const distance = offset < start ? start - offset : offset > end ? offset - end : 0;
    // `<=`: between two cells, the cursor belongs to the one it is about to type into (the later one).
    if (distance < bestDistance || (distance === bestDistance && distance > 0)) {
      best = { row: cell.row, col: cell.col };
      bestDistance = distance;
    }
  }
  return best;
}
