/**
 * Calibrated confidence for first-seen page readings: which kinds of evidence are right often enough to show high.
 *
 * A value's evidence signature is its field, the kind of label it was read under and the arithmetic checks it took
 * part in (fieldConfidence.ts: "invoice_number|label:specific", "total|label:specific|total=subtotal+tax:holds").
 * A signature is listed here when, on the development families of the einvoice corpus, every value carrying it was
 * right, it was seen in at least MIN_FAMILIES seller families and MIN_VALUES values, and it kept a precision of 100 %
 * leave-one-family-out (calibrated on the other families, tested on the one left out). `npx tsx
 * bench/fields/calibrateConfidence.ts` prints that table; the held-out families never enter it (their bands are
 * only scored). OCR doubt ('ocr:uncertain') excludes a value: the signatures were measured on text layers.
 *
 * Never promoted: party names — free text that no identity checks, whose extent (one line, or the whole registered
 * name over an identifier line) varies by issuer; promoted on three families they were wrong on the fourth — and
 * unlabelled values, guesses that at most a due date ≥ issue date confirms. Totals already reach high by a specific
 * label and a closing identity (fieldConfidence.ts), so the table holds what evidence alone leaves mid.
 *
 * Measured (development families only, 4 folds): 67 of 67 values shown high right, 67 of 129 right values shown high;
 * before calibration 40 of 129.
 */

/** Shown high: at least the review screen's high band (0.85). */
export const CALIBRATED_HIGH = 0.9;

/** The signatures that earn CALIBRATED_HIGH (see the module comment for how they were chosen). */
export const CALIBRATED_SIGNATURES: ReadonlySet<string> = new Set([
  // A specific label ("Rechnungsnummer", "Invoice No.", "N° de facture") over an identifier with digits.
  'invoice_number|label:specific',
  // An ISO 4217 code printed by the amounts.
  'currency|iso-code',
]);

/** The signature of a value's evidence: field, label kind, arithmetic checks (sorted), no OCR doubt. */
export function evidenceSignature(key: string, evidence: readonly string[]): string | null {
  if (evidence.includes('ocr:uncertain')) return null;
  const label = evidence.find((e) => e.startsWith('label:') || e === 'iso-code' || e === 'symbol');
  const checks = evidence.filter((e) => e.startsWith('arithmetic:')).map((e) => e.slice('arithmetic:'.length)).sort();
  return [key, label ?? 'label:none', ...checks].join('|');
}

export function calibratedConfidence(key: string, evidence: readonly string[]): number | null {
  const signature = evidenceSignature(key, evidence);
  return signature !== null && CALIBRATED_SIGNATURES.has(signature) ? CALIBRATED_HIGH : null;
}
