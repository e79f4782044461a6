/**
 * The payment fields as a page prints them, from its text: an IBAN is any run that passes the IBAN check (country,
 * length, mod 97) — label or not; a VAT identifier is a run in its country's format; the buyer's is the one printed
 * after a customer cue ("your VAT no.", "Kunden-USt-IdNr."), the seller's the first other. BIC, payment terms,
 * purchase order and contract references are read after their labels (English, German, French), and so are the
 * routing terms a page labels: the buyer reference or Leitweg-ID (BT-10) and the seller's contact — person, telephone,
 * e-mail (BT-41..43). A page rarely labels the parties' city, post code or electronic address apart from the address
 * block, so those come from the XML or the reviewer.
 */
import { bicProblem, compactId, ibanProblem, vatIdProblem } from '../invoice/identifiers.js';
import { emptyPaymentValues, type PaymentValues } from './reviewedInvoice.js';

/** An IBAN as printed: country, check digits, then the account in groups of up to four (spaces allowed). */
const IBAN_RUN = /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{1,4}){3,8}\b/g;
/** A VAT identifier as printed: a prefix then digits and letters, spaces or dots allowed between groups. */
const VAT_RUN = /\b(?:[A-Z]{2}|CHE)[ ]?[0-9A-Z][0-9A-Z .]{6,16}[0-9A-Z]\b/g;
/** Words that mark the buyer's identifier, a few characters before it on its line. */
const BUYER_CUE = /\b(your|customer|client|buyer|kunde|kunden|ihre|acheteur)\b/i;
/** How far before an identifier on its line a buyer cue counts. */
const CUE_REACH = 40;

/** A reference as printed: letters, digits and separators, with at least one digit (a word after a label is no reference). */
const REFERENCE = '([A-Z0-9][A-Z0-9\\-/._]{0,34}\\d[A-Z0-9\\-/._]{0,34})';

// Separators after a label are written `[ \t]*(?:[:.|][ \t|]*)?`, not `[ \t]*[:.]?[ \t|]*`: two runs that can take the
// same spaces backtrack quadratically on a long run of them (testing/regexBacktracking.test.ts).
/** A person's name after a contact label: starts with a capital, runs to the end of the cell or line. */
const PERSON = '([A-ZÄÖÜÉ][^\\n|:<@]{1,59})';
/** A telephone number as printed: an optional +, then digits with spaces, brackets, slashes, dots or dashes. */
const PHONE = '(\\+?[0-9][0-9 ()/.\\-]{4,24})';
/** An e-mail address: a local part, @, a domain (checked for a dot below). */
const EMAIL = '([^\\s|<>@:]{1,64}@[^\\s|<>@:]{3,253})';

type LabelledKey = 'bic' | 'payment_terms' | 'purchase_order' | 'contract' | 'buyer_reference' | 'seller_contact_name' | 'seller_contact_phone' | 'seller_contact_email';

const labelled: { key: LabelledKey; label: RegExp }[] = [
  { key: 'bic', label: /\b(?:BIC|SWIFT)(?:[ -]?code)?\s*(?:[:.]\s*)?([A-Z0-9 ]{8,14})/ },
  { key: 'payment_terms', label: /\b(?:payment terms|terms of payment|zahlungsbedingungen|zahlungsziel|conditions de paiement)[ \t]*(?:[:.|][ \t|]*)?([^\s|#<][^\n|<]{2,119})/i },
  // "PO" only in capitals and followed by a colon or number sign, so "Position" never is one.
  { key: 'purchase_order', label: new RegExp(`(?:\\b(?:[Pp]urchase [Oo]rder|[Oo]rder (?:[Nn]o\\.?|[Nn]umber|[Rr]ef(?:erence)?)|[Bb]estell(?:nummer|ung|-?[Nn]r\\.?)|[Ii]hre [Bb]estellung|[Bb]on de commande)|\\bPO(?: ?(?:[Nn]o\\.?|#|[Nn]umber))?(?=[ \\t]*[:#]))[ \\t]*(?:[:.#|][ \\t|]*)?${REFERENCE}`) },
  { key: 'contract', label: new RegExp(`\\b(?:[Cc]ontract(?: [Nn]o\\.?| [Nn]umber| [Rr]ef(?:erence)?)?|[Vv]ertrags?(?:nummer|-?[Nn]r\\.?)?|[Cc]ontrat)[ \\t]*(?:[:.#|][ \\t|]*)?${REFERENCE}`) },
  // BT-10: the Leitweg-ID German public buyers route by, or the buyer's own reference.
  { key: 'buyer_reference', label: new RegExp(`\\b(?:Leitweg-?ID|[Bb]uyer [Rr]eference|K[äa]uferreferenz|[Rr][ée]f[ée]rence acheteur)[ \\t]*(?:[:.#|][ \\t|]*)?${REFERENCE}`) },
  // "Contact" alone is also a heading ("Contact us"): only with a colon or a cell boundary after it.
  { key: 'seller_contact_name', label: new RegExp(`\\b(?:Ansprechpartner(?:in)?|Ansprechperson|Sachbearbeiter(?:in)?|[Cc]ontact person|[Ii]nterlocuteur|(?:[Cc]ontact|Kontakt)(?=[ \\t]*[:|]))[ \\t]*(?:[:.|][ \\t|]*)?${PERSON}`) },
  { key: 'seller_contact_phone', label: new RegExp(`(?:\\bTel(?:efon)?\\.?|\\b[Pp]hone|\\bT[ée]l[ée]phone|\\bT[ée]l\\.|\\bFon)[ \\t]*(?:[:.|][ \\t|]*)?${PHONE}`) },
  { key: 'seller_contact_email', label: new RegExp(`(?:\\bE-?[Mm]ail|\\bCourriel|\\bMail)[ \\t]*(?:[:.|][ \\t|]*)?${EMAIL}`) },
];

/** The value read after a label, cleaned for its kind; null where it is not one (a phone of too few digits, an address without a domain). */
function cleanLabelled(key: LabelledKey, value: string): string | null {
  if (key === 'bic') return bicProblem(value) === null ? compactId(value) : null;
  if (key === 'seller_contact_phone') {
    const phone = value.replace(/[ ()/.\-]+$/, '');
    return phone.replace(/\D/g, '').length >= MIN_PHONE_DIGITS ? phone : null;
  }
  if (key === 'seller_contact_email') {
    const email = value.replace(/[.,;]+$/, '');
    return /\.[A-Za-z]{2,}$/.test(email) ? email : null;
  }
  if (key === 'seller_contact_name') return value.split(/ {2,}|\t/)[0]!.trim() || null;
  return value;
}

/** Fewer digits than this is no telephone number (a date or a page number after "Tel." in a table). */
const MIN_PHONE_DIGITS = 6;

/** The page's text with HTML table markup and Markdown heading marks turned into separators, as a reader sees it. */
const plainText = (text: string): string => text.replace(/<[^>]+>/g, ' | ').replace(/^#+\s*/gm, '').replace(/(?: \| )+/g, ' | ');

function vatIds(text: string): { id: string; buyer: boolean }[] {
  const found: { id: string; buyer: boolean }[] = [];
  for (const line of text.split('\n')) {
    for (const m of line.matchAll(VAT_RUN)) {
      const id = compactId(m[0]);
      if (vatIdProblem(id) !== null || ibanProblem(id) === null || found.some((f) => f.id === id)) continue;
      const before = line.slice(Math.max(0, m.index - CUE_REACH), m.index);
      found.push({ id, buyer: BUYER_CUE.test(before) });
    }
  }
  return found;
}

export function paymentFieldsFromText(markdown: string): PaymentValues {
  const text = plainText(markdown);
  const values = emptyPaymentValues();
  for (const m of text.matchAll(IBAN_RUN)) {
    if (ibanProblem(m[0]) === null) {
      values.iban = compactId(m[0]);
      break;
    }
  }
  const ids = vatIds(text);
  values.seller_vat_id = ids.find((v) => !v.buyer)?.id ?? null;
  values.buyer_vat_id = ids.find((v) => v.buyer && v.id !== values.seller_vat_id)?.id ?? null;
  for (const { key, label } of labelled) {
    const value = label.exec(text)?.[1]?.replace(/[\s|]+$/, '').trim();
    const clean = value ? cleanLabelled(key, value) : null;
    if (clean) values[key] = clean;
  }
  return values;
}
