/**
 * "Needs attention": signals that a page wants an analyst's eye, all of them available before anyone corrected it —
 * failed invoice rules, page-vs-XML disagreements, low-confidence fields or words, missing required fields,
 * repetition, invalid table structure. They order the review queue for fresh pages (the engine-vs-correction scores
 * can only order pages someone already corrected). Pure: the inputs come from the page's reading, its field
 * corrections and its reference-free check scores.
 */
import type { RuleResult } from '../invoice/rules/ruleTypes.js';

export const attentionSignalKinds = [
  'failed-rule',
  'xml-disagreement',
  'low-confidence',
  'missing-field',
  'repetition',
  'table-structure',
  'duplicate',
  'no-boxes',
  // Approval that holds (docs/security.md): an approved invoice changed after its approval; a decision from a merge or
  // import that differs from the one taken here; a payment account or VAT ID this supplier was not paid to before.
  'reopened',
  'decision-conflict',
  'bank-account',
  // Billed against what was ordered and received (docs/po-matching.md).
  'match-failed',
] as const;
export type AttentionSignalKind = (typeof attentionSignalKinds)[number];

export interface AttentionSignal {
  kind: AttentionSignalKind;
  /** What exactly ("BR-CO-10", "total: page 119.00 — XML 129.00", "12% of words below 60 %"). */
  detail: string;
}

/** EN 16931 required-field rules (requiredRules.ts): a failure there is a missing field, not a wrong value. */
export const requiredFieldRules: ReadonlySet<string> = new Set(['BR-02', 'BR-03', 'BR-05', 'BR-06', 'BR-07', 'BR-14']);

/** A field read with less confidence than this needs checking (the panel shows it red). */
export const LOW_FIELD_CONFIDENCE = 0.6;
/** A word below this OCR confidence is doubtful… */
export const LOW_WORD_CONFIDENCE = 0.6;
/** …and a page where more than this share of words is doubtful needs reading closely. */
export const LOW_WORD_SHARE = 0.05;
/** Check scores (in [0, 1], 1 = nothing found) below these flag repetition and broken table structure. */
export const REPETITION_FLOOR = 1;
export const STRUCTURE_FLOOR = 1;

export interface AttentionInput {
  /** Rule results for an invoice page; null for pages that are not invoices. */
  rules: readonly RuleResult[] | null;
  /** Fields where the page and the e-invoice XML disagree. */
  disagreements: readonly string[];
  /**
   * Page ≠ XML differences where the page prints the XML's value too (app/einvoice/printedOnPage.ts): the reader
   * chose another printed value — a doubt of Recto's reading, never an exception of the document.
   */
  readingDoubts?: readonly string[];
  /** Confidence of each field the engine read and nobody corrected. */
  fieldConfidences: readonly { field: string; confidence: number | null }[];
  wordConfidences: readonly (number | null)[];
  repetitionScore: number | null;
  structureScore: number | null;
  /** The reading has text but not one element box (a server answering without grounding): nothing links page and text. */
  boxless?: boolean;
}

export function attentionSignals(input: AttentionInput): AttentionSignal[] {
  const signals: AttentionSignal[] = [];
  for (const rule of input.rules ?? []) {
    if (rule.status !== 'fail') continue;
    signals.push({ kind: requiredFieldRules.has(rule.rule) ? 'missing-field' : 'failed-rule', detail: `${rule.rule}: ${rule.message}` });
  }
  for (const field of input.disagreements) signals.push({ kind: 'xml-disagreement', detail: field });
  for (const doubt of input.readingDoubts ?? []) signals.push({ kind: 'low-confidence', detail: `${doubt} (the page also prints the XML's value: a reading doubt)` });
  const lowFields = input.fieldConfidences.filter((f) => f.confidence !== null && f.confidence < LOW_FIELD_CONFIDENCE);
  if (lowFields.length) signals.push({ kind: 'low-confidence', detail: `fields ${lowFields.map((f) => f.field).join(', ')}` });
  const known = input.wordConfidences.filter((c): c is number => c !== null);
  const lowWords = known.filter((c) => c < LOW_WORD_CONFIDENCE).length;
  if (known.length && lowWords / known.length > LOW_WORD_SHARE) {
    signals.push({ kind: 'low-confidence', detail: `${Math.round((100 * lowWords) / known.length)}% of words below ${LOW_WORD_CONFIDENCE * 100} %` });
  }
  if (input.repetitionScore !== null && input.repetitionScore < REPETITION_FLOOR) signals.push({ kind: 'repetition', detail: `repetition score ${input.repetitionScore.toFixed(2)}` });
  if (input.structureScore !== null && input.structureScore < STRUCTURE_FLOOR) signals.push({ kind: 'table-structure', detail: `structure score ${input.structureScore.toFixed(2)}` });
  if (input.boxless) signals.push({ kind: 'no-boxes', detail: 'text without element boxes: no box links page and text' });
  return signals;
}

/** How much a signal moves an uncorrected page up the queue: wrong numbers and contradictions first, doubts after. */
export const attentionSignalWeight: Record<AttentionSignalKind, number> = {
  'failed-rule': 3,
  // The same invoice twice is paid twice: as urgent as a wrong number.
  duplicate: 3,
  'xml-disagreement': 3,
  'missing-field': 2,
  'table-structure': 2,
  repetition: 2,
  'low-confidence': 1,
  // The text may be right; what is missing is the link to the page an analyst checks it against.
  'no-boxes': 1,
  // Billed against what was ordered and received (docs/po-matching.md): paying more than ordered is a wrong number.
  'match-failed': 3,
  // Money may leave to the wrong account: as urgent as a wrong number.
  reopened: 3,
  'decision-conflict': 3,
  'bank-account': 3,
};

/** Signals that ask a person to decide again even on a page already approved or rejected. */
const DECISION_SIGNALS: ReadonlySet<AttentionSignalKind> = new Set(['decision-conflict']);

/**
 * A page's place in the needs-attention order: the sum of its signals' weights (0 = nothing asks for a look). An
 * approved or rejected page has been looked at: it weighs 0 whatever it shows, but for a decision from elsewhere that
 * contradicts it.
 */
export function attentionWeight(signals: readonly Pick<AttentionSignal, 'kind'>[], reviewStatus?: string): number {
  if (reviewStatus === 'approved' || reviewStatus === 'rejected') return signals.filter((s) => DECISION_SIGNALS.has(s.kind)).reduce((sum, s) => sum + attentionSignalWeight[s.kind], 0);
  return signals.reduce((sum, signal) => sum + attentionSignalWeight[signal.kind], 0);
}
