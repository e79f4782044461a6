/**
 * Mutants of complete EN 16931 e-invoices (UBL Invoice / CreditNote and CII) for the differential tests against the
 * official validator: amounts, quantities, rates, dates, codes, removed and duplicated elements, extra lines, VAT
 * breakdowns at the half-cent rounding boundary, and invoice ↔ credit-note conversions. Each mutant is one operator
 * applied at a spot chosen by a seeded generator, so a run is reproducible from (source name, mutant number).
 *
 * Operators follow the EN 16931 semantic model (which BT a node carries), never a particular test file.
 */
import {
  attributeNames,
  attributeOf,
  buildXml,
  elementChildren,
  elements,
  localName,
  parseXmlTree,
  renameElement,
  rootElement,
  setAttribute,
  setText,
  tagOf,
  textOf,
  type Located,
  type XmlNode,
} from './xmlTree.js';
import { seededRandom } from './seededRandom.js';

export interface Mutant {
  source: string;
  /** 0-based mutant number within its source. */
  number: number;
  operator: MutationOperator;
  /** What was changed, e.g. `cbc:PayableAmount 1436.50 → 1436.51`. */
  change: string;
  xml: string;
}

export const mutationOperators = [
  'amount',
  'quantity',
  'rate',
  'date',
  'code',
  'remove',
  'duplicate',
  'extraLine',
  'rounding',
  'creditNote',
] as const;
export type MutationOperator = (typeof mutationOperators)[number];

type Rng = () => number;

/** Picks spots reproducibly: a mutant is a pure function of its seed. */
export const seededRng: (seed: number) => Rng = seededRandom;

/** FNV-1a of a string: the per-source part of the seed. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function pick<T>(rng: Rng, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(rng() * items.length)];
}

const DECIMAL = /^\s*[+-]?\d+(\.\d+)?\s*$/;

/** Shifts a decimal string by `cents` hundredths exactly (integer arithmetic on the digits). */
function addCents(value: string, cents: number): string {
  const [whole = '0', fraction = ''] = value.trim().split('.');
  const scale = Math.max(2, fraction.length);
  const units = BigInt(whole + fraction.padEnd(scale, '0')) + BigInt(cents) * 10n ** BigInt(scale - 2);
  return formatScaled(units, scale);
}

function formatScaled(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

function negate(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith('-') ? trimmed.slice(1) : `-${trimmed}`;
}

const AMOUNT_VARIANTS: ((v: string) => string)[] = [
  (v) => addCents(v, 1),
  (v) => addCents(v, -1),
  (v) => addCents(v, 100),
  (v) => negate(v),
  () => '0.00',
  (v) => `${v.trim().includes('.') ? v.trim() : `${v.trim()}.0`}01`, // a third fraction digit
  () => '', // empty element
  () => '12,50', // a comma decimal: not an xs:decimal
];

const QUANTITY_VARIANTS: ((v: string) => string)[] = [(v) => addCents(v, 100), () => '0', (v) => negate(v), () => '1.2345', () => '-1'];

const RATE_VALUES = ['0', '0.00', '7', '19', '20', '25', '5.5', '100', '-19', ''];

function isAmount(name: string): boolean {
  return /Amount$/.test(name);
}

function numericLeaves(tree: XmlNode[], test: (name: string) => boolean): Located[] {
  return elements(tree).filter((e) => test(localName(tagOf(e.node)!)) && elementChildren(e.node).length === 0 && DECIMAL.test(textOf(e.node)));
}

function describe(e: Located, before: string, after: string): string {
  return `${tagOf(e.node)} ${before.trim() || '(empty)'} → ${after || '(empty)'}`;
}

function mutateLeaf(rng: Rng, candidates: Located[], variants: ((v: string) => string)[]): string | null {
  const target = pick(rng, candidates);
  const variant = pick(rng, variants);
  if (!target || !variant) return null;
  const before = textOf(target.node);
  const after = variant(before);
  setText(target.node, after);
  return describe(target, before, after);
}

const RATE_NAMES = new Set(['Percent', 'RateApplicablePercent', 'CalculationPercent', 'MultiplierFactorNumeric']);

function mutateRate(tree: XmlNode[], rng: Rng): string | null {
  const candidates = elements(tree).filter((e) => RATE_NAMES.has(localName(tagOf(e.node)!)) && elementChildren(e.node).length === 0);
  const target = pick(rng, candidates);
  if (!target) return null;
  const before = textOf(target.node);
  const after = pick(rng, RATE_VALUES.filter((v) => v !== before.trim()))!;
  setText(target.node, after);
  return describe(target, before, after);
}

const UBL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const CII_DATE = /^\d{8}$/;

function shiftDate(value: string, days: number): string | null {
  const v = value.trim();
  const iso = UBL_DATE.test(v) ? v : CII_DATE.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6)}` : null;
  if (!iso) return null;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return null;
  date.setUTCDate(date.getUTCDate() + days);
  const shifted = date.toISOString().slice(0, 10);
  return UBL_DATE.test(v) ? shifted : shifted.replace(/-/g, '');
}

function mutateDate(tree: XmlNode[], rng: Rng): string | null {
  const candidates = elements(tree).filter((e) => {
    const name = localName(tagOf(e.node)!);
    return (/Date$/.test(name) || name === 'DateTimeString') && elementChildren(e.node).length === 0;
  });
  const target = pick(rng, candidates);
  if (!target) return null;
  const before = textOf(target.node).trim();
  const style = Math.floor(rng() * 4);
  const after =
    style === 0
      ? shiftDate(before, -400)
      : style === 1
        ? shiftDate(before, pick(rng, [-1, 1, 31])!)
        : style === 2
          ? UBL_DATE.test(before)
            ? '2024-02-30'
            : '20240230'
          : UBL_DATE.test(before)
            ? before.replace(/-/g, '')
            : `${before.slice(0, 4)}-${before.slice(4, 6)}-${before.slice(6)}`;
  if (after === null) return null;
  setText(target.node, after);
  return describe(target, before, after);
}

/** Code-carrying nodes (by local name, and the parent's where the name alone is ambiguous) and values to try: valid
 * members of the code list and values outside it. */
const CODE_FIELDS: { test: (name: string, parent: string) => boolean; attribute?: string; values: string[] }[] = [
  { test: (n) => ['DocumentCurrencyCode', 'TaxCurrencyCode', 'InvoiceCurrencyCode'].includes(n), values: ['EUR', 'USD', 'SEK', 'XXX', 'EU', 'eur'] },
  { test: () => true, attribute: 'currencyID', values: ['EUR', 'USD', 'GBP', 'ZZZ'] },
  { test: (n, p) => n === 'CategoryCode' || (n === 'ID' && (p === 'ClassifiedTaxCategory' || p === 'TaxCategory')), values: ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M', 'B', 'X'] },
  { test: (n, p) => n === 'InvoiceTypeCode' || n === 'CreditNoteTypeCode' || (n === 'TypeCode' && p === 'ExchangedDocument'), values: ['380', '381', '384', '389', '751', '326', '999', '1'] },
  { test: (n, p) => n === 'PaymentMeansCode' || (n === 'TypeCode' && p === 'SpecifiedTradeSettlementPaymentMeans'), values: ['30', '31', '58', '59', '48', '1', 'ZZZ', '97'] },
  { test: (n) => n === 'IdentificationCode' || n === 'CountryID', values: ['DE', 'FR', 'GB', 'NO', '1A', 'XX', 'de'] },
  { test: () => true, attribute: 'unitCode', values: ['C62', 'H87', 'HUR', 'KGM', 'XYZ', 'ea'] },
  { test: (n) => n === 'EndpointID' || n === 'URIID', attribute: 'schemeID', values: ['0088', '0204', '9930', 'EM', 'XX', '0000'] },
  { test: (n) => n === 'TaxExemptionReasonCode' || n === 'ExemptionReasonCode', values: ['VATEX-EU-O', 'VATEX-EU-IC', 'VATEX-EU-AE', 'VATEX-XX'] },
  { test: (n) => n === 'AllowanceChargeReasonCode' || n === 'ReasonCode', values: ['95', '100', '41', 'AA', 'FC', 'ZZZ', '9999'] },
  { test: (n) => n === 'DueDateTypeCode' || n === 'DescriptionCode', values: ['3', '35', '432', '5', '29', '7'] },
  { test: (n) => n === 'EmbeddedDocumentBinaryObject' || n === 'AttachmentBinaryObject', attribute: 'mimeCode', values: ['application/pdf', 'image/png', 'text/plain'] },
];

function mutateCode(tree: XmlNode[], rng: Rng): string | null {
  const all = elements(tree);
  const spots: { e: Located; values: string[]; attribute?: string }[] = [];
  for (const e of all) {
    const name = localName(tagOf(e.node)!);
    const parent = e.parent ? localName(tagOf(e.parent)!) : '';
    for (const field of CODE_FIELDS) {
      if (!field.test(name, parent)) continue;
      if (field.attribute ? attributeOf(e.node, field.attribute) === undefined : elementChildren(e.node).length > 0) continue;
      spots.push({ e, values: field.values, ...(field.attribute ? { attribute: field.attribute } : {}) });
    }
  }
  const spot = pick(rng, spots);
  if (!spot) return null;
  const before = spot.attribute ? attributeOf(spot.e.node, spot.attribute)! : textOf(spot.e.node);
  const after = pick(rng, spot.values.filter((v) => v !== before.trim()))!;
  if (spot.attribute) setAttribute(spot.e.node, spot.attribute, after);
  else setText(spot.e.node, after);
  return `${tagOf(spot.e.node)}${spot.attribute ? `@${spot.attribute}` : ''} ${before || '(empty)'} → ${after}`;
}

function nonRootElements(tree: XmlNode[]): Located[] {
  return elements(tree).filter((e) => e.depth > 0);
}

function removeElement(tree: XmlNode[], rng: Rng): string | null {
  const target = pick(rng, nonRootElements(tree));
  if (!target) return null;
  target.siblings.splice(target.index, 1);
  return `removed ${tagOf(target.node)}`;
}

function duplicateElement(tree: XmlNode[], rng: Rng): string | null {
  const target = pick(rng, nonRootElements(tree));
  if (!target) return null;
  target.siblings.splice(target.index + 1, 0, structuredClone(target.node));
  return `duplicated ${tagOf(target.node)}`;
}

const LINE_NAMES = new Set(['InvoiceLine', 'CreditNoteLine', 'IncludedSupplyChainTradeLineItem']);

/** Appends a copy of a line with a fresh line id (BT-126), optionally with a changed net amount. */
function extraLine(tree: XmlNode[], rng: Rng): string | null {
  const lines = elements(tree).filter((e) => LINE_NAMES.has(localName(tagOf(e.node)!)));
  const target = pick(rng, lines);
  if (!target) return null;
  const copy = structuredClone(target.node);
  const lastLineIndex = Math.max(...lines.filter((l) => l.siblings === target.siblings).map((l) => l.index));
  const id = elements([copy]).find((e) => e.depth > 0 && ['ID', 'LineID'].includes(localName(tagOf(e.node)!)));
  if (id) setText(id.node, `${textOf(id.node).trim()}-extra`);
  target.siblings.splice(lastLineIndex + 1, 0, copy);
  return `extra ${tagOf(target.node)} copied from line ${id ? textOf(id.node) : '?'}`;
}

/**
 * A VAT breakdown (BG-23) moved to the half-cent boundary: its taxable amount becomes the nearest value at or above
 * the current one whose tax at the breakdown's rate ends in exactly half a cent, and the tax amount is set rounded
 * half up or half down. BR-CO-17 asks for half up; the other totals then disagree, which both validators must see.
 */
function roundingBoundary(tree: XmlNode[], rng: Rng): string | null {
  const breakdowns = elements(tree).filter((e) => {
    const name = localName(tagOf(e.node)!);
    if (name === 'TaxSubtotal') return true;
    return name === 'ApplicableTradeTax' && e.parent !== null && localName(tagOf(e.parent)!) === 'ApplicableHeaderTradeSettlement';
  });
  const target = pick(rng, breakdowns);
  if (!target) return null;
  const all = elements([target.node]);
  const find = (names: string[]): Located | undefined => all.find((e) => names.includes(localName(tagOf(e.node)!)));
  const taxable = find(['TaxableAmount', 'BasisAmount']);
  const tax = find(['TaxAmount', 'CalculatedAmount']);
  const rate = find(['Percent', 'RateApplicablePercent']);
  if (!taxable || !tax || !rate || !DECIMAL.test(textOf(rate.node)) || !DECIMAL.test(textOf(taxable.node))) return null;
  const [rateWhole = '0', rateFraction = ''] = textOf(rate.node).trim().split('.');
  const rateUnits = BigInt(rateWhole + rateFraction); // rate × 10^k
  const rateScale = 10n ** BigInt(rateFraction.length);
  if (rateUnits <= 0n) return null;
  // tax in cents = cents × rate / 100: half a cent exactly when cents × rateUnits ≡ 50·10^k (mod 100·10^k).
  const start = BigInt(addCents(textOf(taxable.node), 0).replace('.', ''));
  const MAX_STEPS = 20_000;
  for (let step = 0n; step < BigInt(MAX_STEPS); step++) {
    const cents = start + step;
    if ((cents * rateUnits) % (100n * rateScale) !== 50n * rateScale) continue;
    const halfDown = (cents * rateUnits) / (100n * rateScale); // truncated: the cent below the boundary
    const up = rng() < 0.5;
    const taxCents = up ? halfDown + 1n : halfDown;
    setText(taxable.node, formatScaled(cents, 2));
    setText(tax.node, formatScaled(taxCents, 2));
    return `${tagOf(target.node)} taxable ${formatScaled(cents, 2)} at ${textOf(rate.node)} % → tax ${formatScaled(taxCents, 2)} (half ${up ? 'up' : 'down'})`;
  }
  return null;
}

const UBL_INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const UBL_CREDIT_NOTE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

/** Invoice ↔ credit note: UBL changes root, namespace, type code and line elements; CII changes the type code. */
function toggleCreditNote(tree: XmlNode[], rng: Rng): string | null {
  const root = rootElement(tree);
  const rootName = localName(tagOf(root)!);
  if (rootName === 'CrossIndustryInvoice') {
    const typeCode = elements(tree).find((e) => localName(tagOf(e.node)!) === 'TypeCode' && e.parent && localName(tagOf(e.parent)!) === 'ExchangedDocument');
    if (!typeCode) return null;
    const before = textOf(typeCode.node).trim();
    const after = before === '381' ? '380' : pick(rng, ['381', '261', '396'])!;
    setText(typeCode.node, after);
    return `CII TypeCode ${before} → ${after}`;
  }
  const toCredit = rootName === 'Invoice';
  const [fromNs, toNs] = toCredit ? [UBL_INVOICE_NS, UBL_CREDIT_NOTE_NS] : [UBL_CREDIT_NOTE_NS, UBL_INVOICE_NS];
  const rename: Record<string, string> = toCredit
    ? { Invoice: 'CreditNote', InvoiceLine: 'CreditNoteLine', InvoicedQuantity: 'CreditedQuantity', InvoiceTypeCode: 'CreditNoteTypeCode' }
    : { CreditNote: 'Invoice', CreditNoteLine: 'InvoiceLine', CreditedQuantity: 'InvoicedQuantity', CreditNoteTypeCode: 'InvoiceTypeCode' };
  for (const name of attributeNames(root)) {
    if (name.startsWith('xmlns') && attributeOf(root, name) === fromNs) setAttribute(root, name, toNs);
  }
  for (const e of elements(tree)) {
    const tag = tagOf(e.node)!;
    const local = localName(tag);
    const renamed = rename[local];
    if (!renamed) continue;
    if (local.endsWith('TypeCode')) setText(e.node, toCredit ? '381' : '380');
    renameElement(e.node, tag.slice(0, tag.length - local.length) + renamed);
  }
  return toCredit ? 'UBL Invoice → CreditNote (381)' : 'UBL CreditNote → Invoice (380)';
}

const OPERATORS: Record<MutationOperator, (tree: XmlNode[], rng: Rng) => string | null> = {
  amount: (tree, rng) => mutateLeaf(rng, numericLeaves(tree, isAmount), AMOUNT_VARIANTS),
  quantity: (tree, rng) => mutateLeaf(rng, numericLeaves(tree, (n) => /Quantity$/.test(n)), QUANTITY_VARIANTS),
  rate: mutateRate,
  date: mutateDate,
  code: mutateCode,
  remove: removeElement,
  duplicate: duplicateElement,
  extraLine,
  rounding: roundingBoundary,
  creditNote: toggleCreditNote,
};

/**
 * `count` mutants of one document. Operators take turns (mutant n uses operator n mod 10, so each gets its share);
 * where one has no spot in this document (no dates, no breakdown…) the mutant is skipped, not replaced.
 */
export function mutantsOf(source: string, xml: string, count: number, seed = 1): Mutant[] {
  const tree = parseXmlTree(xml);
  const mutants: Mutant[] = [];
  for (let number = 0; number < count; number++) {
    const operator = mutationOperators[number % mutationOperators.length]!;
    const rng = seededRng(hashString(source) ^ Math.imul(seed, 0x9e3779b1) ^ Math.imul(number + 1, 0x85ebca6b));
    const copy = structuredClone(tree);
    const change = OPERATORS[operator](copy, rng);
    if (change === null) continue;
    mutants.push({ source, number, operator, change, xml: buildXml(copy) });
  }
  return mutants;
}
