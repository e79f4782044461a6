import { Worker } from 'node:worker_threads';
const url = new URL('./wk.ts', import.meta.url).href;
const code = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(url)}, ${JSON.stringify(import.meta.url)}))`;
const w = new Worker(code, { eval: true });
w.on('message', (m) => { console.log('msg', m); w.terminate(); });
w.on('error', (e) => console.log('err', e.message));
