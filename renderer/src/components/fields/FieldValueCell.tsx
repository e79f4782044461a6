/**
 * One field's value in the panel: a button showing the value with its confidence as a colour (focus it with Tab,
 * click to show its box on the page), and an inline editor (Enter, F2 or double-click) whose entry is validated in the
 * document's format before it is saved as a field revision. Each keystroke's entry is offered as a draft (the e-invoice report follows it); Escape cancels.
 */
import { useEffect, useRef, useState } from 'react';
import type { FieldKind, FieldValue, NumberFormat } from '../../../../app/invoice/review/index.js';
import { confidenceBand, formatFieldValue, parseFieldEntry } from '../../logic/fields/fieldEditing.js';
import { commandForKey, type KeyHandlers } from '../../logic/keymap.js';

interface FieldValueCellProps {
  path: string;
  label: string;
  value: FieldValue | undefined;
  kind: FieldKind;
  format: NumberFormat;
  monthFirst: boolean;
  confidence: number | null;
  corrected: boolean;
  selected: boolean;
  /** Part of a failing rule's fields. */
  failing: boolean;
  onSelect(path: string): void;
  /** Focus (Tab) highlights the box where it is on this page, without opening another page. */
  onFocusField(path: string): void;
  onSave(path: string, value: FieldValue): void;
  /** The edit box opened: the value shown now is what the edit is based on (a save after a newer one is a conflict). */
  onEditStart?(path: string): void;
  /** The edit box closed, saved (after onSave) or not. */
  onEditEnd?(path: string): void;
  /** Each keystroke's entry, once it parses (live re-validation); undefined when the edit is saved or cancelled. */
  onDraft?(path: string, value: FieldValue | undefined): void;
}

export function FieldValueCell(props: FieldValueCellProps) {
  const { path, value, kind, format } = props;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const shown = formatFieldValue(value, kind, format);

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  const start = () => {
    props.onEditStart?.(path);
    setDraft(shown);
    setProblem(null);
    setEditing(true);
  };
  const commit = () => {
    const parsed = parseFieldEntry(draft, kind, format, props.monthFirst);
    if (!parsed.ok) return setProblem(parsed.reason);
    setEditing(false);
    if (parsed.value !== (value ?? null)) props.onSave(path, parsed.value);
    props.onEditEnd?.(path);
    props.onDraft?.(path, undefined);
    requestAnimationFrame(() => button.current?.focus());
  };

  if (editing) {
    return (
      <span className="field-edit">
        <input
          ref={input}
          className={problem ? 'field-input invalid' : 'field-input'}
          value={draft}
          aria-label={`${props.label} (editing)`}
          aria-invalid={problem !== null}
          data-field-input={path}
          onChange={(event) => {
            setDraft(event.target.value);
            setProblem(null);
            // An entry that does not parse yet (a half-typed date) keeps the last one that did.
            const parsed = parseFieldEntry(event.target.value, kind, format, props.monthFirst);
            if (parsed.ok) props.onDraft?.(path, parsed.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              commit();
            } else if (event.key === 'Escape') {
              event.preventDefault();
              setEditing(false);
              props.onEditEnd?.(path);
              props.onDraft?.(path, undefined);
              requestAnimationFrame(() => button.current?.focus());
            }
          }}
          onBlur={() => {
            if (!problem) commit();
          }}
        />
        {problem && <span className="field-problem" role="alert">{problem}</span>}
      </span>
    );
  }
  const band = confidenceBand(props.confidence);
  const classes = ['field-value', `conf-${band}`];
  if (props.selected) classes.push('selected');
  if (props.corrected) classes.push('corrected');
  if (props.failing) classes.push('failing');
  const confidenceText = props.confidence === null ? 'confidence unknown' : `confidence ${Math.round(props.confidence * 100)} %`;
  return (
    <button
      ref={button}
      className={classes.join(' ')}
      data-field={path}
      title={`${props.label}: ${shown || 'empty'} · ${props.corrected ? 'corrected' : confidenceText} · Enter or double-click to edit`}
      onClick={() => props.onSelect(path)}
      onDoubleClick={start}
      onFocus={() => props.onFocusField(path)}
      onKeyDown={(event) => {
        const run: KeyHandlers<'fieldCell'> = { 'edit-field': start };
        const command = commandForKey('fieldCell', event, { inText: false, inFieldsPanel: true, onField: true });
        if (!command) return;
        event.preventDefault();
        run[command]();
      }}
    >
      <span className={`conf-dot conf-${band}`} aria-hidden="true" />
      <span className="field-text">{shown || <span className="muted">—</span>}</span>
      {props.corrected && <span className="field-corrected" aria-label="corrected">✎</span>}
    </button>
  );
}
