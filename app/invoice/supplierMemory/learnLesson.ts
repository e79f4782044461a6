/**
 * Learning from a page the analyst corrected or approved: for each confirmed value, where the page prints it
 * (valueKinds.ts finds it, over several lines for a name) and which fixed text anchors it (hintPlaces.ts) — plus the formats the printed values show and who the supplier is.
 * Values that change per invoice are never kept: only their anchors and formats.
 */
import type { Word } from '../../model/extraction.js';
import { labelAt } from '../labelHits.js';
import { anchorCounts, anchorOf, continuesBelow } from './hintPlaces.js';
import { letterheadOf } from './letterhead.js';
import { hintedFieldKeys, MAX_HINTS_PER_FIELD, MAX_IDS, MAX_TEXT, MAX_VALUE_LINES, type FieldHint, type HintedField, type SupplierLesson } from './lessonSchema.js';
import { compactText, memoryPage, type MemoryPage } from './pageText.js';
import { supplierIdentifiers } from './partyIdentifiers.js';
import { findValue, kindOf, shapeOf, type FoundValue } from './valueKinds.js';

/** The analyst's values for the page: the key fields (null where the invoice has none). */
export interface ConfirmedValues {
  invoice_number: string | null;
  issue_date: string | null;
  due_date: string | null;
  seller: string | null;
  buyer: string | null;
  currency: string | null;
  subtotal: number | null;
  tax: number | null;
  total: number | null;
}

interface Found extends FoundValue {
  hint: FieldHint;
}

function hintsFor(page: MemoryPage, counts: ReadonlyMap<string, number>, field: HintedField, value: string | number): Found[] {
  const kind = kindOf[field];
  // A name printed over several lines is looked for by its first line, and kept where the next lines follow it.
  const parts = kind === 'name' ? String(value).split('\n').map((p) => p.trim()).filter(Boolean) : [];
  const multiLine = parts.length > 1 && parts.length <= MAX_VALUE_LINES;
  const found: Found[] = [];
  page.lines.forEach((line, li) =>
    line.segments.forEach((segment, si) => {
      const whole = findValue(kind, value, segment.text);
      const firstLine = !whole && multiLine ? findValue(kind, parts[0]!, segment.text) : null;
      const at = whole ?? (firstLine && continuesBelow(page, li, segment, parts, (text, part) => findValue(kind, part, text) !== null) ? firstLine : null);
      if (!at) return;
      const anchor = anchorOf(page, counts, { line: li, segment: si, index: at.index }, kind === 'money');
      if (!anchor) return;
      const lines = whole ? {} : { lines: parts.length };
      found.push({ ...at, hint: { ...anchor, shape: kind === 'id' ? shapeOf(String(value)).slice(0, MAX_TEXT) : null, ...lines } });
    }),
  );
  // Label and value side by side first (they hold across layouts of one supplier), then values under a heading.
  // Totals are printed last on a page (section totals come before), so their later occurrences lead.
  // An anchor that is a label of the field itself ("NETT TOTAL", "Date:") leads over text that happens to stand beside
  // the value on this page: an item whose price equals the total, the tax code of a summary row, an address line.
  const order = { inline: 0, right: 0, 'column-end': 1, below: 1 };
  const rank = (f: Found): number => (namesField(f.hint.anchor, field) ? 0 : 2) + order[f.hint.relation];
  const ranked = (kind === 'money' ? found.reverse() : found).sort((a, b) => rank(a) - rank(b));
  const unique: Found[] = [];
  for (const f of ranked) if (!unique.some((u) => u.hint.anchor === f.hint.anchor && u.hint.relation === f.hint.relation)) unique.push(f);
  return unique.slice(0, MAX_HINTS_PER_FIELD);
}

/** Whether an anchor holds a label of the field, at any of its words ("nett total", "total rounded", "Receipt Date"). */
function namesField(anchor: string, field: HintedField): boolean {
  const words = anchor.split(' ');
  return words.some((_, i) => labelAt(words.slice(i).join(' '))?.field === field);
}

const vote = (values: (boolean | null | undefined)[]): boolean | null => {
  const known = values.filter((v): v is boolean => typeof v === 'boolean');
  if (known.length === 0) return null;
  return known.filter(Boolean).length * 2 > known.length;
};

export function learnLesson(words: readonly Word[], confirmed: ConfirmedValues, page: MemoryPage = memoryPage(words)): SupplierLesson {
  const hints: SupplierLesson['hints'] = {};
  const counts = anchorCounts(page);
  const formats: FoundValue[] = [];
  for (const field of hintedFieldKeys) {
    const value = confirmed[field];
    if (value === null || value === '') continue;
    const found = hintsFor(page, counts, field, value);
    if (found.length) hints[field] = found.map((f) => f.hint);
    formats.push(...found);
  }
  // The buyer's identifiers are printed too: those in the confirmed buyer's block or under a buyer heading are left
  // out (partyIdentifiers.ts), and memory discounts any identifier two suppliers share (recogniseSupplier.ts).
  const ids = supplierIdentifiers(page.lines, confirmed.buyer);
  const kept = (list: string[]) => list.slice(0, MAX_IDS).map((v) => v.slice(0, MAX_TEXT));
  const name = confirmed.seller?.trim().slice(0, MAX_TEXT) || null;
  return {
    version: 1,
    identity: {
      name: name && compactText(name).length > 0 ? name : null,
      vatIds: kept(ids.vat),
      ibans: kept(ids.iban),
      taxNumbers: kept(ids.tax),
      glns: kept(ids.gln),
      phones: kept(ids.phone),
      letterhead: letterheadOf(page.lines, confirmed.buyer),
      fingerprint: [...page.fingerprint],
    },
    format: {
      monthFirst: vote(formats.map((f) => f.monthFirst)),
      decimalComma: vote(formats.map((f) => f.decimalComma)),
      currency: confirmed.currency && /^[A-Z]{3}$/.test(confirmed.currency) ? confirmed.currency : null,
    },
    hints,
  };
}
