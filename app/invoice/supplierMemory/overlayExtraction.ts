/**
 * A freshly read page with the project's supplier memory laid over its invoice fields, in the engine's shape
 * (`fields.invoice` plain values, `fields.invoiceSources` per field: text, label, boxes, confidence, source): each value
 * memory read or checked says `source: 'supplier memory'`, the lesson's page (`taughtBy`) and its evidence; the
 * supplier recognised is kept as `fields.supplierMemory`. A page without invoice fields, or of no known supplier, is
 * returned as it was.
 */
import type { Extraction } from '../../model/extraction.js';
import { readFieldValues } from '../review/engineFields.js';
import type { SupplierTrackRecord } from './lessonSchema.js';
import { readWithMemory } from './memoryReading.js';
import type { SupplierIndex } from './recogniseSupplier.js';

export const MEMORY_SOURCE = 'supplier memory';

/** What `fields.supplierMemory` holds on a page read through memory. */
export interface PageSupplier {
  supplierId: string;
  supplierName: string;
  taughtBy: string;
  recognition: string[];
}

const record = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export function overlaySupplierMemory(extraction: Extraction, index: SupplierIndex, records: ReadonlyMap<string, SupplierTrackRecord>): Extraction {
  const invoice = record(extraction.fields?.invoice);
  if (!invoice || index.size === 0) return extraction;
  const plain = readFieldValues(invoice);
  const memory = readWithMemory(extraction.words ?? [], plain, index, records);
  if (!memory) return extraction;
  const values: Record<string, unknown> = { ...invoice };
  const sources: Record<string, unknown> = { ...(record(extraction.fields?.invoiceSources) ?? {}) };
  for (const [key, read] of Object.entries(memory.fields)) {
    const generic = record(sources[key]);
    values[key] = read.value;
    const agrees = read.evidence.includes('memory:page-agrees');
    sources[key] = {
      text: read.text,
      label: read.source === MEMORY_SOURCE ? `${MEMORY_SOURCE}: ${memory.supplierName}` : ((generic?.label as string | null | undefined) ?? null),
      // The generic reading's boxes show where the value is when memory read the same value.
      boxes: agrees || read.source !== MEMORY_SOURCE ? (generic?.boxes ?? []) : [],
      confidence: read.confidence,
      source: read.source,
      taughtBy: memory.taughtBy,
      evidence: read.evidence,
    };
  }
  const supplier: PageSupplier = { supplierId: memory.supplierId, supplierName: memory.supplierName, taughtBy: memory.taughtBy, recognition: memory.recognition };
  return { ...extraction, fields: { ...extraction.fields, invoice: values, invoiceSources: sources, supplierMemory: supplier } };
}

/** The supplier a stored page was read through, where it was. */
export function pageSupplierOf(extraction: Pick<Extraction, 'fields'> | null): PageSupplier | null {
  const s = record(extraction?.fields?.supplierMemory);
  return s && typeof s.supplierId === 'string' && typeof s.supplierName === 'string' && typeof s.taughtBy === 'string'
    ? { supplierId: s.supplierId, supplierName: s.supplierName, taughtBy: s.taughtBy, recognition: Array.isArray(s.recognition) ? s.recognition.filter((e): e is string => typeof e === 'string') : [] }
    : null;
}

/** The values memory proposed on a stored page (for kept / corrected once the analyst confirms it). */
export function memoryProposals(extraction: Pick<Extraction, 'fields'> | null): Record<string, string | number> {
  const invoice = record(extraction?.fields?.invoice);
  const sources = record(extraction?.fields?.invoiceSources);
  const out: Record<string, string | number> = {};
  if (!invoice || !sources) return out;
  for (const [key, source] of Object.entries(sources)) {
    const value = invoice[key];
    if (record(source)?.source === MEMORY_SOURCE && (typeof value === 'string' || typeof value === 'number')) out[key] = value;
  }
  return out;
}
