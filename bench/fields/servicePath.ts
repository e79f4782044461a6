/**
 * The second-invoice measurement through the app's own path: one project; each family's first document imported,
 * read by the bundled engine, corrected field by field with `fields.save` (as the review screen saves) and approved
 * (`suppliers.approve`); then the family's other documents imported into the same project and their fields taken
 * from `fields.document`, as the review screen shows them. Nothing here reads memory directly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DocumentSummary } from '../../app/model/page.js';
import { MEMORY_SOURCE } from '../../app/invoice/supplierMemory/index.js';
import { contractOf, sessionIn } from '../../testing/realInvoiceProject.js';
import { benchKeyFields, valueRight, type CorpusDocument } from './corpusTruth.js';
import type { ScoredValue } from './fieldsBench.js';

type Dispatch = ReturnType<typeof contractOf>;

async function call<T>(dispatch: Dispatch, method: Parameters<Dispatch>[0], params: unknown): Promise<T> {
  const reply = await dispatch(method, params as never);
  if (!reply.ok) throw new Error(`${method}: ${JSON.stringify(reply)}`);
  return reply.result as T;
}

interface DocumentFields {
  engine: { values: Record<string, unknown>; sources: Record<string, { confidence: number | null }> } | null;
}

export interface ServicePathResult {
  values: ScoredValue[];
  /** Documents read after their family's first, and how many of them memory recognised. */
  read: number;
  recognised: number;
  /** Fields the analyst corrected on the first documents. */
  corrections: number;
}

export async function secondInvoiceThroughService(documents: readonly CorpusDocument[], corpusDir: string): Promise<ServicePathResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recto-bench-fields-service-'));
  const session = sessionIn(dir);
  const dispatch = contractOf(session);
  try {
    await call(dispatch, 'project.create', { path: path.join(dir, 'suppliers.recto') });
    const families = [...new Set(documents.map((d) => d.family))].filter((f) => documents.filter((d) => d.family === f).length >= 2);
    const firsts = families.map((f) => documents.find((d) => d.family === f)!);
    const rest = documents.filter((d) => families.includes(d.family) && !firsts.includes(d));
    const importAll = async (docs: readonly CorpusDocument[]): Promise<Map<string, string>> => {
      await call(dispatch, 'documents.importPaths', { paths: docs.map((d) => path.join(corpusDir, 'pdfs', d.name)) });
      await session.queue.idle();
      const listed = await call<DocumentSummary[]>(dispatch, 'documents.list', {});
      return new Map(listed.map((d) => [d.name, d.pages[0]!.id]));
    };
    let corrections = 0;
    const firstPages = await importAll(firsts);
    for (const doc of firsts) {
      const pageId = firstPages.get(doc.name)!;
      const shown = await call<DocumentFields>(dispatch, 'fields.document', { pageId });
      for (const field of benchKeyFields) {
        const truth = doc.confirmed[field];
        if (truth === null || valueRight(field, truth, (shown.engine?.values[field] as string | number | null) ?? null)) continue;
        await call(dispatch, 'fields.save', { pageId, field, value: truth });
        corrections++;
      }
      await call(dispatch, 'suppliers.approve', { pageId });
    }
    const pages = await importAll(rest);
    const values: ScoredValue[] = [];
    let recognised = 0;
    for (const doc of rest) {
      const pageId = pages.get(doc.name)!;
      const shown = await call<DocumentFields>(dispatch, 'fields.document', { pageId });
      const sources = (session.store.readings.latestExtractionOrNull(pageId)?.fields?.invoiceSources ?? {}) as Record<string, { source?: string }>;
      if (session.store.readings.latestExtractionOrNull(pageId)?.fields?.supplierMemory) recognised++;
      for (const field of benchKeyFields) {
        const expected = doc.printed[field];
        if (expected === undefined) continue;
        const actual = (shown.engine?.values[field] as string | number | null | undefined) ?? null;
        values.push({
          document: doc.name,
          family: doc.family,
          field,
          right: valueRight(field, expected, actual),
          value: actual,
          confidence: shown.engine?.sources[field]?.confidence ?? 0,
          fromMemory: sources[field]?.source === MEMORY_SOURCE,
        });
      }
    }
    return { values, read: rest.length, recognised, corrections };
  } finally {
    await session.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
