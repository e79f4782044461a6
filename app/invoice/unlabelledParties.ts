/**
 * The page's conventions that name a party where no label does (parties.ts tries them in this order for the seller):
 * running text ("sold by Amazon Web Services, Inc."), the seller's web or mail domain, the company's legal line, a
 * name carrying a legal form, address blocks above the item table (the letterhead's, then the envelope window's),
 * and last the letterhead's first name-like line.
 */
import type { Segment, TextLine } from './layout.js';
import { compactName, legalForm, legalFormRun, legalNotice, legalNoticeLine, looksLikeAddress, partyName, salutation } from './partyNames.js';

export interface NameCandidate {
  line: number;
  segment: Segment;
  name: string;
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

export interface AddressBlock {
  /** Lines of the block, the name line first. */
  lines: number[];
  candidate: NameCandidate;
}

/**
 * Address blocks above the body: a name line (or a salutation over one: "Herrn" / "Max Muster") with, left-aligned (or centred) under it and without a wide gap, lines of which one
 * is an address. Top to bottom.
 */
export function addressBlocks(lines: TextLine[], labelled: Set<string>, bodyStart: number): AddressBlock[] {
  const blocks: AddressBlock[] = [];
  const used = new Set<string>();
  for (let l = 0; l < Math.min(bodyStart, lines.length); l++) {
    lines[l]!.segments.forEach((opening, s) => {
      if (used.has(`${l}:${s}`) || labelled.has(`${l}:${s}`) || looksLikeAddress(opening.text)) return;
      // The sender line over the window is its own party (senderLineNamed), not the name of the address under it.
      if (senderLineParts(opening.text)) return;
      // A salutation ("Herrn", "Firma", "Madame") opens an address: the name is the line under it.
      const greeted = salutation.test(opening.text.trim()) ? salutedName(lines, l, opening) : null;
      const segment = greeted?.segment ?? opening;
      const name = greeted?.name ?? partyName(segment.text);
      if (!name) return;
      const charWidth = (segment.x2 - segment.x1) / Math.max(1, segment.text.length);
      const start = greeted ? l + 1 : l;
      const members = greeted ? [l, start] : [l];
      const keys = [`${l}:${s}`];
      let previous = lines[start]!;
      let address = false;
      for (let k = start + 1; k < lines.length && k <= start + 5; k++) {
        const next = lines[k]!;
        if (next.y - (previous.y + previous.height) > 1.5 * Math.max(previous.height, next.height)) break;
        // Left-aligned, or centred under a centred letterhead.
        const under = next.segments.findIndex(
          (seg) => Math.abs(seg.x1 - segment.x1) <= 2 * charWidth || Math.abs(seg.x1 + seg.x2 - segment.x1 - segment.x2) <= 4 * charWidth,
        );
        // A salutation starts the next address (the sender's lines over the window's "Herrn / Max Muster / …").
        if (under < 0 || labelled.has(`${k}:${under}`) || salutation.test(next.segments[under]!.text.trim())) break;
        members.push(k);
        keys.push(`${k}:${under}`);
        if (looksLikeAddress(next.segments[under]!.text)) address = true;
        previous = next;
      }
      // In the footer, a name over its register entry or VAT ID is the issuer's legal footer, not an envelope address
      // (higher up, a buyer's block may well print the buyer's VAT ID).
      if (!address || (lines[l]!.y >= footerTop(lines) && members.some((k) => registrationLine.test(lines[k]!.text)))) return;
      for (const key of keys) used.add(key);
      blocks.push({ lines: members, candidate: { line: start, segment, name } });
    });
  }
  return blocks.sort((a, b) => a.lines[0]! - b.lines[0]! || a.candidate.segment.x1 - b.candidate.segment.x1);
}

/**
 * The sender line of a window envelope (DIN 5008, and the same habit in France and the UK): one small line
 * "Name · Street · Postcode Town" right above the recipient's address, so the window shows the return address. Its
 * parts are set apart by "·", "•", "|", " - " or commas; the first is the sender's name, a later one an address.
 */
export function senderLineParts(text: string): { name: string } | null {
  const parts = text.split(/\s*[·•|]\s*|\s+[-–]\s+|,\s+/).filter(Boolean);
  if (parts.length < 3 || !parts.slice(1).some((p) => looksLikeAddress(p)) || looksLikeAddress(parts[0]!)) return null;
  const name = partyName(parts[0]!);
  return name ? { name } : null;
}

/** How many lines under a sender line the recipient's address must start. */
const SENDER_TO_WINDOW_LINES = 3;

/** The sender line above the body with an address under it (the window): the seller's name. */
export function senderLineNamed(lines: TextLine[], labelled: Set<string>, bodyStart: number): NameCandidate | null {
  for (let l = 0; l < Math.min(bodyStart, lines.length); l++) {
    for (const [s, segment] of lines[l]!.segments.entries()) {
      if (labelled.has(`${l}:${s}`)) continue;
      const sender = senderLineParts(segment.text);
      const window = lines.slice(l + 1, l + 1 + SENDER_TO_WINDOW_LINES + 2).some((line) => line.segments.some((seg) => looksLikeAddress(seg.text)));
      if (sender && window) return { line: l, segment, name: sender.name };
    }
  }
  return null;
}

/** The name under a salutation line, aligned with it. */
function salutedName(lines: TextLine[], l: number, opening: Segment): { segment: Segment; name: string } | null {
  const next = lines[l + 1];
  const line = lines[l]!;
  if (!next || next.y - (line.y + line.height) > 1.5 * line.height) return null;
  const segment = next.segments.find((seg) => Math.abs(seg.x1 - opening.x1) <= opening.x2 - opening.x1);
  const name = segment && !looksLikeAddress(segment.text) ? partyName(segment.text) : null;
  return segment && name ? { segment, name } : null;
}

/** "All services are sold by Amazon Web Services, Inc.": a company with its legal form after "sold by" in running text. */
export function soldByNamed(lines: TextLine[], skip: Set<number>): NameCandidate | null {
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
export function domainNamed(lines: TextLine[], labelled: Set<string>, skip: Set<number>): NameCandidate | null {
  const domains = pageDomains(lines, skip);
  if (domains.size === 0) return null;
  for (const { l, segment } of unlabelledSegments(lines, labelled, skip)) {
    const name = partyName(segment.text);
    if (name && domains.has(compactName(name))) return { line: l, segment, name };
  }
  return null;
}

/** The company named by a legal line: "Free SAS au capital de …", or the name line right above "Siège social : …". */
export function legalLineNamed(lines: TextLine[], labelled: Set<string>, skip: Set<number>): NameCandidate | null {
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

/** A registration or tax identity in a footer: the company's VAT ID, trade register, court, SIRET/RCS, KvK, company number. */
const registrationLine =
  /(?<![\p{L}])(?:ust-?id(?:nr|\.-?nr)?\.?|umsatzsteuer-?id|steuer-?nr|st\.-?nr|hrb|hra|amtsgericht|registergericht|handelsregister|siret|siren|rcs|n°\s*tva|tva\s+intracom|vat\s*(?:reg(?:istration)?\.?\s*)?(?:no|number|id)|company\s+(?:no|number|reg)|registered\s+in|kvk|btw-?nr)(?![\p{L}])/iu;
/** The footer is the page's last lines: below this share of the page's height (of the text's extent). */
const FOOTER_FROM = 0.8;

/** Where the footer starts: FOOTER_FROM of the way from the first line to the last. */
const footerTop = (lines: TextLine[]): number => (lines.length === 0 ? 0 : lines[0]!.y + FOOTER_FROM * (lines[lines.length - 1]!.y - lines[0]!.y));

/**
 * The footer names the issuer: a company name with its legal form on a line of the footer that carries its
 * registration or VAT ID ("MUSTER GMBH | Geschäftsführung … | USt-IdNr: DE… | HRB …"), or right above such a line in
 * its column. Only the footer: a buyer's VAT ID is printed in the buyer's block, higher up.
 */
export function footerNamed(lines: TextLine[], labelled: Set<string>, skip: Set<number>): NameCandidate | null {
  if (lines.length === 0) return null;
  const footerY = footerTop(lines);
  for (const [l, line] of lines.entries()) {
    if (line.y < footerY || !registrationLine.test(line.text)) continue;
    const rows = [l, l - 1, l - 2].filter((k) => k >= 0 && !skip.has(k) && lines[k]!.y >= footerY - 3 * line.height);
    for (const k of rows) {
      for (const [s, segment] of lines[k]!.segments.entries()) {
        if (labelled.has(`${k}:${s}`) || registrationLine.test(segment.text) || segment.words.every((w) => w.fromImage)) continue;
        const form = legalForm.exec(segment.text);
        const name = form && form.index > 0 ? partyName(segment.text.slice(0, form.index + form[0].length)) : null;
        if (name) return { line: k, segment, name };
      }
    }
  }
  return null;
}

/** The first segment whose name carries a legal form before its end ("Coolblue B.V.", not "SARL au capital …"). */
export function legalFormNamed(lines: TextLine[], labelled: Set<string>, skip: Set<number>): NameCandidate | null {
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
export function letterhead(lines: TextLine[], labelled: Set<string>, skip: Set<number>, bodyStart: number): NameCandidate | null {
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

