/**
 * The engine worker thread: owns the onnxruntime sessions, so `session.run` (synchronous on its thread) never blocks
 * the main process's event loop. Reads one page at a time; cancellation is a shared flag polled between steps.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerInit } from './engineProtocol.js';
import { PageReader } from './pageReader.js';

const STATS_INTERVAL_MS = 250;
const port = parentPort;
if (!port) throw new Error('engineWorker.ts must run in a worker thread');
const send = (message: FromWorker) => port.postMessage(message);

const init = workerData as WorkerInit;
let reader: PageReader;
try {
  reader = await PageReader.open(init.packDir, { provider: init.provider, threads: init.threads });
  send({ type: 'ready', info: reader.info });
} catch (error) {
  send({ type: 'open-failed', message: (error as Error).message });
  process.exit(0);
}

// One read at a time, in arrival order.
let queue = Promise.resolve();
port.on('message', (message: ToWorker) => {
  if (message.type === 'crash-for-test') process.exit(70);
  queue = queue.then(() => read(message));
});

async function read(message: Extract<ToWorker, { type: 'read' }>): Promise<void> {
  const cancel = new Int32Array(message.cancelFlag);
  try {
    send({ type: 'progress', id: message.id, fraction: 0, message: 'encoding the page image' });
    let lastStats = Number.NEGATIVE_INFINITY; // the first step reports at once
    const result = await reader.read(message.imagePath, message.settings, {
      onText: (text) => send({ type: 'text', id: message.id, text }),
      // Throttled: a message per step would flood the main side on fast providers.
      onStats: (stats) => {
        const now = performance.now();
        if (now - lastStats < STATS_INTERVAL_MS) return;
        lastStats = now;
        send({ type: 'stats', id: message.id, stats });
        send({ type: 'progress', id: message.id, fraction: stats.tokens / stats.maxNewTokens, message: `${stats.tokens} tokens` });
      },
      shouldStop: () => Atomics.load(cancel, 0) === 1,
    });
    const { raw: _raw, ...rest } = result;
    send({ type: 'done', id: message.id, result: rest });
  } catch (error) {
    send({ type: 'failed', id: message.id, message: (error as Error).message });
  }
}
