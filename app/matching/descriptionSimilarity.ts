/**
 * How alike an invoice line's description and a PO line's description are, in [0, 1]. A PO is written by the buyer
 * and the invoice by the seller, so the same item is worded apart: word order, abbreviations, an article number
 * added. The score is the larger of the word-set overlap (Dice over words of two or more characters) and the
 * character similarity of the normalised strings (1 − Levenshtein distance ÷ longer length), so a reordered name and
 * a misspelt one both score high.
 */
import { distance } from 'fastest-levenshtein';

/** Lower case, accents dropped, punctuation to spaces, runs of space collapsed. */
export function normalisedDescription(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export const descriptionWords = (normalised: string): string[] => normalised.split(' ').filter((w) => w.length >= 2);

export function descriptionSimilarity(a: string, b: string): number {
  const na = normalisedDescription(a);
  const nb = normalisedDescription(b);
  if (!na || !nb) return 0;
  if (na === nb) return 1;
  const wa = new Set(descriptionWords(na));
  const wb = new Set(descriptionWords(nb));
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  const dice = wa.size + wb.size > 0 ? (2 * shared) / (wa.size + wb.size) : 0;
  const chars = 1 - distance(na, nb) / Math.max(na.length, nb.length);
  return Math.max(dice, chars);
}
