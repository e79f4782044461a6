/**
 * schemaLayerBench.ts's cold measurement on the compiled module (dist/, as the app and `recto` run it, without tsx's
 * loader): one invoice checked twice in a fresh thread — the first check loads libxml2 and compiles the XSD.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { moduleUrl, xml, target } = workerData;
const { checkSchemas } = await import(moduleUrl);

async function timed() {
  const start = process.hrtime.bigint();
  const [check] = await checkSchemas([{ xml, target }]);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, schema: check.verdict.schema };
}

const first = await timed();
const second = await timed();
parentPort.postMessage({ firstMs: first.ms, secondMs: second.ms, schema: first.schema });
