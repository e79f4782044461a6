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
  const { vatIds, ibans, taxNumbers, glns } = lesson.identity;
  return [...vatIds, ...ibans, ...taxNumbers, ...glns].map(compactId);
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

export class SupplierIndex {
  private readonly bySupplier = new Map<string, TaughtLesson[]>();
  /** Identifier → the suppliers whose pages print it. */
  private readonly idOwners = new Map<string, Set<string>>();
  private readonly names = new Map<string, string>();
  /** A name's first NAME_KEY letters → the suppliers of that name. */
  private readonly nameKeys = new Map<string, Set<string>>();
  /** Fixed-line hash → the suppliers whose lessons have it. */
  private readonly lineOwners = new Map<number, Set<string>>();

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
      }
      for (const line of taught.lesson.identity.fingerprint) this.lineOwners.set(line, (this.lineOwners.get(line) ?? new Set()).add(taught.supplierId));
    }
  }

  /** The suppliers worth scoring on a page: an identifier, the name's first letters or a fixed line of theirs is on it. */
  private candidates(page: MemoryPage): Set<string> {
    const found = new Set<string>();
    for (const id of page.ids) for (const owner of this.idOwners.get(id) ?? []) found.add(owner);
    for (let i = 0; i + NAME_KEY <= page.compact.length; i++) for (const owner of this.nameKeys.get(page.compact.slice(i, i + NAME_KEY)) ?? []) found.add(owner);
    for (const line of page.fingerprint) for (const owner of this.lineOwners.get(line) ?? []) found.add(owner);
    return found;
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
    let best: Recognised | null = null;
    for (const supplierId of this.candidates(page)) {
      const lessons = this.bySupplier.get(supplierId)!;
      const ids = ownIds.get(supplierId) ?? 0;
      const name = this.names.get(supplierId);
      const named = name !== undefined && page.compact.includes(name);
      let lesson = lessons[0]!;
      let layout = -1;
      for (const taught of lessons) {
        const overlap = layoutOverlap(taught.lesson.identity.fingerprint, page);
        if (overlap > layout) [lesson, layout] = [taught, overlap];
      }
      // Layout alone names nobody: one producer's template is the layout of many suppliers.
      if (ids === 0 && !named) continue;
      const score = (ids > 0 ? ID_WEIGHT : 0) + (named ? NAME_WEIGHT : 0) + LAYOUT_WEIGHT * layout;
      if (score < RECOGNISED_AT || (best && best.score >= score)) continue;
      const evidence = [...(ids > 0 ? ['supplier:identifier'] : []), ...(named ? ['supplier:name'] : []), `supplier:layout=${layout.toFixed(2)}`];
      best = { supplierId, supplierName: lesson.supplierName, lesson, score, layout, evidence };
    }
    return best;
  }
}
