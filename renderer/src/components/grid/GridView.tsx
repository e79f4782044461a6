/**
 * The table as a grid laid out with the table's own rowspan/colspan. Cells are text; the cell being edited holds the
 * one input (a 50-row table is 300 text cells, not 300 inputs: it opens in a few milliseconds). Keys, as in a
 * spreadsheet: Tab / Shift+Tab next / previous cell, Enter / Shift+Enter cell below / above (↑ ↓ too), Shift+arrows or
 * Shift+click extend the selection (for merging); Enter or Tab past the last cell adds a row. Escape leaves the cell
 * (undoing its typing), a second Escape leaves the grid. A cell's text is committed when the editing moves on or the
 * focus leaves it. The row numbers stay pinned while wide tables scroll sideways.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EditableTable, GridCell, SlotRange } from '../../../../app/tables/index.js';

export interface GridSelection {
  anchor: { row: number; col: number };
  focus: { row: number; col: number };
}

export function selectionRange(selection: GridSelection): SlotRange {
  return {
    top: Math.min(selection.anchor.row, selection.focus.row),
    left: Math.min(selection.anchor.col, selection.focus.col),
    bottom: Math.max(selection.anchor.row, selection.focus.row),
    right: Math.max(selection.anchor.col, selection.focus.col),
  };
}

interface GridViewProps {
  table: EditableTable;
  selection: GridSelection;
  onSelection(selection: GridSelection): void;
  onCommit(row: number, col: number, text: string): void;
  /** Past the last cell: commit `edited` (if any) and add a row, the selection going to `col` in it. */
  onAppendRow(edited: { row: number; col: number; text: string } | null, col: number): void;
  onLeave(): void;
}

/** Width of a cell's input in characters: short cells stay clickable, long ones do not push the rest out of view. */
const minCellChars = 4;
const maxCellChars = 36;

const columnName = (c: number): string => (c < 26 ? String.fromCharCode(65 + c) : columnName(Math.floor(c / 26) - 1) + String.fromCharCode(65 + (c % 26)));

export function GridView({ table, selection, onSelection, onCommit, onAppendRow, onLeave }: GridViewProps) {
  // The grid takes the keyboard only once the analyst clicks into it; opening under the cursor leaves Monaco focused.
  const [engaged, setEngaged] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  // [row][col] → the cell covering that slot; null where the source's rows are ragged.
  const covering = useMemo(() => {
    const slots: (GridCell | null)[][] = Array.from({ length: table.rowCount }, () => Array<GridCell | null>(table.colCount).fill(null));
    for (const cell of table.cells)
      for (let r = cell.row; r < cell.row + cell.rowspan && r < table.rowCount; r++)
        for (let c = cell.col; c < cell.col + cell.colspan && c < table.colCount; c++) slots[r]![c] = cell;
    return slots;
  }, [table]);
  const range = selectionRange(selection);
  const inRange = (cell: GridCell) => cell.row <= range.bottom && cell.row + cell.rowspan - 1 >= range.top && cell.col <= range.right && cell.col + cell.colspan - 1 >= range.left;
  const editing = engaged ? (covering[selection.focus.row]?.[selection.focus.col] ?? null) : null;

  useEffect(() => {
    if (editing && input.current && document.activeElement !== input.current) {
      input.current.focus();
      input.current.select();
    }
  }, [editing]);

  // The selected cell in view (the grid opens on the cursor's cell, which may be row 40 of a long table), clear of
  // the pinned column letters and row numbers. Only the grid scrolls: scrollIntoView would move the panes around it.
  const focusRow = selection.focus.row;
  const focusCol = selection.focus.col;
  useEffect(() => {
    const box = scroller.current;
    const cell = box?.querySelector<HTMLElement>(`td[data-row="${focusRow}"][data-col="${focusCol}"]`);
    if (!box || !cell) return;
    const pinnedTop = box.querySelector<HTMLElement>('thead')?.offsetHeight ?? 0;
    const pinnedLeft = box.querySelector<HTMLElement>('.grid-row-label')?.offsetWidth ?? 0;
    if (cell.offsetTop - pinnedTop < box.scrollTop) box.scrollTop = cell.offsetTop - pinnedTop;
    else if (cell.offsetTop + cell.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = cell.offsetTop + cell.offsetHeight - box.clientHeight;
    if (cell.offsetLeft - pinnedLeft < box.scrollLeft) box.scrollLeft = cell.offsetLeft - pinnedLeft;
    else if (cell.offsetLeft + cell.offsetWidth > box.scrollLeft + box.clientWidth) box.scrollLeft = cell.offsetLeft + cell.offsetWidth - box.clientWidth;
  }, [focusRow, focusCol, table]);

  /** Commits what the input holds (when it differs from the cell's text). */
  const commit = (): void => {
    if (editing && input.current && input.current.value !== editing.text) onCommit(editing.row, editing.col, input.current.value);
  };

  const move = (cell: GridCell, dRow: number, dCol: number, extend: boolean): void => {
    let row = cell.row;
    let col = cell.col;
    if (dRow !== 0) row = dRow > 0 ? cell.row + cell.rowspan : cell.row - 1;
    else {
      col = dCol > 0 ? cell.col + cell.colspan : cell.col - 1;
      // Tab runs through the row and wraps to the next one.
      if (!extend && col >= table.colCount) (row = cell.row + cell.rowspan), (col = 0);
      if (!extend && col < 0) (row = cell.row - 1), (col = table.colCount - 1);
    }
    if (!extend && row >= table.rowCount && (dRow > 0 || dCol > 0)) {
      const typed = input.current && input.current.value !== cell.text ? { row: cell.row, col: cell.col, text: input.current.value } : null;
      onAppendRow(typed, dRow > 0 ? cell.col : 0);
      return;
    }
    if (row < 0 || row >= table.rowCount || col < 0 || col >= table.colCount) return;
    const target = covering[row]?.[col];
    if (!target) return;
    if (!extend) commit();
    const focus = { row: target.row, col: target.col };
    onSelection(extend ? { anchor: selection.anchor, focus } : { anchor: focus, focus });
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>, cell: GridCell): void => {
    const field = event.currentTarget;
    let handled = true;
    if (event.key === 'Tab') move(cell, 0, event.shiftKey ? -1 : 1, false);
    else if (event.key === 'Enter') move(cell, event.shiftKey ? -1 : 1, 0, false);
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') move(cell, event.key === 'ArrowDown' ? 1 : -1, 0, event.shiftKey);
    else if (event.shiftKey && (event.key === 'ArrowRight' || event.key === 'ArrowLeft')) move(cell, 0, event.key === 'ArrowRight' ? 1 : -1, true);
    else if (event.key === 'Escape') {
      // The first Escape leaves the cell (its typing undone); the grid keeps the keyboard for a second one.
      field.value = cell.text;
      setEngaged(false);
      scroller.current?.focus();
    } else handled = false;
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const width = (cell: GridCell) => Math.min(maxCellChars, Math.max(minCellChars, Math.ceil(cell.text.length / cell.colspan)));
  const rows = [];
  for (let r = 0; r < table.rowCount; r++) {
    const cells = [];
    for (let c = 0; c < table.colCount; c++) {
      const cell = covering[r]![c];
      if (!cell) {
        cells.push(<td key={`hole-${c}`} className="grid-hole" />);
        continue;
      }
      if (cell.row !== r || cell.col !== c) continue;
      const classes = ['grid-cell'];
      if (r < table.headerRowCount || cell.tag === 'th') classes.push('header');
      if (inRange(cell)) classes.push('selected');
      if (cell.rowspan > 1 || cell.colspan > 1) classes.push('merged');
      const isEditing = cell === editing;
      cells.push(
        <td
          key={`${c}`}
          rowSpan={cell.rowspan}
          colSpan={cell.colspan}
          className={classes.join(' ')}
          data-testid="grid-cell"
          data-row={cell.row}
          data-col={cell.col}
          onMouseDown={(event) => {
            if (isEditing) return;
            event.preventDefault();
            const at = { row: cell.row, col: cell.col };
            if (event.shiftKey) {
              onSelection({ anchor: selection.anchor, focus: at });
              return;
            }
            commit();
            setEngaged(true);
            onSelection({ anchor: at, focus: at });
          }}
        >
          {isEditing ? (
            <input
              ref={input}
              // A new text from the Markdown (an edit written back, an undo) replaces what the input shows.
              key={cell.text}
              defaultValue={cell.text}
              size={width(cell)}
              data-testid="grid-input"
              aria-label={`Row ${cell.row + 1}, column ${columnName(cell.col)}`}
              spellCheck={false}
              onBlur={commit}
              onKeyDown={(event) => onKeyDown(event, cell)}
            />
          ) : (
            <span className="grid-text" style={{ minWidth: `${width(cell)}ch` }}>
              {cell.text}
            </span>
          )}
        </td>,
      );
    }
    rows.push(
      <tr key={r} className={r < table.headerRowCount ? 'header-row' : undefined}>
        <th className="grid-row-label" scope="row" title={r < table.headerRowCount ? 'Header row' : undefined}>
          {r < table.headerRowCount ? 'H' : r + 1 - table.headerRowCount}
        </th>
        {cells}
      </tr>,
    );
  }
  return (
    <div
      className="grid-scroll"
      ref={scroller}
      tabIndex={-1}
      data-testid="grid-scroll"
      onKeyDown={(event) => {
        if (event.target !== event.currentTarget) return;
        if (event.key === 'Escape') onLeave();
        else if (event.key === 'Enter' || event.key === 'F2') setEngaged(true);
        else return;
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      <table className="grid-table" data-testid="grid-table">
        <thead>
          <tr>
            <th className="grid-corner" />
            {Array.from({ length: table.colCount }, (_, c) => (
              <th key={c} className="grid-col-label" scope="col">
                {columnName(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
    </div>
  );
}
