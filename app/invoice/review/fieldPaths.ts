/**
 * The invoice fields an analyst reviews, in panel order, with what kind of value each holds (how an edit is
 * validated) and the EN 16931 business term it stands for. Line item cells are `lines.<i>.<column>`.
 */
import { DOCUMENT_TYPE_PATH, isDocumentType } from '../documentType.js';
import {
  holdsNumbers,
  invoiceFieldCatalogue,
  lineColumnCatalogue,
  lineTermCatalogue,
  paymentFieldCatalogue,
  type PaymentFieldKey,
  taxColumnCatalogue,
  type FieldKind,
  type LineColumnKey,
  type ScalarField,
  type ScalarFieldKey,
  type TaxColumnKey,
} from '../fieldCatalogue.js';
import type { FieldPath } from '../rules/ruleTypes.js';

export type { FieldKind, LineColumnKey, ScalarFieldKey, TaxColumnKey };

export interface FieldSpec {
  key: ScalarFieldKey;
  label: string;
  kind: FieldKind;
}

/** The invoice-level fields in panel order (fieldCatalogue.ts). */
export const scalarFields = invoiceFieldCatalogue;

/**
 * Whether the panel lists a field: always for the invoice's key fields; the totals block's other amounts (line
 * total, allowances, charges, paid — most invoices print none) only where the page, the XML or the analyst gives one.
 */
export const shownField = (field: ScalarField, ...values: unknown[]): boolean =>
  field.shown === 'always' || values.some((value) => value !== null && value !== undefined && value !== '');

export const lineColumns = lineColumnCatalogue;
/** A line's unit and VAT category and rate: read-only columns where the document's e-invoice XML states them. */
export const lineTermColumns = lineTermCatalogue;

/** A field's value: text and dates (ISO) as strings, amounts and quantities as numbers; null = absent. */
export type FieldValue = string | number | null;

const cellPathPattern = (list: string, columns: readonly { key: string }[]): RegExp => new RegExp(`^${list}\\.(\\d+)\\.(${columns.map((c) => c.key).join('|')})$`);
const linePathPattern = cellPathPattern('lines', lineColumnCatalogue);
const taxPathPattern = cellPathPattern('tax_breakdown', taxColumnCatalogue);

export const linePath = (index: number, column: LineColumnKey): FieldPath => `lines.${index}.${column}`;

/** `lines.3.amount` → { index: 3, column: 'amount' }; null for other paths. */
export function parseLinePath(path: FieldPath): { index: number; column: LineColumnKey } | null {
  const m = linePathPattern.exec(path);
  return m ? { index: Number(m[1]), column: m[2] as LineColumnKey } : null;
}

/** Columns of a VAT breakdown row (BG-23): rate in percent (BT-119), taxable amount (BT-116), tax (BT-117). */
export const taxColumns = taxColumnCatalogue;

export const taxPath = (index: number, column: TaxColumnKey): FieldPath => `tax_breakdown.${index}.${column}`;

/** `tax_breakdown.1.base` → { index: 1, column: 'base' }; null for other paths. */
export function parseTaxPath(path: FieldPath): { index: number; column: TaxColumnKey } | null {
  const m = taxPathPattern.exec(path);
  return m ? { index: Number(m[1]), column: m[2] as TaxColumnKey } : null;
}

/** Breakdown rows a correction may name (an index up to this bound): a few VAT rates per invoice, never hundreds. */
export const MAX_TAX_ROW_INDEX = 49;

const scalarKeys = new Set<string>(scalarFields.map((f) => f.key));
export const isScalarKey = (path: string): path is ScalarFieldKey => scalarKeys.has(path);

/** A payment field's path: `payment.iban`, `payment.seller_vat_id` (paymentFieldCatalogue). */
export const paymentPath = (key: PaymentFieldKey): FieldPath => `payment.${key}`;
const paymentKeys = new Set<string>(paymentFieldCatalogue.map((f) => f.key));
/** `payment.iban` → `iban`; null for other paths. */
export function parsePaymentPath(path: string): PaymentFieldKey | null {
  const key = path.startsWith('payment.') ? path.slice('payment.'.length) : '';
  return paymentKeys.has(key) ? (key as PaymentFieldKey) : null;
}

/** Paths a correction may name: a scalar field, a payment field, the document's type or a line cell (a line index up to this bound). */
export const MAX_LINE_INDEX = 999;
export function isEditablePath(path: string): boolean {
  if (isScalarKey(path) || parsePaymentPath(path) || path === DOCUMENT_TYPE_PATH) return true;
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
  if (path === DOCUMENT_TYPE_PATH) return 'Document type';
  const scalar = scalarFields.find((f) => f.key === path);
  if (scalar) return scalar.label;
  const payment = parsePaymentPath(path);
  if (payment) return paymentFieldCatalogue.find((f) => f.key === payment)!.label;
  const line = parseLinePath(path);
  if (line) return `Line ${line.index + 1} ${lineColumns.find((c) => c.key === line.column)!.label.toLowerCase()}`;
  const row = parseTaxPath(path);
  if (row) return `VAT row ${row.index + 1} ${taxColumns.find((c) => c.key === row.column)!.label.toLowerCase()}`;
  return path;
}

/**
 * Why `value` cannot be the value of `path`, or null when it can: the path must be an invoice field or a line cell,
 * and the value null, a string (text, dates, currencies) or a finite number (amounts, quantities) as the field's kind
 * says. For everything that writes a correction from outside the panel (the contract, a corpus import, a merge).
 */
export function fieldValueProblem(path: string, value: unknown): string | null {
  if (!isEditablePath(path)) return `"${path.slice(0, 100)}" is not an invoice field`;
  if (path === DOCUMENT_TYPE_PATH) return value === null || isDocumentType(value) ? null : `${path} is 'invoice' or 'receipt', not ${JSON.stringify(value)?.slice(0, 60)}`;
  if (value === null) return null;
  const numeric = holdsNumbers[kindOf(path)];
  if (numeric) return typeof value === 'number' && Number.isFinite(value) ? null : `${path} holds a number, not ${JSON.stringify(value)?.slice(0, 60)}`;
  if (typeof value !== 'string') return `${path} holds text, not ${JSON.stringify(value)?.slice(0, 60)}`;
  return value.length > 2000 ? `${path} holds at most 2000 characters` : null;
}
