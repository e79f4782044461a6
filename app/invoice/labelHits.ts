/**
 * Where the page's labels are and which text may be their value. Every segment (a run of words without a wide gap,
 * layout.ts) that starts with a label is assigned to the field whose label matches longest (so "Invoice Date" is a
 * date label, not an invoice-number label). Its value candidates are, in order: the rest of the segment, the
 * following segments of the line up to the next label, the segment below that overlaps it horizontally (forms laid out
 * as a header row over a value row) if it sits right under it. Header cells run together ("Grondslag BTW bedrag") are
 * cut apart first (splitLabelRuns).
 */
import type { Word } from '../model/extraction.js';
import { labelPatterns, type LabelledField } from './labels.js';
import type { Segment, TextLine } from './layout.js';
import { legalForm } from './partyNames.js';

export interface LabelHit {
  field: LabelledField;
  tier: number;
  line: number;
  segment: number;
  /** Label text as printed. */
  label: string;
  /** Text of the segment after the label. */
  rest: string;
  /** Words of the segment after the label (approximate: by word count). */
  restWords: Word[];
}

/** The longest label (ties: the first listed) that starts `text`, with the text it matched (trailing `:`/`#` included). */
export function labelAt(text: string): { field: LabelledField; tier: number; matched: string } | null {
  let best: { field: LabelledField; tier: number; matched: string } | null = null;
  for (const [field, tiers] of Object.entries(labelPatterns) as [LabelledField, RegExp[]][]) {
    tiers.forEach((pattern, tier) => {
      const m = pattern.exec(text);
      if (!m) return;
      // Strictly longer wins: on a tie the first field and tier listed keep it.
      if (m[0].trim().length <= (best?.matched.trim().length ?? 0)) return;
      best = { field, tier, matched: m[0] };
    });
  }
  return best;
}

const wordCount = (text: string): number => text.trim().split(/\s+/).filter(Boolean).length;

/**
 * Header cells set close together run into one segment ("Grondslag BTW bedrag" = "Grondslag" + "BTW bedrag" over a
 * row of values). Where a label is followed directly by a specific (first-tier) label, the segment is cut between
 * them, so each label keeps its own x-range and finds the value under it. Only a first-tier label starts a new cell:
 * "VAT Total" stays one label-and-text, "Invoice Date" stays one label (the longest match wins at each start).
 */
export function splitLabelRuns(lines: TextLine[]): TextLine[] {
  return lines.map((line) => {
    const segments = line.segments.flatMap((segment) => {
      const cuts: number[] = [];
      let at = 0;
      for (;;) {
        const here = labelAt(segment.words.slice(at).map((w) => w.text).join(' '));
        if (!here) break;
        const next = at + wordCount(here.matched);
        if (next <= at || next >= segment.words.length) break;
        const following = labelAt(segment.words.slice(next).map((w) => w.text).join(' '));
        if (!following || following.tier !== 0) break;
        cuts.push(next);
        at = next;
      }
      if (cuts.length === 0) return [segment];
      return [0, ...cuts].map((from, i) => {
        const words = segment.words.slice(from, cuts[i] ?? segment.words.length);
        return { text: words.map((w) => w.text).join(' '), words, x1: Math.min(...words.map((w) => w.box[0])), x2: Math.max(...words.map((w) => w.box[2])) };
      });
    });
    return segments.length === line.segments.length ? line : { ...line, segments, text: segments.map((s) => s.text).join('  ') };
  });
}

export function findLabelHits(lines: TextLine[]): LabelHit[] {
  const hits: LabelHit[] = [];
  lines.forEach((line, l) =>
    line.segments.forEach((segment, s) => {
      const label = labelAt(segment.text);
      if (!label) return;
      // "Lieferant GmbH", "Supplier Ltd.": a label word followed only by a legal form is a company's name.
      const rest = segment.text.slice(label.matched.length).trim();
      if (rest && rest.replace(new RegExp(legalForm.source, 'giu'), '').replace(/[\s,.&]+/g, '') === '') return;
      // "Verkäufer-IBAN", "Rechnungs-Nr.-Zusatz": a label word joined by a hyphen to another word is a compound that
      // names something else (the seller's IBAN, not the seller).
      if (/^-\p{L}/u.test(rest)) return;
      hits.push({
        field: label.field,
        tier: label.tier,
        line: l,
        segment: s,
        label: label.matched.trim(),
        rest: segment.text.slice(label.matched.length).trim(),
        restWords: segment.words.slice(wordCount(label.matched)),
      });
    }),
  );
  return hits;
}

/** A value below its label is at most this many label-line heights under it (the gap between them). */
const BELOW_MAX_GAP = 2;

export interface Candidate {
  text: string;
  words: Word[];
}

/** Value candidates for a label, in the order described in the module comment. `labelled`: `line:segment` of every label. */
export function candidatesFor(hit: LabelHit, lines: TextLine[], labelled: Set<string>): { sameLine: Candidate[]; below: Candidate[] } {
  const line = lines[hit.line]!;
  const sameLine: Candidate[] = [];
  if (hit.rest) sameLine.push({ text: hit.rest, words: hit.restWords });
  for (let s = hit.segment + 1; s < line.segments.length; s++) {
    if (labelled.has(`${hit.line}:${s}`)) break;
    sameLine.push({ text: line.segments[s]!.text, words: line.segments[s]!.words });
  }
  const below: Candidate[] = [];
  const labelSegment = line.segments[hit.segment]!;
  for (let l = hit.line + 1; l <= hit.line + 2 && l < lines.length; l++) {
    // A value row sits right under its header row; a segment several rows further down is another row's content
    // (the "MwSt." of a "Preis ohne MwSt." column header is not the label of the first item's price).
    if (lines[l]!.y - (line.y + line.height) > BELOW_MAX_GAP * Math.max(1, line.height)) break;
    let best: Segment | null = null;
    let bestOverlap = 0;
    lines[l]!.segments.forEach((seg, s) => {
      if (labelled.has(`${l}:${s}`)) return;
      const overlap = Math.min(seg.x2, labelSegment.x2) - Math.max(seg.x1, labelSegment.x1);
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = seg;
      }
    });
    if (best) {
      below.push({ text: (best as Segment).text, words: (best as Segment).words });
      break;
    }
  }
  return { sameLine, below };
}
