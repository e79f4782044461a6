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
import type { Segment, TextLine } from './layout.js';

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

export const legalForm =
  /(?<![\p{L}])(?:inc\.?|ltd\.?|limited|llc|gmbh|ag|kg|ohg|e\.\s?k\.|b\.v\.?|bv|n\.v\.?|s\.a\.?|sas|sarl|s\.a\.r\.l\.?|eurl|s\.r\.l\.?|s\.p\.a\.?|pvt\.?|private\s+limited|plc|corp\.?|co\.|spółka(?:\s+akcyjna)?|sp\.\s*z\s*o\.o\.|a\.\s?g\.|e\.\s?v\.|e\.\s?g\.|gbr|kgaa|ug|s\.l\.|s\.l\.u\.|s\.n\.c\.|s\.a\.s\.)(?![\p{L}])/iu;

/** A further legal form right after one ("Pvt. Ltd.", "GmbH & Co. KG"). */
const legalFormRun = new RegExp(`^[\\s,&]*(?:${legalForm.source})`, 'iu');

/** Words that start a legal notice after a company's name: the name is what comes before. */
const legalNotice =
  /(?:^|[\s,;–—-]+)(?:au\s+capital\s+(?:social\s+)?de|capital\s+social|with\s+(?:a\s+)?(?:share\s+)?capital|mit\s+sitz|sitz\s*(?:der\s+gesellschaft\s*)?:|si[èe]ge\s+social|registered\s+(?:office|in)|regd\.?\s+office|rcs\b|siret\b|siren\b|hrb\b|amtsgericht|registergericht|handelsregister|kvk\b|ust-?id|vat\s+(?:no|reg)|n°\s+de\s+tva|cin\b|gstin\b)/iu;

/** A line that is a company's legal notice (the line under the company's name in a footer). */
const legalNoticeLine =
  /^(?:si[èe]ge\s+social|registered\s+office|regd\.?\s+office|corporate\s+office|sitz\s+der\s+gesellschaft|gesch[äa]ftsf[üu]hr(?:er|ung)|handelsregister|amtsgericht|registergericht|(?:sarl|sas|sa|eurl|sasu)\s+au\s+capital)/iu;

const attentionPrefix = /^(?:attn\.?|attention|c\/o|t\.?\s?a\.?\s?v\.?|z\.\s?hd\.?|zu\s+h[äa]nden(?:\s+von)?|[àa]\s+l[’']attention\s+de|name|nom)(?:\s*[:.])?\s+/iu;
const trailingTitle = /\s+(?:tax\s+)?(?:invoice|receipt|rechnung|gutschrift|facture|factuur|faktura)\.?$/iu;
const documentTitle = /^(?:(?:copy|kopie|copie|duplicate|duplikat|original|tax|retail|commercial|proforma|pro-forma)\s+)*(?:invoices?|bill|receipt|payment\s+receipt|rechnung|gutschrift|quittung|facture|avoir|re[çc]u|factuur|faktura|credit\s+note)(?:\s*\/\s*bill)?[.:]?$/iu;

/** A salutation or form of address alone on its line ("Firma", "Herrn", "Madame") heads an address; the name follows. */
const salutation = /^(?:firma|herrn?|frau|familie|mr\.?|mrs\.?|ms\.?|messrs\.?|madame|monsieur|mme\.?|m\.|sr\.?|sra\.?|sig\.?(?:ra)?|spett\.?(?:le)?|dhr\.?|mevr\.?)$/iu;

/**
 * Keys of a key-value row that give a party's name, under a party heading laid out as a form
 * ("Verkäufer" over "Nummer: 549910", "Name: MUSTER GmbH", "Anschrift: …").
 */
const nameKey = /^(?:name|firma|firmenname|company(?:\s+name)?|name\s+of\s+company|nom|raison\s+sociale|d[ée]nomination|raz[oó]n\s+social|nombre|denominaci[oó]n|ragione\s+sociale|denominazione|naam|bedrijfsnaam)\s*:?$/iu;
/** How many rows under a party heading its key-value form may run. */
const FORM_ROWS = 8;

const digitCount = (text: string): number => (text.match(/\d/g) ?? []).length;
const letterCount = (text: string): number => (text.match(/\p{L}/gu) ?? []).length;

/** A party's name: letters, not an identifier, an e-mail or web address, a label, a sentence or a document title. */
export function looksLikeName(text: string): boolean {
  const t = text.trim();
  if (!/\p{L}{2,}/u.test(t) || /^[([]/.test(t) || /@|www\.|https?:|\.(?:com|de|fr|nl|org|net|io)\b/i.test(t)) return false;
  // A colon makes a label and its value ("Siège social: 16 rue …"); marks like "»" or "|" are OCR noise or rules.
  if (/^(?:address|adresse|anschrift|adres)\b/i.test(t) || /:/.test(t) || /[»«©®™~^*=<>{}\\|¬§]/.test(t) || documentTitle.test(t)) return false;
  // An identifier ("SCONL0303006280999", "FO10479674") or a number with a word is no name.
  if (digitCount(t) > letterCount(t) || t.split(/\s+/).some((token) => /\p{L}/u.test(token) && digitCount(token) >= 5)) return false;
  // A sentence ("Dat betaal ik zelf wel.", "This invoice is for …") is a slogan or a note.
  const words = t.split(/\s+/);
  if (words.length > 8 || (words.length >= 3 && /[.!?]$/.test(t) && !legalForm.test(t))) return false;
  return true;
}

/** Postcode and place, a street and number, or a street word: a line of an address. */
export function looksLikeAddress(text: string): boolean {
  const t = text.trim();
  if (/:/.test(t) && !/^\s*(?:adresse|address|anschrift)/i.test(t)) return false;
  return (
    /(?:^|\s)(?:[A-Z]{1,2}-)?\d{4,5}(?:\s?[A-Z]{2})?\s+\p{Lu}/u.test(t) ||
    /\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b/.test(t) ||
    /\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b/.test(t) ||
    /^\d+(?:\/\d+)?[A-Za-z]?,?\s+\p{L}/u.test(t) ||
    /\p{L}{3,}\.?\s+\d+[a-z]?(?:\s?-\s?\d+[a-z]?)?,?$/u.test(t) ||
    /(?<![\p{L}])(?:street|st\.|road|rd\.|avenue|ave\.?|lane|blvd|boulevard|straße|strasse|str\.|weg|allee|platz|gasse|rue|chemin|all[ée]e|laan|straat|plein|p\.?\s?o\.?\s+box|postfach|cedex|bp\s+\d)(?![\p{L}])/iu.test(t)
  );
}

/**
 * The name in a name line: attention prefix, legal notice, an address after a dash ("QualityHosting AG - Uferweg
 * 40-42 - …") and a trailing document title cut off. Null when nothing name-like is left.
 */
export function partyName(text: string): string | null {
  // A key of a key-value row ("Nummer:") is no name.
  if (documentTitle.test(text.trim()) || salutation.test(text.trim()) || /:\s*$/.test(text)) return null;
  let name = text.trim().replace(attentionPrefix, '');
  const notice = legalNotice.exec(name);
  if (notice && notice.index > 0) name = name.slice(0, notice.index);
  const parts = name.split(/\s+[-–|·•]\s+/);
  if (parts.length > 1 && parts.slice(1).some((p) => looksLikeAddress(p))) name = parts[0]!;
  name = name.replace(trailingTitle, '').replace(/[\s,:;–—-]+$/u, '').trim();
  // A legal form alone ("Inc.", "Sarl") names nobody; two-letter fragments ("ee ae") are OCR noise, capitals aside ("HP").
  const bare = name.replace(new RegExp(legalForm.source, 'giu'), ' ');
  if (!/\p{L}{3,}/u.test(bare) && !/^\p{Lu}{2}$/u.test(bare.trim())) return null;
  return name && looksLikeName(name) ? name : null;
}

/** Letters and digits only, lowercase, no legal form: how a name compares with a web domain or another name. */
export function compactName(name: string): string {
  return name
    .toLowerCase()
    .replace(new RegExp(legalForm.source, 'giu'), ' ')
    .replace(/[^\p{L}\d]+/gu, '');
}

/** Mail services and placeholders whose domain names nobody's company. */
const genericDomains = /^(?:gmail|googlemail|yahoo|hotmail|outlook|live|icloud|me|gmx|web|aol|mail|orange|free|wanadoo|t-online|example|test|fake)$/i;

/** The registrable names of the web sites and mail domains on the page ("www.azure-interior.com" → "azure-interior"). */
function pageDomains(lines: TextLine[], skip: Set<number>): Set<string> {
  const domains = new Set<string>();
  lines.forEach((line, l) => {
    if (skip.has(l)) return;
    for (const m of line.text.matchAll(/(?:@|https?:\/\/|www\.)((?:[a-z\d-]+\.)*[a-z\d-]+)\.[a-z]{2,6}\b/gi)) {
      const name = m[1]!.split('.').pop()!.toLowerCase();
      if (name.length >= 3 && !genericDomains.test(name)) domains.add(name.replace(/-/g, ''));
    }
  });
  return domains;
}

interface NameCandidate {
  line: number;
  segment: Segment;
  name: string;
}

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

interface AddressBlock {
  /** Lines of the block, the name line first. */
  lines: number[];
  candidate: NameCandidate;
}

/**
 * Address blocks above the body: a name line with, left-aligned (or centred) under it and without a wide gap, lines of which one
 * is an address. Top to bottom.
 */
function addressBlocks(lines: TextLine[], labelled: Set<string>, bodyStart: number): AddressBlock[] {
  const blocks: AddressBlock[] = [];
  const used = new Set<string>();
  for (let l = 0; l < Math.min(bodyStart, lines.length); l++) {
    lines[l]!.segments.forEach((segment, s) => {
      if (used.has(`${l}:${s}`) || labelled.has(`${l}:${s}`) || looksLikeAddress(segment.text)) return;
      const name = partyName(segment.text);
      if (!name) return;
      const charWidth = (segment.x2 - segment.x1) / Math.max(1, segment.text.length);
      const members = [l];
      const keys = [`${l}:${s}`];
      let previous = lines[l]!;
      let address = false;
      for (let k = l + 1; k < lines.length && k <= l + 5; k++) {
        const next = lines[k]!;
        if (next.y - (previous.y + previous.height) > 1.5 * Math.max(previous.height, next.height)) break;
        // Left-aligned, or centred under a centred letterhead.
        const under = next.segments.findIndex(
          (seg) => Math.abs(seg.x1 - segment.x1) <= 2 * charWidth || Math.abs(seg.x1 + seg.x2 - segment.x1 - segment.x2) <= 4 * charWidth,
        );
        if (under < 0 || labelled.has(`${k}:${under}`)) break;
        members.push(k);
        keys.push(`${k}:${under}`);
        if (looksLikeAddress(next.segments[under]!.text)) address = true;
        previous = next;
      }
      if (!address) return;
      for (const key of keys) used.add(key);
      blocks.push({ lines: members, candidate: { line: l, segment, name } });
    });
  }
  return blocks.sort((a, b) => a.lines[0]! - b.lines[0]! || a.candidate.segment.x1 - b.candidate.segment.x1);
}

/** "All services are sold by Amazon Web Services, Inc.": a company with its legal form after "sold by" in running text. */
function soldByNamed(lines: TextLine[], skip: Set<number>): NameCandidate | null {
  for (const [l, line] of lines.entries()) {
    if (skip.has(l)) continue;
    for (const segment of line.segments) {
      const m = /(?<![\p{L}])(?:sold|issued|provided|supplied|invoiced|operated|verkauft|geliefert|vendu|fourni|factur[ée])\s+(?:by|von|durch|par)\s+(.+?)(?=;|\.\s|$)/iu.exec(segment.text);
      const name = m ? partyName(m[1]!) : null;
      if (name && legalForm.test(name)) return { line: l, segment, name };
    }
  }
  return null;
}

/** Names on the page that equal the name of one of its web or mail domains. */
function domainNamed(lines: TextLine[], labelled: Set<string>, skip: Set<number>): NameCandidate | null {
  const domains = pageDomains(lines, skip);
  if (domains.size === 0) return null;
  for (const { l, segment } of unlabelledSegments(lines, labelled, skip)) {
    const name = partyName(segment.text);
    if (name && domains.has(compactName(name))) return { line: l, segment, name };
  }
  return null;
}

/** The company named by a legal line: "Free SAS au capital de …", or the name line right above "Siège social : …". */
function legalLineNamed(lines: TextLine[], labelled: Set<string>, skip: Set<number>): NameCandidate | null {
  for (const { l, segment } of unlabelledSegments(lines, labelled, skip)) {
    const notice = legalNotice.exec(segment.text);
    if (notice && notice.index > 0 && legalForm.test(segment.text.slice(0, notice.index))) {
      const name = partyName(segment.text);
      if (name) return { line: l, segment, name };
    }
    if (legalNoticeLine.test(segment.text) && l > 0) {
      // The company's name is the line above, over the notice (centred footers: overlapping in x).
      for (let k = l - 1; k >= Math.max(0, l - 2); k--) {
        const above = lines[k]!.segments.find((seg) => Math.min(seg.x2, segment.x2) - Math.max(seg.x1, segment.x1) > 0);
        const name = above && !looksLikeAddress(above.text) ? partyName(above.text) : null;
        if (above && name) return { line: k, segment: above, name };
      }
    }
  }
  return null;
}

/** The first segment whose name carries a legal form before its end ("Coolblue B.V.", not "SARL au capital …"). */
function legalFormNamed(lines: TextLine[], labelled: Set<string>, skip: Set<number>): NameCandidate | null {
  for (const { l, segment } of unlabelledSegments(lines, labelled, skip)) {
    // The name ends with its legal form(s): what follows is something else ("Weena 664", "iov Saeco.com").
    const form = legalForm.exec(segment.text);
    if (!form || form.index === 0) continue;
    // "IDESAG@SAP-AG.COM": a legal form inside a mail or web address names no company on this line.
    const token = segment.text.slice(segment.text.lastIndexOf(' ', form.index) + 1).split(/\s/)[0]!;
    if (/@|\.[a-z]{2,6}$|^www\./i.test(token)) continue;
    let end = form.index + form[0].length;
    for (let next = legalFormRun.exec(segment.text.slice(end)); next; next = legalFormRun.exec(segment.text.slice(end))) end += next[0].length;
    const name = partyName(segment.text.slice(0, end));
    if (name && name.length <= 80) return { line: l, segment, name };
  }
  return null;
}

/** The letterhead: the first name-like, unlabelled segment of the page. */
function letterhead(lines: TextLine[], labelled: Set<string>, skip: Set<number>, bodyStart: number): NameCandidate | null {
  for (let l = 0; l < Math.min(bodyStart, lines.length); l++) {
    if (skip.has(l)) continue;
    for (const [s, segment] of lines[l]!.segments.entries()) {
      if (labelled.has(`${l}:${s}`)) continue;
      const name = partyName(segment.text);
      if (name) return { line: l, segment, name };
    }
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

const nameTokens = (name: string): string[] =>
  name
    .toLowerCase()
    .replace(new RegExp(legalForm.source, 'giu'), ' ')
    .split(/[^\p{L}\d]+/u)
    .filter(Boolean);

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

/** Each segment of the lines that is not a labelled value and whose line is not skipped, with its line's index. */
/**
 * Unlabelled segments that may name a party. Text read from an image on a text-layer page is left out: a logo's
 * wordmark is a brand, while the party's registered name (EN 16931 BT-27 / BT-44) is printed as text.
 */
function* unlabelledSegments(lines: TextLine[], labelled: Set<string>, skip: Set<number>): Generator<{ l: number; segment: TextLine['segments'][number] }> {
  for (const [l, line] of lines.entries()) {
    if (skip.has(l)) continue;
    for (const [s, segment] of line.segments.entries()) {
      if (labelled.has(`${l}:${s}`) || segment.words.every((word) => word.fromImage)) continue;
      yield { l, segment };
    }
  }
}
