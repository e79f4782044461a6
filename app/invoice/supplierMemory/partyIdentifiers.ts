/**
 * Which identifiers printed on a page are the supplier's: VAT IDs and IBANs (findIdentifiers.ts), tax numbers and
 * GLNs, each found by its label, then set aside where the page prints it as the buyer's. An invoice prints both
 * parties' identifiers; only the supplier's may recognise the supplier on its next invoice (the buyer's is on every
 * invoice the analyst's company receives). An identifier is the buyer's when
 * - the nearest party heading above it in its column is a buyer heading ("Käufer", "Bill to", "Rechnungsempfänger" …:
 *   the extractor's label vocabulary, labels.ts), or
 * - it is printed in the block of the buyer the analyst confirmed (the buyer's name, and the lines under it).
 * Printed once as the buyer's, it is the buyer's wherever else the page prints it (a footer may repeat it).
 */
import type { Segment, TextLine } from '../layout.js';
import { labelPatterns } from '../labels.js';
import { findIdentifiers } from '../rules/findIdentifiers.js';
import { compactId } from '../identifiers.js';
import { compactText, overlaps } from './textForms.js';

/** How far above an identifier its party's heading may be (a heading, name, street, town, contact and ID lines). */
const PARTY_BLOCK_LINES = 8;
/** How many lines under the confirmed buyer's name still belong to its block (address, then its identifiers). */
const BUYER_BLOCK_LINES = 6;
/** A vertical gap over this many line heights ends a block (the footer is no part of the address block above it). */
const BLOCK_GAP_LINES = 3;
/** The shortest buyer name worth looking for (shorter ones match anywhere). */
const MIN_BUYER_NAME = 4;

/**
 * Tax numbers have no country prefix: only a label says one is printed. Receipts print the merchant's registration
 * and GST/SST numbers under their name ("Co. Reg. No: 725186-V", "GST ID: 000781500416", "ROC No. : (1072825-4)").
 */
const taxNumberLabel =
  /(?<![\p{L}])(?:Steuer[-\s]?(?:Nr|Nummer)|Steuernummer|St\.?[-\s]?Nr|Tax\s?(?:No|Number|Reg(?:istration)?\s?No)|SIRE[NT]|N°\s?SIRE[NT]|(?:GST|SST)\s?(?:ID|Reg(?:istration)?|No)?\.?(?:\s?No)?|Co(?:mpany)?\.?\s?(?:Reg(?:istration)?|No)\.?(?:\s?No)?|ROC(?:\s?No)?|Reg(?:istration)?\.?\s?No)\.?\s?[:;]?\s?\(?/giu;
const taxNumberValue = /^\d(?:[\s/.\-]?\d){6,15}/;
/** A GLN (GS1 Global Location Number) is 13 digits; ILN is its older name. */
const glnLabel = /(?<![\p{L}])(?:GLN|ILN)(?:[-\s]?Nr\.?)?\s?:?\s?/giu;
const glnValue = /^\d{13}(?!\d)/;

/**
 * A phone or fax number, by its label: a merchant's number is its own (a scanned receipt prints no VAT ID or IBAN, and
 * its name comes through OCR with noise, but its telephone line is digits). At least eight digits, compacted.
 */
const phoneLabel = /(?<![\p{L}])(?:Tel(?:ephone|efon)?|Phone|Fax|H\/P|Mobile|Hotline)\.?\s?(?:No)?\.?\s?[:;.]?[-\s]*/giu;
const phoneValue = /^\+?\(?\d(?:[\s\-/()]{0,2}\d){7,14}/;

/** A word run into an identifier on one line ("DE111111111 Steuernummer"): not part of it. */
const nextWord = /\s\p{L}{3}.*$/u;

export type PartyIdKind = 'vat' | 'iban' | 'tax' | 'gln' | 'phone';

export interface PrintedId {
  kind: PartyIdKind;
  /** Compacted: no spaces, dots, slashes or dashes, upper case. */
  value: string;
  line: number;
  /** The segment of the line that prints it. */
  segment: Segment;
}

function labelled(text: string, label: RegExp, value: RegExp): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(label)) {
    const hit = value.exec(text.slice((m.index ?? 0) + m[0].length));
    if (hit) found.push(hit[0]);
  }
  return found;
}

/** The segment of `line` that prints `value` (compacted), or the line's first. */
function segmentOf(line: TextLine, value: string): Segment {
  return line.segments.find((s) => compactId(s.text).includes(value)) ?? line.segments[0]!;
}

/** Every labelled identifier on the page, with the line and segment that print it. */
export function printedIdentifiers(lines: readonly TextLine[]): PrintedId[] {
  const out: PrintedId[] = [];
  lines.forEach((line, index) => {
    const ids = findIdentifiers(line.segments.map((s) => s.text).join('  '));
    const add = (kind: PartyIdKind, raw: string) => {
      const value = compactId(raw);
      if (value) out.push({ kind, value, line: index, segment: segmentOf(line, value) });
    };
    for (const v of ids.vat_ids) add('vat', v.replace(nextWord, ''));
    for (const v of ids.ibans) add('iban', v);
    for (const v of labelled(line.text, taxNumberLabel, taxNumberValue)) add('tax', v);
    for (const v of labelled(line.text, glnLabel, glnValue)) add('gln', v);
    for (const v of labelled(line.text, phoneLabel, phoneValue)) add('phone', v.replace(/\D/g, ''));
  });
  return out;
}

/**
 * An identifier's own label may say whose it is: an invoice addresses the buyer, so "Ihre GLN", "your VAT number",
 * "votre n° TVA", "Kunden-USt-IdNr." name the buyer's. Ship-to headings the field labels leave out name the buyer too.
 */
const buyersOwnLabel = /^\s*(?:ihre?|your|votre|vos|uw|customer'?s?|kunden)(?![\p{L}])[\s-]?/iu;
/** "Kunden-USt-IdNr.", "Kunden-GLN": the customer's identifier as one compound word. */
const kundenCompound = /^\s*kunden-?(?:ust|gln|steuer|iln)/iu;
const deliveryHeading = /^\s*(?:waren[-\s]?empfänger|consignee|livr[ée]\s+[àa]|afleveradres)(?![\p{L}])/iu;

const isHeading = (party: 'buyer' | 'seller', text: string): boolean =>
  labelPatterns[party].some((pattern) => pattern.test(text)) || (party === 'buyer' && deliveryHeading.test(text));

/** A heading of the buyer's (or a delivery party's) block: "Bill to", "Rechnungsempfänger", "Warenempfänger" … */
export const isBuyerHeading = (text: string): boolean => isHeading('buyer', text);

/** The lines of the identifier's block, from its own upwards: at most `limit` above it, none past a wide gap. */
function* blockAbove(lines: readonly TextLine[], from: number, limit: number): Generator<{ line: TextLine; d: number }> {
  for (let d = 0; d <= limit && from - d >= 0; d++) {
    const line = lines[from - d]!;
    if (d > 0) {
      const below = lines[from - d + 1]!;
      if (below.y - line.y > BLOCK_GAP_LINES * Math.max(line.height, below.height)) return;
    }
    yield { line, d };
  }
}

/** The party whose heading stands nearest above the identifier in its column (its own line first, left of it). */
function headingParty(lines: readonly TextLine[], id: PrintedId): 'buyer' | 'seller' | null {
  if (buyersOwnLabel.test(id.segment.text) || kundenCompound.test(id.segment.text)) return 'buyer';
  for (const { line, d } of blockAbove(lines, id.line, PARTY_BLOCK_LINES)) {
    const candidates = d === 0 ? line.segments.filter((s) => s.x1 <= id.segment.x1) : line.segments.filter((s) => overlaps(s, id.segment));
    for (const segment of candidates.reverse()) {
      if (isHeading('buyer', segment.text)) return 'buyer';
      if (isHeading('seller', segment.text)) return 'seller';
    }
  }
  return null;
}

/** Lines and columns of the confirmed buyer's block: where a line of its name is printed, and the lines under it. */
function inBuyerBlock(lines: readonly TextLine[], id: PrintedId, buyer: string | null): boolean {
  if (!buyer) return false;
  const parts = buyer.split('\n').map(compactText).filter((p) => p.length >= MIN_BUYER_NAME);
  if (parts.length === 0) return false;
  for (const { line, d } of blockAbove(lines, id.line, BUYER_BLOCK_LINES)) {
    for (const segment of line.segments) {
      if ((d === 0 || overlaps(segment, id.segment)) && parts.some((p) => compactText(segment.text).includes(p))) return true;
    }
  }
  return false;
}

/**
 * The page's identifiers that are not the buyer's, by kind, each once. `buyer`: the buyer's name as the analyst
 * confirmed it (when learning); without it only the headings tell.
 */
export function supplierIdentifiers(lines: readonly TextLine[], buyer: string | null = null): Record<PartyIdKind, string[]> {
  const printed = printedIdentifiers(lines);
  // A heading decides first (the page says whose block it is); the confirmed buyer's block only where none does.
  const isBuyers = (id: PrintedId): boolean => {
    const party = headingParty(lines, id);
    return party === 'buyer' || (party === null && inBuyerBlock(lines, id, buyer));
  };
  const buyers = new Set(printed.filter(isBuyers).map((id) => id.value));
  const out: Record<PartyIdKind, string[]> = { vat: [], iban: [], tax: [], gln: [], phone: [] };
  for (const id of printed) if (!buyers.has(id.value) && !out[id.kind].includes(id.value)) out[id.kind].push(id.value);
  return out;
}
