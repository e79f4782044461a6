/**
 * The worker thread of schemaLayerBench.ts's cold measurement: one invoice checked twice in a fresh thread — the first
 * check loads libxml2 and compiles the XSD, as the validation worker's first document of that schema does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SchemaTarget } from '../../app/en16931/index.js';
import { checkSchemas } from '../../main/import/einvoiceSchemaCheck.js';

const { xml, target } = workerData as { xml: Uint8Array; target: SchemaTarget };

async function timed(): Promise<{ ms: number; schema: string }> {
  const start = process.hrtime.bigint();
  const [check] = await checkSchemas([{ xml, target }]);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, schema: check!.verdict.schema };
}

const first = await timed();
const second = await timed();
parentPort!.postMessage({ firstMs: first.ms, secondMs: second.ms, schema: first.schema });
