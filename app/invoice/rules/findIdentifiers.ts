/**
 * IBANs and VAT identifiers printed on a page, found by their labels: the word IBAN (the same in every language),
 * and the VAT labels of the languages Recto reads (VAT / USt-IdNr. / TVA / BTW / IVA / UID …). Only labelled values
 * are taken, so a reference number shaped like an IBAN is not checked as one.
 */

const ibanLabel = /\bIBAN\b[\s:.#]*(?:n[or]\.?\s*)?/gi;
/** Country, check digits, then groups of letters/digits, possibly printed in fours. */
const ibanValue = /^[A-Z]{2}\s?\d{2}(?:\s?[A-Z0-9]){8,30}/i;

/**
 * VAT labels. Longer forms first so that "USt-IdNr." is taken whole. Not tax *numbers* (Steuernummer, SIREN,
 * GSTIN), which have no country prefix by design.
 */
const vatLabel = new RegExp(
  [
    'VAT\\s*(?:Reg(?:istration)?\\.?\\s*)?(?:ID|No|Nr|Number|Nummer)?\\.?',
    'USt[.\\-\\s]*Id[.\\-\\s]*(?:Nr|Nummer)?\\.?',
    'Umsatzsteuer[-\\s]*Identifikationsnummer',
    'UID(?:[-\\s]*Nr\\.?)?',
    "(?:N[°o]\\.?\\s*)?(?:de\\s+)?TVA(?:\\s*intra(?:communautaire)?)?",
    'BTW[-\\s]*(?:nummer|nr\\.?|id)?',
    'P(?:artita)?\\.?\\s*IVA',
  ]
    .map((alternative) => `(?<![\\p{L}])(?:${alternative})`)
    .join('|'),
  'giu',
);
/** A prefix of two letters (or none: then BR-CO-9 fails) and 2–13 more characters, spaces and dots allowed inside. */
const vatValue = /^[A-Z]{2,3}[\s.\-]?[0-9A-Z](?:[\s.\-]?[0-9A-Z+*]){1,14}|^\d(?:[\s.\-]?\d){7,13}/i;

/** Text of a Markdown page with HTML table cells kept apart (a cell boundary is a wide gap, like a new segment). */
const plainLines = (text: string): string[] =>
  text
    .replace(/<\/?(?:td|th)[^>]*>/gi, '  ')
    .replace(/<\/?(?:tr|table|thead|tbody|br)[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .split('\n');

/** The value after a label: up to a wide gap (the next column) or the end of the line. */
function valueAfter(line: string, labelEnd: number, shape: RegExp): string | null {
  const rest = line.slice(labelEnd).replace(/^[\s:#.\-]*/, '').split(/\s{2,}|\t|\|/)[0]!;
  const match = shape.exec(rest);
  return match ? match[0].trim() : null;
}

/** At least this many digits make an unprefixed value an identifier rather than an amount or a rate. */
const MIN_IDENTIFIER_DIGITS = 8;

function looksLikeVatId(value: string): boolean {
  if (/^[A-Z]{2}/i.test(value)) return /\d{2}/.test(value.replace(/[\s.\-]/g, ''));
  return value.replace(/\D/g, '').length >= MIN_IDENTIFIER_DIGITS && !/[.,]\d{2}$/.test(value);
}

export interface PrintedIdentifiers {
  ibans: string[];
  vat_ids: string[];
}

export function findIdentifiers(text: string): PrintedIdentifiers {
  const ibans: string[] = [];
  const vatIds: string[] = [];
  const keep = (list: string[], value: string | null) => {
    const compact = value?.replace(/[\s.\-]/g, '').toUpperCase();
    if (value && compact && !list.some((known) => known.replace(/[\s.\-]/g, '').toUpperCase() === compact)) list.push(value);
  };
  for (const line of plainLines(text)) {
    for (const m of line.matchAll(ibanLabel)) keep(ibans, valueAfter(line, (m.index ?? 0) + m[0].length, ibanValue));
    for (const m of line.matchAll(vatLabel)) {
      const value = valueAfter(line, (m.index ?? 0) + m[0].length, vatValue);
      // "VAT 19%" or "VAT 12.34": a tax amount or rate beside the label, not an identifier.
      if (value && looksLikeVatId(value)) keep(vatIds, value);
    }
  }
  return { ibans, vat_ids: vatIds };
}
