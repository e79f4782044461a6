/**
 * The invoice's parties: the seller (who issues it) and the buyer (who is billed), each as one name line.
 *
 * Labelled first: a name after or under "Sold by" / "From:" / "Émetteur" (seller), "Bill to" / "Rechnung an" /
 * "Facturé à" / "Customer" (buyer). Where no label names a party, the page's conventions do:
 * - the window envelope's sender line ("Muster GmbH · Hauptstr. 5 · 12345 Berlin" over the recipient's address) names
 *   the seller, and the address under it — the window — the buyer;
 * - running text names the seller with its legal form ("… are sold by Amazon Web Services, Inc.");
 * - the seller's own web or mail domain spells its name ("azure-interior.com" → "Azure Interior");
 * - the company legal line names the seller ("NETPRESSE" over "Siège social : …", "Free SAS au capital de …");
 * - the footer: a name with its legal form on, or over, the line with the company's VAT ID or register entry;
 * - a name carrying a legal form ("Coolblue B.V.", "QualityHosting AG - Uferweg 40-42 - …");
 * - address blocks (a name line over street / postcode lines) above the item table: the letterhead's block is the
 *   seller's, the next one (the envelope window) the buyer's;
 * - last, the letterhead: the first name-like line of the page.
 * Names only: attention prefixes, legal notices ("au capital de …"), addresses after a dash and a trailing document
 * title ("Amazon Web Services Invoice") are cut off.
 */
import type { Word } from '../model/extraction.js';
import type { Segment, TextLine } from './layout.js';
import { legalForm, looksLikeAddress, nameTokens, partyName } from './partyNames.js';
import { addressBlocks, domainNamed, footerNamed, legalFormNamed, legalLineNamed, letterhead, senderLineNamed, soldByNamed, type NameCandidate } from './unlabelledParties.js';

export interface PartyValue {
  value: string;
  text: string;
  words: Word[];
  label: string | null;
}

/** A seller or buyer label where a segment starts: its line and segment index, the label, the text after it. */
export interface PartyLabelHit {
  line: number;
  segment: number;
  label: string;
  rest: string;
  restWords: Word[];
}

export interface PartyInput {
  lines: TextLine[];
  /** Label hits, best first. */
  sellerHits: PartyLabelHit[];
  buyerHits: PartyLabelHit[];
  /** `line:segment` keys of segments that start with any field label. */
  labelled: Set<string>;
  /** The first line of the invoice body (the item table's header); address blocks sit above it. */
  bodyStart: number;
}

/**
 * Keys of a key-value row that give a party's name, under a party heading laid out as a form
 * ("Verkäufer" over "Nummer: 549910", "Name: MUSTER GmbH", "Anschrift: …").
 */
const nameKey = /^(?:name|firma|firmenname|company(?:\s+name)?|name\s+of\s+company|nom|raison\s+sociale|d[ée]nomination|raz[oó]n\s+social|nombre|denominaci[oó]n|ragione\s+sociale|denominazione|naam|bedrijfsnaam)\s*:?$/iu;
/** How many rows under a party heading its key-value form may run. */
const FORM_ROWS = 8;

/** The words of `text` that carry `name` (all of them where none matches on its own). */
function nameWords(name: string, words: Word[]): Word[] {
  const picked = words.filter((w) => name.includes(w.text.replace(/[,:;]$/, '')));
  return picked.length > 0 ? picked : words;
}

const valueOf = (c: NameCandidate, lines: TextLine[]): PartyValue =>
  withWrappedName({ value: c.name, text: c.segment.text, words: nameWords(c.name, c.segment.words), label: null }, lines, c.line, c.segment);

/** The name after or under a party label: the rest of the segment, the line's next segments, or up to 3 lines below. */
function readLabelled(hit: PartyLabelHit, lines: TextLine[], labelled: Set<string>): PartyValue | null {
  const line = lines[hit.line]!;
  const fromForm = hit.rest ? null : readNameRow(hit, lines, labelled);
  if (fromForm) return fromForm;
  const candidates: { text: string; words: Word[] }[] = [];
  if (hit.rest) candidates.push({ text: hit.rest, words: hit.restWords });
  for (let s = hit.segment + 1; s < line.segments.length && !labelled.has(`${hit.line}:${s}`); s++) candidates.push(line.segments[s]!);
  const labelSegment = line.segments[hit.segment]!;
  const below = new Map<(typeof candidates)[number], number>();
  for (let l = hit.line + 1; l <= hit.line + 3 + FORM_KEY_ROWS && l < lines.length; l++) {
    const s = lines[l]!.segments.findIndex((seg) => Math.min(seg.x2, labelSegment.x2 + 0.5 * (labelSegment.x2 - labelSegment.x1)) - Math.max(seg.x1, labelSegment.x1) > 0);
    if (s < 0) continue;
    // The next label under this one ends its value ("Bill to" over "Ship to").
    if (labelled.has(`${l}:${s}`)) break;
    // A key-value row ("Nummer : 12345676", "USt-IdNr: DE…") under a party heading is the party's data, not its name.
    if (isKeyValueRow(lines[l]!, s)) continue;
    if (l > hit.line + 3 + keyRowsBetween(lines, hit.line, l)) break;
    candidates.push(lines[l]!.segments[s]!);
    below.set(lines[l]!.segments[s]!, l);
  }
  for (const candidate of candidates) {
    const name = partyName(candidate.text);
    if (!name) continue;
    const value = { value: name, text: candidate.text, words: nameWords(name, candidate.words), label: hit.label };
    const l = below.get(candidate);
    return l === undefined ? value : withWrappedName(value, lines, l, candidate as Segment);
  }
  return null;
}

/** How many key-value rows a party heading's block may open with before its name ("Nummer : …", "GLN …"). */
const FORM_KEY_ROWS = 2;

/** A segment that is a key of a key-value row: its line continues with ": value", or it reads "Key : value". */
export function isKeyValueRow(line: TextLine, s: number): boolean {
  return /:\s*$/.test(line.segments[s]!.text) || /^\s*:/.test(line.segments[s + 1]?.text ?? '');
}

/** A key-value row in one segment or split at its colon ("Kunden-Nr. : 009420"); an attention line is none. */
const keyValueText = /^[\p{L}][\p{L}\d .\/-]{0,30}?:\s*\S/u;
const isAnyKeyRow = (line: TextLine, s: number): boolean => isKeyValueRow(line, s) || (keyValueText.test(line.segments[s]!.text) && !partyName(line.segments[s]!.text));

const keyRowsBetween = (lines: TextLine[], from: number, to: number): number => {
  let n = 0;
  for (let l = from + 1; l < to; l++) if (lines[l]!.segments.some((_, s) => isAnyKeyRow(lines[l]!, s))) n++;
  return Math.min(n, FORM_KEY_ROWS);
};

/**
 * A long company name wraps before its legal form: "MVM Musterhafter" over "Versicherungsverein Musterstadt a.G.".
 * The next line of the block, aligned with the name, carrying a legal form at its end and no address, continues it
 * (only where the name itself has no legal form yet).
 */
export function withWrappedName(value: PartyValue, lines: TextLine[], l: number, segment: Segment): PartyValue {
  if (legalForm.test(value.value)) return value;
  const next = lines[l + 1];
  const line = lines[l]!;
  if (!next || next.y - (line.y + line.height) > WRAP_GAP * line.height) return value;
  const charWidth = (segment.x2 - segment.x1) / Math.max(1, segment.text.length);
  const continued = next.segments.find((seg) => Math.abs(seg.x1 - segment.x1) <= 2 * charWidth);
  if (!continued || looksLikeAddress(continued.text)) return value;
  const rest = partyName(continued.text);
  const form = rest ? legalForm.exec(rest) : null;
  if (!rest || !form || form.index + form[0].length < rest.length - 1) return value;
  return { ...value, value: `${value.value}\n${rest}`, text: `${value.text}\n${continued.text}`, words: [...value.words, ...continued.words] };
}

/** A wrapped name's second line sits at most this many line heights under the first. */
const WRAP_GAP = 1;

/** A heading alone on its line over a key-value form: the value of its name row. */
function readNameRow(hit: PartyLabelHit, lines: TextLine[], labelled: Set<string>): PartyValue | null {
  const heading = lines[hit.line]!.segments[hit.segment]!;
  const charWidth = (heading.x2 - heading.x1) / Math.max(1, heading.text.length);
  for (let l = hit.line + 1; l <= hit.line + FORM_ROWS && l < lines.length; l++) {
    const segments = lines[l]!.segments;
    const key = segments[0];
    if (!key) continue;
    // The form ends at the next heading (a label alone on its line) or where rows start left of the heading.
    if ((labelled.has(`${l}:0`) && segments.length === 1) || key.x1 < heading.x1 - 2 * charWidth) break;
    if (!nameKey.test(key.text.trim()) || !segments[1]) continue;
    const value = segments[1];
    const name = partyName(value.text);
    if (!name) continue;
    // A long name wraps around its key's row: its first part on an unkeyed line just above, in the value's column,
    // nearer to this row than to the row above it.
    const above = lines[l - 1];
    const aboveThat = lines[l - 2];
    const first = above && above.segments.length === 1 && l - 1 > hit.line ? above.segments[0]! : null;
    const wrapped =
      first && Math.abs(first.x1 - value.x1) <= 2 * charWidth && aboveThat && lines[l]!.y - above!.y < above!.y - aboveThat.y ? partyName(first.text) : null;
    if (wrapped) return { value: `${wrapped}\n${name}`, text: `${first!.text}\n${value.text}`, words: [...first!.words, ...nameWords(name, value.words)], label: hit.label };
    return { value: name, text: value.text, words: nameWords(name, value.words), label: hit.label };
  }
  return null;
}

/** The label's line and the lines under it that continue its block: aligned with it, no wide gap, no other label. */
function labelledBlockLines(hit: PartyLabelHit, lines: TextLine[], labelled: Set<string>): number[] {
  const label = lines[hit.line]!.segments[hit.segment]!;
  const charWidth = (label.x2 - label.x1) / Math.max(1, label.text.length);
  const block = [hit.line];
  let previous = lines[hit.line]!;
  for (let l = hit.line + 1; l < lines.length && l <= hit.line + 6; l++) {
    const next = lines[l]!;
    if (next.y - (previous.y + previous.height) > 1.5 * Math.max(previous.height, next.height)) break;
    const under = next.segments.findIndex((seg) => Math.abs(seg.x1 - label.x1) <= 2 * charWidth || (seg.x1 >= label.x1 && seg.x1 < label.x2));
    // A line of the column beside it (OCR sets "Invoice details" a little lower than "Billed to") does not end the block.
    if (under < 0) continue;
    if (labelled.has(`${l}:${under}`)) break;
    block.push(l);
    previous = next;
  }
  return block;
}

/** The block names the seller: its words, its name, or a department of it ("Free Service Abonné" of "Free SAS"). */
function sameParty(candidate: NameCandidate, seller: PartyValue): boolean {
  if (candidate.segment.words.some((w) => seller.words.includes(w))) return true;
  const sellerTokens = nameTokens(seller.value);
  const tokens = nameTokens(candidate.name);
  return sellerTokens.length > 0 && sellerTokens.every((t, i) => tokens[i] === t);
}

export function findParties(input: PartyInput): { seller: PartyValue | null; buyer: PartyValue | null } {
  const { lines, labelled, bodyStart } = input;
  const firstNamed = (hits: PartyLabelHit[]): PartyValue | null => {
    for (const hit of hits) {
      const value = readLabelled(hit, lines, labelled);
      if (value) return value;
    }
    return null;
  };
  let buyer = firstNamed(input.buyerHits);
  let seller = firstNamed(input.sellerHits);

  // Lines of a labelled buyer's block are not the seller's (its mail address, its company name).
  const buyerLines = new Set(input.buyerHits.flatMap((hit) => labelledBlockLines(hit, lines, labelled)));
  const blocks = addressBlocks(lines, labelled, bodyStart).filter((b) => !b.lines.some((l) => buyerLines.has(l)));

  // The window envelope's sender line names the seller; the address under it is the buyer's (the window).
  const sender = senderLineNamed(lines, labelled, bodyStart);
  if (!seller && sender) seller = valueOf(sender, lines);
  if (!buyer && sender) {
    const window = blocks.find((b) => b.lines[0]! > sender.line && !(seller && sameParty(b.candidate, seller)));
    if (window) buyer = valueOf(window.candidate, lines);
  }
  if (!seller) {
    // With two address blocks or more, the later ones are the window's (the buyer's, a delivery address): their
    // names, mail domains and legal forms are not the seller's.
    const notSeller = new Set([...buyerLines, ...blocks.slice(1).flatMap((b) => b.lines)]);
    const found =
      soldByNamed(lines, notSeller) ??
      domainNamed(lines, labelled, notSeller) ??
      legalLineNamed(lines, labelled, notSeller) ??
      footerNamed(lines, labelled, notSeller) ??
      legalFormNamed(lines, labelled, notSeller) ??
      blocks[0]?.candidate ??
      letterhead(lines, labelled, notSeller, bodyStart);
    if (found) seller = valueOf(found, lines);
  }
  if (!buyer) {
    // The window's block: with two blocks or more the first is the letterhead's, whoever it names.
    const block = (blocks.length >= 2 ? blocks.slice(1) : blocks).find((b) => !(seller && sameParty(b.candidate, seller)));
    if (block) buyer = valueOf(block.candidate, lines);
  }
  return { seller, buyer };
}
