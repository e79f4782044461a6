/**
 * The table under the cursor as an editable grid, beside the crop of the page where the table is. Every change is
 * written back into the Markdown at once (as one undoable edit): text edits splice into the edited cells only,
 * structural ones rewrite the table as HTML with its spans.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  insertColumn,
  insertRow,
  mergeCells,
  moveColumn,
  moveRow,
  removeColumn,
  removeRow,
  setCellText,
  setHeaderRows,
  splitCell,
  type EditableTable,
  type TableEdit,
} from '../../../../app/tables/index.js';
import { GridView, selectionRange, type GridSelection } from './GridView.js';

interface TableGridPanelProps {
  table: EditableTable;
  /** Identifies the table on the page (its start offset); a new one resets the selection. */
  tableKey: string;
  /** The cell the editor's cursor is in (while the editor has the focus): the grid opens and follows there. */
  cursorCell: { row: number; col: number } | null;
  title: string;
  /** The page crop of the table, or null where no box is known. */
  crop: ReactNode;
  onApply(table: EditableTable): void;
  onClose(): void;
}

const origin: GridSelection = { anchor: { row: 0, col: 0 }, focus: { row: 0, col: 0 } };

export function TableGridPanel({ table, tableKey, cursorCell, title, crop, onApply, onClose }: TableGridPanelProps) {
  const at = (row: number, col: number): GridSelection => ({ anchor: { row, col }, focus: { row, col } });
  const [selection, setSelection] = useState<GridSelection>(() => (cursorCell ? at(cursorCell.row, cursorCell.col) : origin));
  const [message, setMessage] = useState<string | null>(null);
  const cursorRow = cursorCell?.row ?? null;
  const cursorCol = cursorCell?.col ?? null;
  // A new table starts at the cursor's cell (or the first); within a table the selection follows the editor's cursor
  // while the editor has it (null while the grid is being edited: the selection stays where the grid put it).
  const cursorAtOpen = useRef(cursorCell);
  cursorAtOpen.current = cursorCell;
  useEffect(() => {
    const cell = cursorAtOpen.current;
    setSelection(cell ? at(cell.row, cell.col) : origin);
    setMessage(null);
  }, [tableKey]);
  useEffect(() => {
    if (cursorRow !== null && cursorCol !== null) setSelection(at(cursorRow, cursorCol));
  }, [cursorRow, cursorCol]);

  const apply = (edit: TableEdit, nextSelection?: GridSelection): void => {
    if (edit instanceof Error) {
      setMessage(edit.message);
      return;
    }
    setMessage(null);
    if (edit !== table) onApply(edit);
    if (nextSelection) setSelection(nextSelection);
  };
  const range = selectionRange(selection);
  /** Enter or Tab past the last cell: the cell's text (if edited) and a new row at the end, as one edit. */
  const appendRow = (edited: { row: number; col: number; text: string } | null, col: number): void => {
    let next: TableEdit = table;
    if (edited) next = setCellText(table, edited.row, edited.col, edited.text);
    if (next instanceof Error) return apply(next);
    apply(insertRow(next, next.rowCount), at(next.rowCount, col));
  };
  const { row, col } = selection.focus;
  const spans = range.top !== range.bottom || range.left !== range.right;
  const cellIsMerged = table.cells.some((cell) => cell.row === row && cell.col === col && (cell.rowspan > 1 || cell.colspan > 1));
  const isHeader = row < table.headerRowCount;

  const button = (label: string, hint: string, onClick: () => void, disabled = false, testId?: string) => (
    <button className="text-button" title={hint} onClick={onClick} disabled={disabled} data-testid={testId}>
      {label}
    </button>
  );

  return (
    <section className="tool-panel grid-panel" aria-label="Table grid" data-testid="grid-panel">
      <div className="tool-toolbar">
        <span className="tool-title">{title}</span>
        <div className="toolbar-group" role="group" aria-label="Rows">
          <span className="muted">Row</span>
          {button('+ above', 'Insert a row above', () => apply(insertRow(table, row), at(row + 1, col)))}
          {button('+ below', 'Insert a row below', () => apply(insertRow(table, row + 1), at(row + 1, col)))}
          {button('↑', 'Move the row up', () => apply(moveRow(table, row, -1), at(row - 1, col)), row === 0)}
          {button('↓', 'Move the row down', () => apply(moveRow(table, row, 1), at(row + 1, col)), row >= table.rowCount - 1)}
          {button('Delete', 'Delete the row', () => apply(removeRow(table, row), at(Math.max(0, Math.min(row, table.rowCount - 2)), col)))}
        </div>
        <div className="toolbar-group" role="group" aria-label="Columns">
          <span className="muted">Column</span>
          {button('+ left', 'Insert a column to the left', () => apply(insertColumn(table, col), at(row, col + 1)))}
          {button('+ right', 'Insert a column to the right', () => apply(insertColumn(table, col + 1), at(row, col + 1)))}
          {button('←', 'Move the column left', () => apply(moveColumn(table, col, -1), at(row, col - 1)), col === 0)}
          {button('→', 'Move the column right', () => apply(moveColumn(table, col, 1), at(row, col + 1)), col >= table.colCount - 1)}
          {button('Delete', 'Delete the column', () => apply(removeColumn(table, col), at(row, Math.max(0, Math.min(col, table.colCount - 2)))))}
        </div>
        <div className="toolbar-group" role="group" aria-label="Cells">
          {button('Merge', 'Merge the selected cells (select with Shift+click or Shift+arrows)', () => apply(mergeCells(table, range), at(range.top, range.left)), !spans, 'grid-merge')}
          {button('Split', 'Split the merged cell', () => apply(splitCell(table, row, col)), !cellIsMerged, 'grid-split')}
          {button(
            isHeader ? 'Body row' : 'Header row',
            isHeader ? 'Make this row and the rows below it body rows' : 'Make the rows down to this one header rows',
            () => apply(setHeaderRows(table, isHeader ? row : row + 1)),
            false,
            'grid-header',
          )}
        </div>
        <span className="toolbar-spacer" />
        <button className="icon-button" title="Close the grid (Escape twice)" aria-label="Close the grid" onClick={onClose}>
          ×
        </button>
      </div>
      {message && (
        <div className="tool-message" role="alert">
          {message}
        </div>
      )}
      <div className="tool-body">
        <div className="tool-crop">{crop ?? <div className="muted tool-crop-empty">No box on the page for this table.</div>}</div>
        <GridView
          table={table}
          selection={selection}
          onSelection={setSelection}
          onCommit={(r, c, text) => apply(setCellText(table, r, c, text))}
          onAppendRow={appendRow}
          onLeave={onClose}
        />
      </div>
    </section>
  );
}
