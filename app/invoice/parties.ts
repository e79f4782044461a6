/**
 * The invoice's parties: the seller (who issues it) and the buyer (who is billed), each as one name line.
 *
 * Labelled first: a name after or under "Sold by" / "From:" / "Émetteur" (seller), "Bill to" / "Rechnung an" /
 * "Facturé à" / "Customer" (buyer). Where no label names a party, the page's conventions do:
 * - running text names the seller with its legal form ("… are sold by Amazon Web Services, Inc.");
 * - the seller's own web or mail domain spells its name ("azure-interior.com" → "Azure Interior");
 * - the company legal line names the seller ("NETPRESSE" over "Siège social : …", "Free SAS au capital de …");
 * - a name carrying a legal form ("Coolblue B.V.", "QualityHosting AG - Uferweg 40-42 - …");
 * - address blocks (a name line over street / postcode lines) above the item table: the letterhead's block is the
 *   seller's, the next one (the envelope window) the buyer's;
 * - last, the letterhead: the first name-like line of the page.
 * Names only: attention prefixes, legal notices ("au capital de …"), addresses after a dash and a trailing document
 * title ("Amazon Web Services Invoice") are cut off.
 */
import type { Word } from '../model/extraction.js';
import type { TextLine } from './layout.js';
import { nameTokens, partyName } from './partyNames.js';
import { addressBlocks, domainNamed, legalFormNamed, legalLineNamed, letterhead, soldByNamed, type NameCandidate } from './unlabelledParties.js';

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

const valueOf = (c: NameCandidate): PartyValue => ({ value: c.name, text: c.segment.text, words: nameWords(c.name, c.segment.words), label: null });

/** The name after or under a party label: the rest of the segment, the line's next segments, or up to 3 lines below. */
function readLabelled(hit: PartyLabelHit, lines: TextLine[], labelled: Set<string>): PartyValue | null {
  const line = lines[hit.line]!;
  const fromForm = hit.rest ? null : readNameRow(hit, lines, labelled);
  if (fromForm) return fromForm;
  const candidates: { text: string; words: Word[] }[] = [];
  if (hit.rest) candidates.push({ text: hit.rest, words: hit.restWords });
  for (let s = hit.segment + 1; s < line.segments.length && !labelled.has(`${hit.line}:${s}`); s++) candidates.push(line.segments[s]!);
  const labelSegment = line.segments[hit.segment]!;
  for (let l = hit.line + 1; l <= hit.line + 3 && l < lines.length; l++) {
    const s = lines[l]!.segments.findIndex((seg) => Math.min(seg.x2, labelSegment.x2 + 0.5 * (labelSegment.x2 - labelSegment.x1)) - Math.max(seg.x1, labelSegment.x1) > 0);
    if (s < 0) continue;
    // The next label under this one ends its value ("Bill to" over "Ship to").
    if (labelled.has(`${l}:${s}`)) break;
    candidates.push(lines[l]!.segments[s]!);
  }
  for (const candidate of candidates) {
    const name = partyName(candidate.text);
    if (!name) continue;
    return { value: name, text: candidate.text, words: nameWords(name, candidate.words), label: hit.label };
  }
  return null;
}

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

  if (!seller) {
    // With two address blocks or more, the later ones are the window's (the buyer's, a delivery address): their
    // names, mail domains and legal forms are not the seller's.
    const notSeller = new Set([...buyerLines, ...blocks.slice(1).flatMap((b) => b.lines)]);
    const found =
      soldByNamed(lines, notSeller) ??
      domainNamed(lines, labelled, notSeller) ??
      legalLineNamed(lines, labelled, notSeller) ??
      legalFormNamed(lines, labelled, notSeller) ??
      blocks[0]?.candidate ??
      letterhead(lines, labelled, notSeller, bodyStart);
    if (found) seller = valueOf(found);
  }
  if (!buyer) {
    // The window's block: with two blocks or more the first is the letterhead's, whoever it names.
    const block = (blocks.length >= 2 ? blocks.slice(1) : blocks).find((b) => !(seller && sameParty(b.candidate, seller)));
    if (block) buyer = valueOf(block.candidate);
  }
  return { seller, buyer };
}
