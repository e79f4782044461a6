/**
 * Field conflicts (app/contract/conflicts.ts): a value the analyst saved after another analyst (or window) had changed
 * the same field. Each shows the field, the value both started from, theirs and mine (kept on the main side), and
 * the choice; nothing is written over theirs until the analyst chooses.
 */
import type { FieldConflict } from '../../../../app/contract/conflicts.js';
import { kindOf, labelOf, type FieldValue, type NumberFormat } from '../../../../app/invoice/review/index.js';
import { formatFieldValue } from '../../logic/fields/fieldEditing.js';

interface FieldConflictsProps {
  conflicts: readonly FieldConflict[];
  format: NumberFormat;
  onSelectField(path: string): void;
  onChoose(conflict: FieldConflict, choice: 'theirs' | 'mine'): void;
}

export function FieldConflicts({ conflicts, format, onSelectField, onChoose }: FieldConflictsProps) {
  if (conflicts.length === 0) return null;
  const shown = (conflict: FieldConflict, value: FieldValue) => formatFieldValue(value, kindOf(conflict.field), format) || 'none';
  return (
    <div className="field-conflicts" role="alert" data-testid="field-conflicts">
      {conflicts.map((conflict) => (
        <div key={conflict.id} className="field-conflict" data-field-conflict={conflict.field}>
          <p>
            <button className="link-button" onClick={() => onSelectField(conflict.field)}>
              {labelOf(conflict.field)}
            </button>{' '}
            changed while you edited it: {conflict.theirs.author} set <strong data-testid="conflict-theirs-value">{shown(conflict, conflict.theirsValue)}</strong>{' '}
            (both started from {shown(conflict, conflict.baseValue)}); yours, <strong data-testid="conflict-mine-value">{shown(conflict, conflict.value)}</strong>, is kept.
          </p>
          <div className="field-conflict-actions">
            <button className="button" onClick={() => onChoose(conflict, 'theirs')} data-testid="field-conflict-theirs">
              Keep {shown(conflict, conflict.theirsValue)}
            </button>
            <button className="button" onClick={() => onChoose(conflict, 'mine')} data-testid="field-conflict-mine">
              Keep {shown(conflict, conflict.value)}
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
