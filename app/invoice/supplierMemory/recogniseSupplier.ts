/**
 * Which known supplier a page is from: its own identifiers (VAT ID, IBAN) printed on the page, its confirmed name
 * printed on the page, and how much of the layout it taught survives (the fingerprint of fixed lines). An identifier
 * that several suppliers' pages print is the buyer's (the analyst's own company), not a supplier's: it counts for
 * nobody. Built once per project state, with inverted indexes (a name's first letters, each fixed-line hash → the
 * suppliers that have it), so recognising one page costs a pass over the page, not over the suppliers
 * (docs/supplier-memory.md has the cost at 1,000 suppliers).
 */
import type { SupplierLesson, TaughtLesson } from './lessonSchema.js';
import { compactId, compactText, layoutOverlap, type MemoryPage } from './pageText.js';
import { letterheadShare, pageHeadForms } from './letterhead.js';
import { MIN_FUZZY_NAME, printedWithinNoise } from './textForms.js';

/** Evidence weights: an own identifier is near proof, a printed name strong, the layout supporting. */
const ID_WEIGHT = 3;
const NAME_WEIGHT = 2;
const LAYOUT_WEIGHT = 2;
/** A page is that supplier's when its score reaches this and an identifier or the name is printed on it. */
const RECOGNISED_AT = 2.5;
/** A name shorter than this (compacted) is found in too many pages to identify anyone. */
const MIN_NAME = 4;

/** Every identifier a lesson keeps as the supplier's, compacted. */
export function ownIdentifiers(lesson: SupplierLesson): string[] {
  const { vatIds, ibans, taxNumbers, glns, phones } = lesson.identity;
  return [...vatIds, ...ibans, ...taxNumbers, ...glns, ...phones].map(compactId);
}

export interface Recognised {
  supplierId: string;
  supplierName: string;
  /** The lesson of that supplier whose layout best fits the page (it reads the fields). */
  lesson: TaughtLesson;
  score: number;
  /** Share of the lesson's fixed lines the page prints, 0–1. */
  layout: number;
  evidence: string[];
}

/** Names are looked up by their first letters: every run of this length in the page's text is one lookup. */
const NAME_KEY = MIN_NAME;
/**
 * A scanned page prints the name through OCR noise ("TKANO HANDEL" for "IKANO HANDEL"): a name of this length or more
 * is also found within OCR noise (textForms.ts's printedWithinNoise), where two of its letter runs of NAME_KEY
 * (taken end to end) are on the page — a noisy name keeps most of them. It is only looked for in the page's first
 * lines, where a merchant prints its name, and there it weighs as the name printed exactly: weighing it less (1.5)
 * left a supplier whose teaching receipt OCR read as noise — its lesson holds the confirmed name and nothing else —
 * unrecognised on every receipt that prints the name with a letter wrong ("Seqi Cash & Carry").
 */
const FUZZY_NAME_WEIGHT = NAME_WEIGHT;
const MIN_GRAM_HITS = 2;
/**
 * A merchant prints its name in its first lines (a receipt's header, an invoice's letterhead): found there, the name
 * weighs this much more — on a scan the fixed lines rarely survive OCR exactly, so the layout cannot carry it.
 */
const HEADER_LINES = 8;
const HEADER_NAME_BONUS = 0.5;
/** An identifier of this many characters or more read with one character wrong (OCR) still points at its owner, less strongly. */
const MIN_NEAR_ID = 10;
const NEAR_ID_WEIGHT = 2;

/** An identifier with each one of its characters masked in turn: two that differ in one character share a form. */
const maskedForms = (id: string): string[] => Array.from({ length: id.length }, (_, i) => `${id.slice(0, i)}?${id.slice(i + 1)}`);

/** A name's letter runs of NAME_KEY, end to end. */
const nameGrams = (name: string): string[] => Array.from({ length: Math.floor(name.length / NAME_KEY) }, (_, i) => name.slice(i * NAME_KEY, (i + 1) * NAME_KEY));

export class SupplierIndex {
  private readonly bySupplier = new Map<string, TaughtLesson[]>();
  /** Identifier → the suppliers whose pages print it. */
  private readonly idOwners = new Map<string, Set<string>>();
  private readonly names = new Map<string, string>();
  /** A name's first NAME_KEY letters → the suppliers of that name. */
  private readonly nameKeys = new Map<string, Set<string>>();
  /** Fixed-line hash → the suppliers whose lessons have it. */
  private readonly lineOwners = new Map<number, Set<string>>();
  /** A long name's letter runs (nameGrams) → the suppliers of that name: candidates for a fuzzy match. */
  private readonly gramOwners = new Map<string, Set<string>>();
  /** How many letter runs each long name has. */
  private readonly gramCounts = new Map<string, number>();
  /** Letterhead line → the suppliers whose lessons print it: a line two suppliers print is neither's (letterhead.ts). */
  private readonly letterheadOwners = new Map<string, Set<string>>();
  /** An own identifier with one character masked (`?`) → its owner: a page's identifier misread by one character finds it. */
  private readonly nearIdKeys = new Map<string, Set<string>>();

  constructor(lessons: readonly TaughtLesson[]) {
    for (const taught of lessons) {
      const list = this.bySupplier.get(taught.supplierId) ?? [];
      list.push(taught);
      this.bySupplier.set(taught.supplierId, list);
      for (const id of ownIdentifiers(taught.lesson)) {
        const owners = this.idOwners.get(id) ?? new Set<string>();
        owners.add(taught.supplierId);
        this.idOwners.set(id, owners);
      }
      const name = compactText(taught.lesson.identity.name ?? taught.supplierName);
      if (name.length >= MIN_NAME) {
        this.names.set(taught.supplierId, name);
        const key = name.slice(0, NAME_KEY);
        this.nameKeys.set(key, (this.nameKeys.get(key) ?? new Set()).add(taught.supplierId));
        if (name.length >= MIN_FUZZY_NAME) {
          const grams = nameGrams(name);
          this.gramCounts.set(taught.supplierId, grams.length);
          for (const gram of grams) this.gramOwners.set(gram, (this.gramOwners.get(gram) ?? new Set()).add(taught.supplierId));
        }
      }
      for (const line of taught.lesson.identity.letterhead) this.letterheadOwners.set(line, (this.letterheadOwners.get(line) ?? new Set()).add(taught.supplierId));
      for (const line of taught.lesson.identity.fingerprint) this.lineOwners.set(line, (this.lineOwners.get(line) ?? new Set()).add(taught.supplierId));
    }
  }

  /** The suppliers worth scoring on a page: an identifier, the name's first letters or a fixed line of theirs is on it. */
  private candidates(page: MemoryPage): Set<string> {
    const found = new Set<string>();
    for (const id of page.ids) for (const owner of this.idOwners.get(id) ?? []) found.add(owner);
    for (let i = 0; i + NAME_KEY <= page.compact.length; i++) for (const owner of this.nameKeys.get(page.compact.slice(i, i + NAME_KEY)) ?? []) found.add(owner);
    for (const line of page.fingerprint) for (const owner of this.lineOwners.get(line) ?? []) found.add(owner);
    for (const owner of this.fuzzyCandidates(page)) found.add(owner);
    return found;
  }

  /** Suppliers with a long name of which MIN_GRAM_HITS letter runs are on the page. */
  private fuzzyCandidates(page: MemoryPage): string[] {
    if (this.gramOwners.size === 0) return [];
    const hits = new Map<string, number>();
    const seen = new Set<string>();
    for (let i = 0; i + NAME_KEY <= page.compact.length; i++) {
      const gram = page.compact.slice(i, i + NAME_KEY);
      if (seen.has(gram)) continue;
      seen.add(gram);
      for (const owner of this.gramOwners.get(gram) ?? []) hits.set(owner, (hits.get(owner) ?? 0) + 1);
    }
    // Half of the name's runs at least: runs of a legal form ("sdnb", "gmbh") alone are in many suppliers' names.
    return [...hits].filter(([owner, n]) => n >= Math.max(MIN_GRAM_HITS, Math.ceil((this.gramCounts.get(owner) ?? 0) / 2))).map(([owner]) => owner);
  }

  /** How the supplier's name is on the page: exactly or within the OCR-noise allowance, and whether in its first lines; null: not. */
  private nameOnPage(supplierId: string, page: MemoryPage, head: string): { fuzzy: boolean; inHeader: boolean } | null {
    const name = this.names.get(supplierId);
    if (name === undefined) return null;
    if (page.compact.includes(name)) return { fuzzy: false, inHeader: head.includes(name) };
    // Through noise only in the first lines, where a merchant prints its name: a search of the whole page for every
    // candidate would cost memory's budget per page (docs/supplier-memory.md) several times over.
    return printedWithinNoise(name, head) ? { fuzzy: true, inHeader: true } : null;
  }

  /** A lesson's letterhead lines that no other supplier's lesson holds. */
  private ownLetterhead(lesson: SupplierLesson): string[] {
    return lesson.identity.letterhead.filter((line) => this.letterheadOwners.get(line)?.size === 1);
  }

  /**
   * Suppliers whose own identifier the page prints with one character misread — under its label, or as a bare run of
   * digits (OCR misreads the label too: "GaT Reg Mo: 000203587564").
   */
  private nearIdOwners(page: MemoryPage): Set<string> {
    if (this.nearIdKeys.size === 0) this.indexNearIds();
    const owners = new Set<string>();
    for (const printed of new Set([...page.ids, ...page.digitRuns])) {
      if (printed.length < MIN_NEAR_ID) continue;
      for (const key of maskedForms(printed)) for (const owner of this.nearIdKeys.get(key) ?? []) owners.add(owner);
    }
    return owners;
  }

  /** Built on first use: each own identifier (held by one supplier) under each of its one-character masks. */
  private indexNearIds(): void {
    for (const [id, owners] of this.idOwners) {
      if (owners.size !== 1 || id.length < MIN_NEAR_ID) continue;
      for (const key of maskedForms(id)) this.nearIdKeys.set(key, (this.nearIdKeys.get(key) ?? new Set()).add([...owners][0]!));
    }
    if (this.nearIdKeys.size === 0) this.nearIdKeys.set('', new Set());
  }

  /**
   * Whether `seller` (a name the analyst confirmed) may be this supplier's: one of its names (as listed, or as its
   * pages confirmed it) and the seller contain one another. An identifier alone does not file a document under a
   * supplier whose name the analyst just confirmed otherwise (two suppliers' pages may print one example VAT ID).
   */
  fitsName(supplierId: string, seller: string | null): boolean {
    const wanted = compactText(seller ?? '');
    if (wanted.length < MIN_NAME) return true;
    const names = (this.bySupplier.get(supplierId) ?? []).flatMap((t) => [t.supplierName, t.lesson.identity.name ?? '']).map(compactText);
    return names.some((name) => name.length >= MIN_NAME && (name.includes(wanted) || wanted.includes(name)));
  }

  get size(): number {
    return this.bySupplier.size;
  }

  recognise(page: MemoryPage): Recognised | null {
    const ownIds = new Map<string, number>();
    for (const id of page.ids) {
      const owners = this.idOwners.get(id);
      if (owners?.size === 1) {
        const [owner] = owners;
        ownIds.set(owner!, (ownIds.get(owner!) ?? 0) + 1);
      }
    }
    const head = compactText(page.lines.slice(0, HEADER_LINES).map((l) => l.text).join('\n'));
    const nearIds = this.nearIdOwners(page);
    let best: Recognised | null = null;
    let headForms: string[] | undefined;
    for (const supplierId of new Set([...this.candidates(page), ...nearIds])) {
      const lessons = this.bySupplier.get(supplierId)!;
      const ids = ownIds.get(supplierId) ?? 0;
      const printedName = this.nameOnPage(supplierId, page, head);
      const named = printedName !== null;
      // Exactly printed identifiers share every masked form too: near means one of its own read with one character wrong.
      const nearId = ids === 0 && nearIds.has(supplierId);
      let lesson = lessons[0]!;
      let layout = -1;
      for (const taught of lessons) {
        const overlap = layoutOverlap(taught.lesson.identity.fingerprint, page);
        if (overlap > layout) [lesson, layout] = [taught, overlap];
      }
      // Layout alone names nobody: one producer's template is the layout of many suppliers.
      if (ids === 0 && !nearId && !named) continue;
      // A scan's fixed lines come back through OCR noise: its letterhead, compared through that noise, stands in for
      // the layout where it says more (the best of the supplier's lessons).
      headForms ??= pageHeadForms(page.lines);
      const letterhead = Math.max(0, ...lessons.map((t) => letterheadShare(this.ownLetterhead(t.lesson), headForms!)));
      const nameWeight = printedName ? (printedName.fuzzy ? FUZZY_NAME_WEIGHT : NAME_WEIGHT) + (printedName.inHeader ? HEADER_NAME_BONUS : 0) : 0;
      const score = (ids > 0 ? ID_WEIGHT : nearId ? NEAR_ID_WEIGHT : 0) + nameWeight + LAYOUT_WEIGHT * Math.max(layout, letterhead);
      if (score < RECOGNISED_AT || (best && best.score >= score)) continue;
      const evidence = [
        ...(ids > 0 ? ['supplier:identifier'] : nearId ? ['supplier:identifier~'] : []),
        ...(printedName ? [`supplier:name${printedName.fuzzy ? '~' : ''}${printedName.inHeader ? ' (header)' : ''}`] : []),
        `supplier:layout=${layout.toFixed(2)}`,
        ...(letterhead > layout ? [`supplier:letterhead~=${letterhead.toFixed(2)}`] : []),
      ];
      best = { supplierId, supplierName: lesson.supplierName, lesson, score, layout, evidence };
    }
    return best;
  }
}
