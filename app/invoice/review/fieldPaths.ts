/**
 * The invoice fields an analyst reviews, in panel order, with what kind of value each holds (how an edit is
 * validated) and the EN 16931 business term it stands for. Line item cells are `lines.<i>.<column>`.
 */
import type { FieldPath } from '../rules/ruleTypes.js';

export type FieldKind = 'text' | 'date' | 'amount' | 'currency' | 'number';

export interface FieldSpec {
  key: ScalarFieldKey;
  label: string;
  kind: FieldKind;
}

export const scalarFields = [
  { key: 'invoice_number', label: 'Invoice number', kind: 'text' },
  { key: 'issue_date', label: 'Issue date', kind: 'date' },
  { key: 'due_date', label: 'Due date', kind: 'date' },
  { key: 'seller', label: 'Seller', kind: 'text' },
  { key: 'buyer', label: 'Buyer', kind: 'text' },
  { key: 'currency', label: 'Currency', kind: 'currency' },
  { key: 'line_total', label: 'Line total', kind: 'amount', optional: true },
  { key: 'allowances', label: 'Allowances', kind: 'amount', optional: true },
  { key: 'charges', label: 'Charges', kind: 'amount', optional: true },
  { key: 'subtotal', label: 'Subtotal', kind: 'amount' },
  { key: 'tax', label: 'Tax', kind: 'amount' },
  { key: 'total', label: 'Total', kind: 'amount' },
  { key: 'prepaid', label: 'Paid', kind: 'amount', optional: true },
  { key: 'amount_due', label: 'Amount due', kind: 'amount' },
] as const satisfies readonly { key: string; label: string; kind: FieldKind; optional?: boolean }[];

/**
 * Whether the panel lists a field: always for the invoice's key fields; the totals block's other amounts (line
 * total, allowances, charges, paid — most invoices print none) only where the page, the XML or the analyst gives one.
 */
export const shownField = (field: (typeof scalarFields)[number], ...values: unknown[]): boolean =>
  !('optional' in field) || values.some((value) => value !== null && value !== undefined && value !== '');

export type ScalarFieldKey = (typeof scalarFields)[number]['key'];

export const lineColumns = [
  { key: 'description', label: 'Description', kind: 'text' },
  { key: 'quantity', label: 'Qty', kind: 'number' },
  { key: 'unit_price', label: 'Unit price', kind: 'amount' },
  { key: 'amount', label: 'Amount', kind: 'amount' },
] as const satisfies readonly { key: string; label: string; kind: FieldKind }[];

export type LineColumnKey = (typeof lineColumns)[number]['key'];

/** A field's value: text and dates (ISO) as strings, amounts and quantities as numbers; null = absent. */
export type FieldValue = string | number | null;

export const linePath = (index: number, column: LineColumnKey): FieldPath => `lines.${index}.${column}`;

/** `lines.3.amount` → { index: 3, column: 'amount' }; null for other paths. */
export function parseLinePath(path: FieldPath): { index: number; column: LineColumnKey } | null {
  const m = /^lines\.(\d+)\.(description|quantity|unit_price|amount)$/.exec(path);
  return m ? { index: Number(m[1]), column: m[2] as LineColumnKey } : null;
}

/** Columns of a VAT breakdown row (BG-23): rate in percent (BT-119), taxable amount (BT-116), tax (BT-117). */
export const taxColumns = [
  { key: 'rate', label: 'Rate %', kind: 'number' },
  { key: 'base', label: 'Base', kind: 'amount' },
  { key: 'amount', label: 'VAT', kind: 'amount' },
] as const satisfies readonly { key: string; label: string; kind: FieldKind }[];

export type TaxColumnKey = (typeof taxColumns)[number]['key'];

export const taxPath = (index: number, column: TaxColumnKey): FieldPath => `tax_breakdown.${index}.${column}`;

/** `tax_breakdown.1.base` → { index: 1, column: 'base' }; null for other paths. */
export function parseTaxPath(path: FieldPath): { index: number; column: TaxColumnKey } | null {
  const m = /^tax_breakdown\.(\d+)\.(rate|base|amount)$/.exec(path);
  return m ? { index: Number(m[1]), column: m[2] as TaxColumnKey } : null;
}

/** Breakdown rows a correction may name (an index up to this bound): a few VAT rates per invoice, never hundreds. */
export const MAX_TAX_ROW_INDEX = 49;

const scalarKeys = new Set<string>(scalarFields.map((f) => f.key));
export const isScalarKey = (path: string): path is ScalarFieldKey => scalarKeys.has(path);

/** Paths a correction may name: a scalar field or a line cell (a line index up to this bound). */
export const MAX_LINE_INDEX = 999;
export function isEditablePath(path: string): boolean {
  if (isScalarKey(path)) return true;
  const line = parseLinePath(path);
  if (line) return line.index <= MAX_LINE_INDEX;
  const row = parseTaxPath(path);
  return row !== null && row.index <= MAX_TAX_ROW_INDEX;
}

export function kindOf(path: FieldPath): FieldKind {
  const scalar = scalarFields.find((f) => f.key === path);
  if (scalar) return scalar.kind;
  const line = parseLinePath(path);
  if (line) return lineColumns.find((c) => c.key === line.column)!.kind;
  const row = parseTaxPath(path);
  return row ? taxColumns.find((c) => c.key === row.column)!.kind : 'text';
}

export function labelOf(path: FieldPath): string {
  const scalar = scalarFields.find((f) => f.key === path);
  if (scalar) return scalar.label;
  const line = parseLinePath(path);
  if (line) return `Line ${line.index + 1} ${lineColumns.find((c) => c.key === line.column)!.label.toLowerCase()}`;
  const row = parseTaxPath(path);
  if (row) return `VAT row ${row.index + 1} ${taxColumns.find((c) => c.key === row.column)!.label.toLowerCase()}`;
  return path;
}

/** The value types a field of each kind holds (what the review panel saves): text as strings, amounts as numbers. */
const holdsNumbers: Record<FieldKind, boolean> = { text: false, date: false, currency: false, amount: true, number: true };

/**
 * Why `value` cannot be the value of `path`, or null when it can: the path must be an invoice field or a line cell,
 * and the value null, a string (text, dates, currencies) or a finite number (amounts, quantities) as the field's kind
 * says. For everything that writes a correction from outside the panel (the contract, a corpus import, a merge).
 */
export function fieldValueProblem(path: string, value: unknown): string | null {
  if (!isEditablePath(path)) return `"${path.slice(0, 100)}" is not an invoice field`;
  if (value === null) return null;
  const numeric = holdsNumbers[kindOf(path)];
  if (numeric) return typeof value === 'number' && Number.isFinite(value) ? null : `${path} holds a number, not ${JSON.stringify(value)?.slice(0, 60)}`;
  if (typeof value !== 'string') return `${path} holds text, not ${JSON.stringify(value)?.slice(0, 60)}`;
  return value.length > 2000 ? `${path} holds at most 2000 characters` : null;
}
