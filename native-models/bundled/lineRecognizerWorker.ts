/**
 * The line recognizer's worker thread: owns PP-OCR's recognizer session, so `session.run` (synchronous on its
 * thread) never blocks the event loop that tesseract's workers and the app's services share. One line at a time, in
 * arrival order: not in batches, which on one thread are no faster and, padded to a common width, read differently
 * (the model's attention spans the line; docs/benchmarks.md, "The second reader's cost"). Only each frame's best
 * class and probability go back (the full T × 6625 output stays here).
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { bestPerFrame } from './lineCtc.js';
import { simplifyLineModel } from './lineModelGraph.js';
import type { LineWorkerInit, LineWorkerReply, LineWorkerRequest } from './lineRecognizerProtocol.js';

const port = parentPort;
if (!port) throw new Error('lineRecognizerWorker.ts must run in a worker thread');
const send = (message: LineWorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const init = workerData as LineWorkerInit;
// One intra-op thread: the engine already reads one page per core with tesseract.
const options: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionProviders: ['cpu'] };
let session: ort.InferenceSession;
try {
  session = (!init.asShipped && (await rewrittenSession(init.model))) || (await ort.InferenceSession.create(init.model, options));
  send({ type: 'ready' });
} catch (error) {
  send({ type: 'open-failed', message: (error as Error).message });
  process.exit(0);
}

/**
 * The session on the graph with its element-wise chains folded into the convolutions (lineModelGraph.ts: the same
 * readings at three quarters of the CPU); null where the rewrite cannot parse the graph or onnxruntime refuses what it
 * wrote — the graph as shipped is then loaded instead, which reads the same, only slower.
 */
async function rewrittenSession(model: Uint8Array): Promise<ort.InferenceSession | null> {
  try {
    return await ort.InferenceSession.create(simplifyLineModel(model).model, options);
  } catch {
    return null;
  }
}

let queue = Promise.resolve();
port.on('message', (message: LineWorkerRequest) => {
  queue = queue.then(() => run(message));
});

async function run(message: LineWorkerRequest): Promise<void> {
  try {
    const input = new ort.Tensor('float32', message.pixels, [1, 3, message.height, message.width]);
    const outputs = await session.run({ [session.inputNames[0]!]: input });
    const output = outputs[session.outputNames[0]!]!;
    const [, frames, classes] = output.dims as number[];
    const best = bestPerFrame(output.data as Float32Array, frames!, classes!);
    send({ type: 'done', id: message.id, classes: best.classes, probabilities: best.probabilities }, [best.classes.buffer as ArrayBuffer, best.probabilities.buffer as ArrayBuffer]);
  } catch (error) {
    send({ type: 'failed', id: message.id, message: (error as Error).message });
  }
}
