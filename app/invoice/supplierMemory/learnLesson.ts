/**
 * Learning from a page the analyst corrected or approved: for each confirmed value, where the page prints it
 * (valueKinds.ts finds it) and which fixed text anchors it — the text before it in its segment, a segment to its
 * left on the same line, or a segment above it — plus the formats the printed values show and who the supplier is.
 * Values that change per invoice are never kept: only their anchors and formats.
 */
import type { Word } from '../../model/extraction.js';
import type { TextLine } from '../layout.js';
import { hintedFieldKeys, MAX_HINTS_PER_FIELD, MAX_IDS, MAX_TEXT, type FieldHint, type HintedField, type SupplierLesson } from './lessonSchema.js';
import { anchorForm, compactText, memoryPage, relativeY, type MemoryPage } from './pageText.js';
import { findValue, kindOf, shapeOf, type FoundValue } from './valueKinds.js';

/** An anchor needs this many letters: "#" or "/" alone anchors nothing. */
const MIN_ANCHOR_LETTERS = 2;
/** How far an anchor may be: segments to the left, lines above. */
const MAX_RIGHT_STEP = 3;
const MAX_BELOW_STEP = 3;

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

const letters = (text: string): number => text.match(/\p{L}/gu)?.length ?? 0;
const isAnchor = (form: string): boolean => letters(form) >= MIN_ANCHOR_LETTERS && form.length <= MAX_TEXT;

/** The anchor of a value found at (line, segment, index in the segment's text); null where no fixed text is near. */
function anchorOf(page: MemoryPage, lineIndex: number, segIndex: number, index: number): Omit<FieldHint, 'shape'> | null {
  const line = page.lines[lineIndex]!;
  const segment = line.segments[segIndex]!;
  const before = anchorForm(segment.text.slice(0, index));
  if (isAnchor(before)) return { anchor: before, relation: 'inline', step: 0, anchorY: relativeY(page, line) };
  for (let k = segIndex - 1; k >= Math.max(0, segIndex - MAX_RIGHT_STEP); k--) {
    const form = anchorForm(line.segments[k]!.text);
    if (isAnchor(form)) return { anchor: form, relation: 'right', step: segIndex - k, anchorY: relativeY(page, line) };
  }
  for (let d = 1; d <= MAX_BELOW_STEP && lineIndex - d >= 0; d++) {
    const above: TextLine = page.lines[lineIndex - d]!;
    const over = above.segments.find((s) => Math.min(s.x2, segment.x2) - Math.max(s.x1, segment.x1) > 0);
    if (!over) continue;
    const form = anchorForm(over.text);
    if (isAnchor(form)) return { anchor: form, relation: 'below', step: d, anchorY: relativeY(page, above) };
    break;
  }
  return null;
}

interface Found extends FoundValue {
  hint: FieldHint;
}

function hintsFor(page: MemoryPage, field: HintedField, value: string | number): Found[] {
  const kind = kindOf[field];
  const found: Found[] = [];
  page.lines.forEach((line, li) =>
    line.segments.forEach((segment, si) => {
      const at = findValue(kind, value, segment.text);
      if (!at) return;
      const anchor = anchorOf(page, li, si, at.index);
      if (anchor) found.push({ ...at, hint: { ...anchor, shape: kind === 'id' ? shapeOf(String(value)).slice(0, MAX_TEXT) : null } });
    }),
  );
  // Label and value side by side first (they hold across layouts of one supplier), then values under a heading.
  // Totals are printed last on a page (section totals come before), so their later occurrences lead.
  const order = { inline: 0, right: 0, below: 1 };
  const ranked = (kind === 'money' ? found.reverse() : found).sort((a, b) => order[a.hint.relation] - order[b.hint.relation]);
  const unique: Found[] = [];
  for (const f of ranked) if (!unique.some((u) => u.hint.anchor === f.hint.anchor && u.hint.relation === f.hint.relation)) unique.push(f);
  return unique.slice(0, MAX_HINTS_PER_FIELD);
}

const vote = (values: (boolean | null | undefined)[]): boolean | null => {
  const known = values.filter((v): v is boolean => typeof v === 'boolean');
  if (known.length === 0) return null;
  return known.filter(Boolean).length * 2 > known.length;
};

export function learnLesson(words: readonly Word[], confirmed: ConfirmedValues, page: MemoryPage = memoryPage(words)): SupplierLesson {
  const hints: SupplierLesson['hints'] = {};
  const formats: FoundValue[] = [];
  for (const field of hintedFieldKeys) {
    const value = confirmed[field];
    if (value === null || value === '') continue;
    const found = hintsFor(page, field, value);
    if (found.length) hints[field] = found.map((f) => f.hint);
    formats.push(...found);
  }
  // The buyer's identifiers are printed too: only those outside the buyer's block could be the seller's, and memory
  // discounts any identifier two suppliers share (recogniseSupplier.ts), so keeping all of them is safe.
  const name = confirmed.seller?.trim().slice(0, MAX_TEXT) || null;
  return {
    version: 1,
    identity: {
      name: name && compactText(name).length > 0 ? name : null,
      vatIds: page.vatIds.slice(0, MAX_IDS).map((v) => v.slice(0, MAX_TEXT)),
      ibans: page.ibans.slice(0, MAX_IDS).map((v) => v.slice(0, MAX_TEXT)),
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
