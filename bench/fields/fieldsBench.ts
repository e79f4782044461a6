/**
 * The field benchmark over the einvoice corpus (bench:fields): first-seen key-field accuracy per family (the held-out
 * families apart), second-invoice accuracy per family with two documents or more (the first confirmed by the analyst,
 * the rest read into the same project through supplier memory), what memory costs at 1,000 suppliers, and how far
 * the confidence bands can be trusted. Pure over the documents' words: benchFields.ts reads the PDFs.
 */
import { performance } from 'node:perf_hooks';
import { extractInvoiceFields, scoreInvoiceFields, toPlainFields } from '../../app/invoice/index.js';
import { genericScores, learnLesson, readWithMemory, SupplierIndex, type MemoryReading, type SupplierTrackRecord, type TaughtLesson } from '../../app/invoice/supplierMemory/index.js';
import type { Word } from '../../app/model/extraction.js';
import { benchKeyFields, valueRight, type BenchKeyField, type CorpusDocument } from './corpusTruth.js';
import { familyGroups, type FamilyGroup } from './heldOutFamilies.js';
import { syntheticLessons } from './syntheticSuppliers.js';

/** Confidence bands the review screen shows. */
export const HIGH = 0.85;
export const LOW = 0.5;
export const MEMORY_SUPPLIERS = 1000;
const COST_ROUNDS = 3;

export interface ScoredValue {
  document: string;
  family: string;
  field: BenchKeyField;
  right: boolean;
  confidence: number;
  fromMemory: boolean;
  /** The value read, where the path keeps it (the app path: for looking into a development family's misses). */
  value?: string | number | null;
}

export interface Tally {
  right: number;
  total: number;
}

export interface BandFigures {
  /** Share of values shown high that are right. */
  highPrecision: number | null;
  /** Share of right values shown high. */
  rightShownHigh: number | null;
  high: Tally;
  mid: Tally;
  low: Tally;
}

/** A figure for each group of families (heldOutFamilies.ts): development, hash-picked with a studied relative, held out. */
export type ByGroup<T> = Record<FamilyGroup, T>;

export interface FieldsBenchResult {
  firstSeen: ByGroup<Tally> & { byFamily: Record<string, Tally & { group: FamilyGroup }>; byField: Record<string, Tally> };
  secondInvoice: ByGroup<Tally> & {
    all: Tally;
    /** The same documents read without memory (before supplier memory). */
    withoutMemory: ByGroup<Tally>;
    byFamily: Record<string, Tally & { group: FamilyGroup; recognised: number; documents: number; withoutMemory: Tally }>;
  };
  confidence: { firstSeen: ByGroup<BandFigures>; secondInvoice: ByGroup<BandFigures> };
  /** Wall-clock and this process's CPU time (steadier on a shared machine) per page read, and per page learned. */
  memoryCost: { suppliers: number; pages: number; meanMs: number; p95Ms: number; cpuMeanMs: number; cpuP95Ms: number; learnMeanMs: number };
  /** Scored values of the families developed on (development and relative studied); held-out failures are not shown. */
  developmentValues: ScoredValue[];
}

type Reading = Partial<Record<BenchKeyField, { value: string | number | null; confidence: number; fromMemory: boolean }>>;

/** The text a page's confidence is scored against (its words, as the engine's Markdown holds them). */
const pageText = (words: readonly Word[]): string => words.map((w) => w.text).join(' ');

export function firstSeenReading(words: readonly Word[]): Reading {
  const fields = extractInvoiceFields({ words });
  const scores = scoreInvoiceFields(fields, pageText(words));
  const reading: Reading = {};
  for (const key of benchKeyFields) reading[key] = { value: fields[key]?.value ?? null, confidence: scores[key]?.confidence ?? 0, fromMemory: false };
  return reading;
}

/** The generic reading with memory's values over it, as the app shows it. */
export function memoryOverlay(generic: Reading, memory: MemoryReading | null): Reading {
  if (!memory) return generic;
  const merged: Reading = { ...generic };
  for (const key of benchKeyFields) {
    const mine = memory.fields[key];
    if (mine) merged[key] = { value: mine.value, confidence: mine.confidence, fromMemory: mine.source === 'supplier memory' };
  }
  return merged;
}

function score(doc: CorpusDocument, reading: Reading): ScoredValue[] {
  return benchKeyFields.flatMap((field) => {
    const expected = doc.printed[field];
    if (expected === undefined) return [];
    const read = reading[field];
    return [{ document: doc.name, family: doc.family, field, right: valueRight(field, expected, read?.value), confidence: read?.confidence ?? 0, fromMemory: read?.fromMemory ?? false }];
  });
}

const tally = (values: readonly ScoredValue[]): Tally => ({ right: values.filter((v) => v.right).length, total: values.length });

export function bands(values: readonly ScoredValue[]): BandFigures {
  const high = values.filter((v) => v.confidence >= HIGH);
  const low = values.filter((v) => v.confidence < LOW);
  const mid = values.filter((v) => v.confidence >= LOW && v.confidence < HIGH);
  const right = values.filter((v) => v.right).length;
  return {
    highPrecision: high.length ? high.filter((v) => v.right).length / high.length : null,
    rightShownHigh: right ? high.filter((v) => v.right).length / right : null,
    high: tally(high),
    mid: tally(mid),
    low: tally(low),
  };
}

/** A figure of the values of each group of families. */
export function byGroup<T>(values: readonly ScoredValue[], groupOf: (family: string) => FamilyGroup, figure: (values: readonly ScoredValue[]) => T): ByGroup<T> {
  return Object.fromEntries(familyGroups.map((group) => [group, figure(values.filter((v) => groupOf(v.family) === group))])) as ByGroup<T>;
}

const byFamily = (values: readonly ScoredValue[], groupOf: (family: string) => FamilyGroup): Record<string, Tally & { group: FamilyGroup }> => {
  const out: Record<string, Tally & { group: FamilyGroup }> = {};
  for (const family of [...new Set(values.map((v) => v.family))].sort()) out[family] = { ...tally(values.filter((v) => v.family === family)), group: groupOf(family) };
  return out;
};

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** `groupOf`: each family's group (heldOutFamilies.ts's splitFamilies). */
export function runFieldsBench(documents: readonly CorpusDocument[], wordsOf: (name: string) => Word[], groupOf: (family: string) => FamilyGroup): FieldsBenchResult {
  const generic = new Map(documents.map((doc) => [doc.name, firstSeenReading(wordsOf(doc.name))]));
  const first = documents.flatMap((doc) => score(doc, generic.get(doc.name)!));

  // Second invoice: every family's first document confirmed into one project, the others read through its memory.
  const families = [...new Set(documents.map((d) => d.family))].sort();
  const taught: TaughtLesson[] = [];
  const learnTimes: number[] = [];
  for (const family of families) {
    const docs = documents.filter((d) => d.family === family);
    if (docs.length < 2) continue;
    const started = performance.now();
    const lesson = learnLesson(wordsOf(docs[0]!.name), docs[0]!.confirmed);
    learnTimes.push(performance.now() - started);
    taught.push({ supplierId: family, supplierName: docs[0]!.confirmed.seller ?? family, pageId: docs[0]!.name, lesson });
  }
  const index = new SupplierIndex(taught);
  const records = new Map<string, SupplierTrackRecord>();
  const second: ScoredValue[] = [];
  const secondBefore: ScoredValue[] = [];
  const secondFamilies: FieldsBenchResult['secondInvoice']['byFamily'] = {};
  for (const family of families) {
    const docs = documents.filter((d) => d.family === family);
    if (docs.length < 2) continue;
    let recognised = 0;
    const values: ScoredValue[] = [];
    const before = docs.slice(1).flatMap((doc) => score(doc, generic.get(doc.name)!));
    secondBefore.push(...before);
    for (const doc of docs.slice(1)) {
      const words = wordsOf(doc.name);
      const fields = extractInvoiceFields({ words });
      const memory = readWithMemory(words, toPlainFields(fields), index, records, genericScores(fields, pageText(words)));
      if (memory?.supplierId === family) recognised++;
      values.push(...score(doc, memoryOverlay(generic.get(doc.name)!, memory)));
    }
    second.push(...values);
    secondFamilies[family] = { ...tally(values), group: groupOf(family), recognised, documents: docs.length - 1, withoutMemory: tally(before) };
  }

  // Cost at 1,000 suppliers: the real lessons among synthetic ones (their own names, identifiers and layouts).
  const crowded = new SupplierIndex([...taught, ...syntheticLessons(taught, MEMORY_SUPPLIERS - taught.length)]);
  const times: number[] = [];
  const cpuTimes: number[] = [];
  // Round 0 warms the JIT and is not counted.
  for (let round = 0; round <= COST_ROUNDS; round++) {
    for (const doc of documents) {
      const words = wordsOf(doc.name);
      const fields = extractInvoiceFields({ words });
      const plain = toPlainFields(fields);
      const scores = genericScores(fields, pageText(words));
      const started = performance.now();
      const cpu = process.cpuUsage();
      readWithMemory(words, plain, crowded, records, scores);
      const used = process.cpuUsage(cpu);
      if (round > 0) {
        times.push(performance.now() - started);
        cpuTimes.push((used.user + used.system) / 1000);
      }
    }
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);

  const studied = (values: readonly ScoredValue[]) => values.filter((v) => groupOf(v.family) !== 'heldOut');
  const byField: Record<string, Tally> = {};
  for (const field of benchKeyFields) byField[field] = tally(first.filter((v) => groupOf(v.family) === 'development' && v.field === field));
  return {
    firstSeen: { ...byGroup(first, groupOf, tally), byFamily: byFamily(first, groupOf), byField },
    secondInvoice: { ...byGroup(second, groupOf, tally), all: tally(second), withoutMemory: byGroup(secondBefore, groupOf, tally), byFamily: secondFamilies },
    confidence: { firstSeen: byGroup(first, groupOf, bands), secondInvoice: byGroup(second, groupOf, bands) },
    memoryCost: {
      suppliers: crowded.size,
      pages: documents.length,
      meanMs: times.reduce((a, b) => a + b, 0) / Math.max(1, times.length),
      p95Ms: percentile(times, 0.95),
      cpuMeanMs: cpuTimes.reduce((a, b) => a + b, 0) / Math.max(1, cpuTimes.length),
      cpuP95Ms: percentile(cpuTimes, 0.95),
      learnMeanMs: learnTimes.reduce((a, b) => a + b, 0) / Math.max(1, learnTimes.length),
    },
    developmentValues: [...studied(first), ...studied(second)],
  };
}
