/**
 * The analyst's field corrections over the engine's values. A correction names a field by path and gives its new
 * value; `null` clears it; `engine` (a correction taken back) returns the field to whatever the engine says now.
 * Corrections live apart from readings, so reading a page again changes the engine's values and never an analyst's.
 */
import { DOCUMENT_TYPE_PATH } from '../documentType.js';
import type { FieldPath } from '../rules/ruleTypes.js';
import { valueAt, type EngineFieldValues, type EngineLine } from './engineFields.js';
import { isScalarKey, lineColumns, linePath, MAX_LINE_INDEX, MAX_TAX_ROW_INDEX, parseLinePath, parseTaxPath, scalarFields, taxColumns, taxPath, type FieldValue } from './fieldPaths.js';

export interface FieldCorrection {
  field: FieldPath;
  /** The analyst's value, or `{ engine: true }` for "back to the engine's value". */
  value: FieldValue | { engine: true };
}

const emptyLine = (): EngineLine => ({ description: '', quantity: null, unit_price: null, amount: null });

/** The latest correction per field, in the order given (oldest first). */
export function latestCorrections(corrections: readonly FieldCorrection[]): Map<FieldPath, FieldValue | { engine: true }> {
  const latest = new Map<FieldPath, FieldValue | { engine: true }>();
  for (const correction of corrections) latest.set(correction.field, correction.value);
  return latest;
}

const isEngine = (v: FieldValue | { engine: true }): v is { engine: true } => typeof v === 'object' && v !== null;

/** Paths whose current value is the analyst's (a correction not taken back). */
export function correctedPaths(corrections: readonly FieldCorrection[]): Set<FieldPath> {
  return new Set([...latestCorrections(corrections)].filter(([, v]) => !isEngine(v)).map(([path]) => path));
}

export function applyFieldCorrections(engine: EngineFieldValues, corrections: readonly FieldCorrection[]): EngineFieldValues {
  const result: EngineFieldValues = { ...engine, lines: engine.lines.map((line) => ({ ...line })), tax_breakdown: engine.tax_breakdown.map((row) => ({ ...row })) };
  for (const [path, value] of latestCorrections(corrections)) {
    if (isEngine(value)) continue;
    if (isScalarKey(path)) {
      (result as unknown as Record<string, FieldValue>)[path] = value;
      continue;
    }
    if (path === DOCUMENT_TYPE_PATH) {
      // The analyst's type: 'receipt', or back to an invoice.
      if (value === 'receipt') result.document_type = 'receipt';
      else delete result.document_type;
      continue;
    }
    const row = parseTaxPath(path);
    if (row) {
      while (result.tax_breakdown.length <= row.index) result.tax_breakdown.push({ rate: null, base: null, amount: null });
      result.tax_breakdown[row.index]![row.column] = typeof value === 'number' ? value : null;
      continue;
    }
    const line = parseLinePath(path);
    if (!line) continue;
    while (result.lines.length <= line.index) result.lines.push(emptyLine());
    const target = result.lines[line.index]!;
    if (line.column === 'description') target.description = typeof value === 'string' ? value : value === null ? '' : String(value);
    else target[line.column] = typeof value === 'number' ? value : null;
  }
  return result;
}

/**
 * The corrections that turn `engine` into `corrected`, one per field or line cell whose value differs (with the
 * engine's value, what the analyst saw): for values that arrive without their history. Applying them to `engine`
 * gives `corrected` back, except line items the engine read beyond the corrected lines (corrections never remove one).
 */
export function correctionsBetween(engine: EngineFieldValues, corrected: EngineFieldValues): { field: FieldPath; from: FieldValue; to: FieldValue }[] {
  const paths: FieldPath[] = scalarFields.map((f) => f.key);
  const lineCount = Math.min(corrected.lines.length, MAX_LINE_INDEX + 1);
  for (let index = 0; index < lineCount; index++) paths.push(...lineColumns.map((c) => linePath(index, c.key)));
  const rowCount = Math.min(corrected.tax_breakdown.length, MAX_TAX_ROW_INDEX + 1);
  for (let index = 0; index < rowCount; index++) paths.push(...taxColumns.map((c) => taxPath(index, c.key)));
  const blank = applyFieldCorrections(engine, []);
  while (blank.lines.length < lineCount) blank.lines.push(emptyLine());
  while (blank.tax_breakdown.length < rowCount) blank.tax_breakdown.push({ rate: null, base: null, amount: null });
  return paths.flatMap((field) => {
    const from = valueAt(blank, field) ?? null;
    const to = valueAt(corrected, field) ?? null;
    return from === to ? [] : [{ field, from: valueAt(engine, field) ?? null, to }];
  });
}
