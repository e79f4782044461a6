/**
 * Issue 23: the reading queue reads a document's stored e-invoice in a worker. The same read as the store's own
 * (`DocumentEInvoicesRepository.get`), and a long invoice (a real CII with its line repeated) holds the event loop for
 * a small fraction of what reading it on this thread does — a ratio within one run, not a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { readEInvoice } from '../../app/einvoice/index.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { readStoredEInvoice } from './storedEInvoice.js';

const cii = path.join(defaultTestdataRoot, 'einvoices', 'xml', 'cii', 'EN16931_Gutschrift.cii.xml');
const available = fs.existsSync(cii);
if (!available) console.log(`SKIPPED: stored e-invoice read off-thread: ${cii} is absent`);

/** Line items added to make a multi-megabyte invoice (a few MB, under MAX_EINVOICE_BYTES). */
const REPEATED_LINES = 3000;
const MAX_STALL_RATIO = 0.25;

const storedAs = (fileName: string, xml: Uint8Array) => ({ getStored: () => ({ status: 'stored' as const, fileName, xml }) });

async function longestStall<T>(work: () => Promise<T> | T): Promise<{ result: T; stallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    // A timer turn first, so a synchronous read is measured as the stall it is.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { result, stallMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

describe.runIf(available)('readStoredEInvoice', () => {
  it('reads as the store does, and a refused XML reads as refused', async () => {
    const xml = new Uint8Array(fs.readFileSync(cii));
    const read = await readStoredEInvoice(storedAs('x.xml', xml), 'doc');
    expect(read).toEqual({ status: 'read', fileName: 'x.xml', invoice: readEInvoice(xml, 'x.xml'), xml });
    const refused = await readStoredEInvoice(storedAs('bad.xml', new TextEncoder().encode('<Invoice>')), 'doc');
    expect(refused).toMatchObject({ status: 'refused', fileName: 'bad.xml' });
    expect(await readStoredEInvoice({ getStored: () => null }, 'doc')).toBeNull();
  });

  it('keeps the event loop responsive while the same XML stalls it on the main thread', async () => {
    const text = fs.readFileSync(cii, 'utf8');
    const line = /<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>/.exec(text)![0];
    const xml = new TextEncoder().encode(text.replace(line, line.repeat(REPEATED_LINES)));
    const offThread = await longestStall(() => readStoredEInvoice(storedAs('long.xml', xml), 'doc'));
    const onThread = await longestStall(() => readEInvoice(xml, 'long.xml'));
    console.log(`longest event-loop stall reading a ${(xml.length / 1e6).toFixed(1)} MB CII: main thread ${onThread.stallMs.toFixed(0)} ms, worker ${offThread.stallMs.toFixed(0)} ms`);
    expect(offThread.result).toMatchObject({ status: 'read', invoice: { lines: onThread.result.lines } });
    expect(offThread.stallMs).toBeLessThan(onThread.stallMs * MAX_STALL_RATIO);
  });
});
