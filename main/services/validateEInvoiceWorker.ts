/**
 * The worker thread of validateEInvoiceOffThread: for each job it is sent, reads and validates each e-invoice XML in
 * turn — well-formedness and rules, then the schema layer (main/import/einvoiceSchemaCheck.ts) for a chunk of them —
 * and posts, per XML, the model and report or the refusal, then `done`. The thread is kept between jobs
 * (validateEInvoiceOffThread.ts), so libxml2 and each compiled XSD are loaded once for many jobs.
 */
import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { EInvoiceError, readSemanticInvoice, validateEInvoiceXml, withSchemaVerdict, type RulesChoice, type SemanticInvoice, type ValidationReport } from '../../app/en16931/index.js';
import { checkSchemas } from '../import/einvoiceSchemaCheck.js';

/**
 * XMLs checked in one pass of each layer before their results are posted: consecutive ones up to this many bytes (at
 * least one), so that a chunk's time stays far under the per-XML time limit the parent keeps.
 */
const CHUNK_BYTES = 1024 * 1024;
const CHUNK_COUNT = 64;

export interface ValidationJob {
  xmls: Uint8Array[];
  rules?: RulesChoice;
  reportOnly?: boolean;
}

type Validated = { ok: true; invoice: SemanticInvoice | null; report: ValidationReport } | { ok: false; message: string; code?: string };

async function run({ xmls, rules, reportOnly }: ValidationJob): Promise<void> {
  let start = 0;
  while (start < xmls.length) {
    let end = start;
    let bytes = 0;
    do bytes += xmls[end++]!.byteLength;
    while (end < xmls.length && end - start < CHUNK_COUNT && bytes + xmls[end]!.byteLength <= CHUNK_BYTES);
    const chunk: Validated[] = xmls.slice(start, end).map((xml) => {
      try {
        // reportOnly (recto validate): no second read of the XML into the model, and nothing large to send back.
        return { ok: true, invoice: reportOnly ? null : readSemanticInvoice(xml), report: validateEInvoiceXml(xml, rules ? { rules } : {}) };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error), ...(error instanceof EInvoiceError ? { code: error.code } : {}) };
      }
    });
    const toCheck = chunk.flatMap((v, i) => (v.ok && v.report.schemaTarget ? [{ i, xml: xmls[start + i]!, target: v.report.schemaTarget }] : []));
    const checks = await checkSchemas(toCheck);
    toCheck.forEach(({ i }, k) => {
      const v = chunk[i] as Extract<Validated, { ok: true }>;
      chunk[i] = { ...v, report: withSchemaVerdict(v.report, checks[k]!.verdict, checks[k]!.findings) };
    });
    // The model goes back serialized (one byte array, copied in a few ms): the parent deserializes it only where it is
    // used — a structured clone of a 6,000-line model held the parent's event loop 145 ms on arrival.
    chunk.forEach((result, i) => {
      if (!result.ok || result.invoice === null) return parentPort!.postMessage({ index: start + i, ...result });
      const { invoice, ...rest } = result;
      parentPort!.postMessage({ index: start + i, ...rest, invoiceBytes: serialize(invoice) });
    });
    start = end;
  }
  parentPort!.postMessage({ done: true });
}

// One job at a time, in the order they come (the parent sends the next only after `done`; chained all the same).
let queue = Promise.resolve();
parentPort!.on('message', (job: ValidationJob) => {
  queue = queue.then(() => run(job));
});
