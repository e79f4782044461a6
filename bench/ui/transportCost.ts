/**
 * `npx tsx bench/ui/transportCost.ts [--requests N]`: what one request costs a page in Debian's Chromium, as `fetch`
 * (the HTTP path) against a message on an open WebSocket (the path the browser shell's renderer takes): the main
 * thread's time to send, and the round trip, against a local echo server that answers both with the same 2 KB body.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';
import { launchChromium } from '../../e2e/support/chromium.js';

const { values } = parseArgs({ options: { requests: { type: 'string' } } });
const requests = Number(values.requests ?? 200);
const reply = (length: number) => JSON.stringify({ ok: true, result: { echo: length, pad: 'x'.repeat(2000) } });
const server = http.createServer((request, response) => {
  if (request.url === '/') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>transport</title>');
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk));
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(reply(body.length)));
});
new WebSocketServer({ server }).on('connection', (socket) => socket.on('message', (data) => socket.send(reply(String(data).length))));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  // A string, not a function: tsx would wrap named helpers in a __name() the page does not have.
  const result = (await page.evaluate(`(async (n) => {
    let fetchSend = 0, fetchTrip = 0, socketSend = 0, socketTrip = 0;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const pending = fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json', 'x-recto-token': 't' }, body: JSON.stringify({ pageId: 'p' + i }) });
      fetchSend += performance.now() - t0;
      await (await pending).json();
      fetchTrip += performance.now() - t0;
    }
    const socket = new WebSocket(location.origin.replace('http', 'ws'));
    await new Promise((resolve) => (socket.onopen = resolve));
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const answered = new Promise((resolve) => (socket.onmessage = (message) => resolve(JSON.parse(message.data))));
      socket.send(JSON.stringify({ pageId: 'p' + i }));
      socketSend += performance.now() - t0;
      await answered;
      socketTrip += performance.now() - t0;
    }
    return { fetchSend: fetchSend / n, fetchTrip: fetchTrip / n, socketSend: socketSend / n, socketTrip: socketTrip / n };
  })(${requests})`)) as { fetchSend: number; fetchTrip: number; socketSend: number; socketTrip: number };
  console.log(`${requests} requests each, ms per request (main thread to send / round trip)`);
  console.log(`fetch      ${result.fetchSend.toFixed(2)} / ${result.fetchTrip.toFixed(2)}`);
  console.log(`WebSocket  ${result.socketSend.toFixed(2)} / ${result.socketTrip.toFixed(2)}   (× ${(result.fetchSend / result.socketSend).toFixed(1)} / × ${(result.fetchTrip / result.socketTrip).toFixed(1)} cheaper)`);
} finally {
  await browser.close();
  server.close();
}
