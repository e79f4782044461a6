/**
 * The panel that follows the editor's cursor: inside a table (HTML or pipe) the table grid, inside `$…$` / `$$…$$`
 * the formula editor, each beside the crop of the page where the table or formula is. Closing a panel keeps it closed
 * until the cursor leaves that table or formula; meanwhile a "Table grid" button in its place opens it again, as do
 * the palette's "Open the table grid" and a click on the table's box on the page (`openGrid`). Clicking a table's box
 * puts the cursor in its text, so it opens the grid too.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Element } from '../../../../app/model/extraction.js';
import { locateTables, parseHtmlTable, parsePipeTable, serializeTable, tableAtOffset, type EditableTable } from '../../../../app/tables/index.js';
import { replaceText, selectAndReveal, type MarkdownEditorInstance } from '../../editor/editorEdits.js';
import { formulaAtOffset, type FormulaLocation } from '../../logic/formulaLocate.js';
import { cellAtOffset } from '../../logic/tableCursor.js';
import { FormulaPanel } from '../formula/FormulaPanel.js';
import { TableGridPanel } from '../grid/TableGridPanel.js';
import { PageCrop } from '../PageCrop.js';
import { useEditorState } from '../../state/useEditorState.js';

export interface PageImage {
  url: string;
  /** The extraction's page size: the space of the element boxes. */
  boxSpace: { width: number; height: number };
}

interface CursorPanelsProps {
  editor: MarkdownEditorInstance | null;
  /** Elements with their spans aligned to the current text. */
  elements: readonly Element[];
  image: PageImage | null;
  /**
   * Asks for the grid again (the serial counts the asks): the table's at the cursor, else — where `orFirstTable` (the
   * palette, not a click on a table's box, which has put the cursor in its table already) — the page's first table,
   * whose text the cursor moves into.
   */
  openGrid?: GridAsk | null;
}

/** The crop beside the grid or formula takes up to this share of the pane's width, within these bounds (CSS px). */
const cropShare = 0.4;
const cropWidth = { min: 160, max: 520 };
const cropMaxHeight = 300;
/** Below this editor width (CSS px) the crop goes above the grid, at most this tall. */
const narrowPane = 700;
const narrowCropHeight = 110;

/**
 * The element of the given kinds whose span overlaps [start, end) most. Only those kinds: a formula the engine did
 * not box has no crop, rather than the crop of the heading whose span happens to overlap it.
 */
function elementFor(elements: readonly Element[], start: number, end: number, kinds: Element['kind'][]): Element | null {
  let best: Element | null = null;
  let bestOverlap = 0;
  for (const element of elements) {
    if (!kinds.includes(element.kind)) continue;
    const overlap = Math.min(end, element.span[1]) - Math.max(start, element.span[0]);
    if (overlap > 0 && overlap > bestOverlap) (best = element), (bestOverlap = overlap);
  }
  return best;
}

export function parseTableAt(text: string, range: [number, number], format: 'html' | 'pipe'): EditableTable | null {
  const source = text.slice(range[0], range[1]);
  return format === 'html' ? parseHtmlTable(source) : parsePipeTable(source);
}

export interface GridAsk {
  serial: number;
  orFirstTable: boolean;
}

export function CursorPanels({ editor, elements, image, openGrid = null }: CursorPanelsProps) {
  // Its own subscription to the editor: a cursor move re-renders this panel, not the whole workspace.
  const state = useEditorState(editor);
  const { text, cursor } = state;
  const tableLocation = useMemo(() => tableAtOffset(text, cursor), [text, cursor]);
  // The formula being typed in the panel stays the panel's formula while its TeX is briefly not one (a trailing `\`
  // escapes the closing `$`): the panel keeps its focus and the next keystrokes, instead of closing under them.
  const editing = useRef<{ location: FormulaLocation; generation: number } | null>(null);
  const located = useMemo(() => (tableLocation ? null : formulaAtOffset(text, cursor)), [text, cursor, tableLocation]);
  const held = editing.current;
  const formula = held && held.generation === state.generation && (!located || located.range[0] === held.location.range[0]) ? held.location : located;
  const table = useMemo(() => (tableLocation ? parseTableAt(text, tableLocation.range, tableLocation.format) : null), [text, tableLocation]);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const start = tableLocation?.range[0] ?? formula?.range[0] ?? null;
  useEffect(() => {
    if (start === null || start !== dismissed) setDismissed(null);
  }, [start, dismissed]);
  const latest = useRef({ text, tableLocation });
  latest.current = { text, tableLocation };
  useEffect(() => {
    if (!openGrid || !editor) return;
    setDismissed(null);
    if (latest.current.tableLocation || !openGrid.orFirstTable) return;
    const first = locateTables(latest.current.text)[0];
    // Inside its first row's text, not on its first character (the cursor there is still "before" a pipe table).
    if (first) selectAndReveal(editor, first.range[0] + 1, first.range[0] + 1);
  }, [openGrid, editor]);

  const crop = (from: number, to: number, kinds: Element['kind'][], label: string) => {
    const element = elementFor(elements, from, to, kinds);
    if (!image || !element) return null;
    const paneWidth = editor?.getLayoutInfo().width ?? 600;
    // A narrow pane (1280 px screens) puts the crop above the grid at the pane's full width, not squeezed beside it.
    const narrow = paneWidth < narrowPane;
    const maxWidth = narrow ? paneWidth - 20 : Math.min(cropWidth.max, Math.max(cropWidth.min, paneWidth * cropShare));
    return <PageCrop imageUrl={image.url} boxSpace={image.boxSpace} box={element.box} maxWidth={maxWidth} maxHeight={narrow ? narrowCropHeight : cropMaxHeight} label={label} />;
  };
  const close = () => {
    editing.current = null;
    setDismissed(start);
    editor?.focus();
  };

  if (start === null || !editor) return null;
  if (start === dismissed) {
    return tableLocation ? (
      <div className="grid-reopen-bar">
        <button className="text-button" data-testid="grid-reopen" title="Open the grid of the table at the cursor again (also in the command palette)" onClick={() => setDismissed(null)}>
          ▦ Table grid
        </button>
      </div>
    ) : null;
  }
  if (tableLocation && table) {
    const [from, to] = tableLocation.range;
    return (
      <TableGridPanel
        table={table}
        tableKey={`${state.generation}:${from}`}
        // Only while the analyst is in the editor: the grid's own edits move Monaco's cursor to the table's start.
        cursorCell={editor.hasTextFocus() ? cellAtOffset(table, cursor - from) : null}
        title={`${tableLocation.format === 'html' ? 'HTML' : 'Pipe'} table · ${table.rowCount} × ${table.colCount}`}
        crop={crop(from, to, ['table'], 'The table on the page')}
        onApply={(next) => replaceText(editor, from, to, serializeTable(next), from)}
        onClose={close}
      />
    );
  }
  if (formula) {
    const [from, to] = formula.inner;
    return (
      <FormulaPanel
        tex={text.slice(from, to)}
        display={formula.display}
        formulaKey={`${state.generation}:${formula.range[0]}`}
        crop={crop(formula.range[0], formula.range[1], ['formula'], 'The formula on the page')}
        onChange={(tex) => {
          const grown = tex.length - (to - from);
          editing.current = {
            location: { range: [formula.range[0], formula.range[1] + grown], inner: [from, to + grown], display: formula.display },
            generation: state.generation,
          };
          replaceText(editor, from, to, tex, from);
        }}
        onDone={() => {
          editing.current = null;
        }}
        onClose={close}
      />
    );
  }
  return null;
}
