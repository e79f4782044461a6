/**
 * The repro cases of issue 23 as functions, each run alone in a child process by benchHostile.ts (so its peak RSS is
 * its own). `before` replays the code path the fix replaced (the old amount pattern, pdf.js inflating every
 * attachment, rendering a whole stored source, an XML without a page cap); `after` is the product as it is now.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { parseXmlDecimal } from '../../app/numbers/index.js';
import { inspectFile } from '../../main/composition/createRectoSession.js';
import { EventBus } from '../../main/events/eventBus.js';
import { importDocument } from '../../main/import/importDocument.js';
import { readEmbeddedEInvoice } from '../../main/import/pdfAttachments.js';
import { readEInvoiceOffThread } from '../../main/import/readEInvoiceOffThread.js';
import { loadPdfjs, pdfjsNodeParameters } from '../../main/import/pdfjsNode.js';
import { PageImageCache } from '../../main/services/pageImageCache.js';
import { startBrowserServer } from '../../main/shells/browser/browserServer.js';
import { openAiRoutes } from '../../main/shells/browser/openAiRoutes.js';
import { bombPdf, efMarkerPdf, hugePng, objectStreamBombPdf } from '../../testing/hostilePdfs.js';
import { validateEInvoiceXml } from '../../app/en16931/index.js';
import { validateEInvoiceOffThread } from '../../main/services/validateEInvoiceOffThread.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { sizeCases } from '../validate/sizeScaling.js';

export type Variant = 'before' | 'after';
/** What a case reports besides time and memory: its outcome in a few words. */
export type CaseRun = (variant: Variant, work: string, prepared?: unknown) => Promise<string>;

const ciiWithTotal = (total: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocument><ram:ID>INV-1</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:GrandTotalAmount>${total}</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;

/** The amount pattern the e-invoice reader used before app/numbers. */
const oldDecimal = /^[-+]?(?:\d+\.?\d*|\.\d+)$/;

async function pdfOfPages(count: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < count; i++) pdf.addPage([595, 842]);
  return Buffer.from(await pdf.save());
}

/** A CII whose readable layout runs to thousands of pages (~9 MB, as the issue's repro). */
function longCii(): string {
  const head = ciiWithTotal('10.00');
  const item = (i: number) =>
    `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>${i}</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Item ${i} with a name long enough to fill a line of the page</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>1.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>`;
  const items = Array.from({ length: 18_000 }, (_, i) => item(i + 1)).join('');
  return head.replace('<rsm:SupplyChainTradeTransaction>', `<rsm:SupplyChainTradeTransaction>${items}`);
}

/**
 * `prepare` builds a case's input before the child starts timing (what it returns is `run`'s third argument), so a
 * large generated input does not count as the product's time or stall.
 */
export const cases: Record<string, { hole: string; prepare?: () => Promise<unknown> | unknown; run: CaseRun }> = {
  'xml-amount-digits': {
    hole: '1: amount of 130,000 digits + a letter in a 138 KB CII',
    run: async (variant) => {
      const digits = `${'1'.repeat(130_000)}x`;
      if (variant === 'before') return `old pattern matched: ${oldDecimal.test(digits)}`;
      // As import reads it: in a worker thread (readEInvoiceOffThread), so the event loop is not held.
      const invoice = await readEInvoiceOffThread(new TextEncoder().encode(ciiWithTotal(digits)), 'digits.xml');
      return `read; total ${invoice.fields.total?.value ?? 'absent'}; parseXmlDecimal ${parseXmlDecimal(digits)}`;
    },
  },
  'attachment-bomb': {
    hole: '2: PDF (1 MB) whose attachment inflates to 512 MB',
    run: async (variant, work) => {
      const pdf = bombPdf({ inflatedBytes: 512 * 1024 * 1024, declaredSize: null });
      if (variant === 'before') {
        const pdfjs = await loadPdfjs();
        const document = await pdfjs.getDocument({ ...pdfjsNodeParameters, data: pdf.slice() }).promise;
        const listed = (await document.getAttachments()) as Record<string, { content: Uint8Array }>;
        const size = Object.values(listed)[0]?.content.byteLength ?? 0;
        await document.destroy();
        return `pdf.js inflated ${Math.round(size / 1024 / 1024)} MB`;
      }
      void work;
      const result = await readEmbeddedEInvoice(pdf);
      return result.status === 'refused' ? `refused: ${result.message.slice(0, 60)}` : result.status;
    },
  },
  'cache-rerender': {
    hole: '3: one lost page of a 300-page stored source',
    run: async (variant, work) => {
      const bytes = await pdfOfPages(300);
      const source = path.join(work, 'source.pdf');
      fs.writeFileSync(source, bytes);
      if (variant === 'before') {
        const document = await importDocument(source, path.join(work, 'cache'), { maxPages: Number.MAX_SAFE_INTEGER });
        return `${document.pages.length} pages rendered`;
      }
      const { createHash } = await import('node:crypto');
      const cache = new PageImageCache(path.join(work, 'cache'), inspectFile, () => 2000);
      const image = await cache.ensure(createHash('sha256').update(bytes).digest('hex'), 1, 'long.pdf', () => bytes);
      return `${fs.readdirSync(path.dirname(image)).length} page rendered`;
    },
  },
  'xml-page-cap': {
    hole: '4: standalone 9 MB XML laid out as thousands of pages',
    run: async (variant, work) => {
      const file = path.join(work, 'long.xml');
      fs.writeFileSync(file, longCii());
      // The user's cap (maxPagesPerDocument) set to 100 for the run; before the fix the XML path ignored any cap.
      const maxPages = variant === 'before' ? Number.MAX_SAFE_INTEGER : 100;
      try {
        const document = await importDocument(file, path.join(work, 'cache'), { maxPages });
        return `${document.pages.length} pages rendered (${(fs.statSync(file).size / 1e6).toFixed(1)} MB)`;
      } catch (error) {
        return `refused: ${(error as Error).message.replace(/^.*\): /, '').slice(0, 70)}`;
      }
    },
  },
  'attachment-ef-markers-1mib': {
    hole: '36: PDF (1 MiB) full of /EF markers',
    prepare: () => efMarkerPdf(1 << 20),
    run: async (_variant, _work, pdf) => embeddedOutcome(await readEmbeddedEInvoice(pdf as Uint8Array)),
  },
  'attachment-ef-markers-2mib': {
    hole: '36: PDF (2 MiB) full of /EF markers',
    prepare: () => efMarkerPdf(2 << 20),
    run: async (_variant, _work, pdf) => embeddedOutcome(await readEmbeddedEInvoice(pdf as Uint8Array)),
  },
  'attachment-objstm-bomb': {
    hole: '36: object stream (in a 1 MB PDF) inflating to 1 GiB',
    prepare: () => objectStreamBombPdf(1 << 30),
    run: async (_variant, _work, pdf) => embeddedOutcome(await readEmbeddedEInvoice(pdf as Uint8Array)),
  },
  'validate-16000-empty-lines': {
    hole: '36: UBL invoice with 16,000 empty lines (551 KB) validated',
    prepare: () => issue36Invoice('16,000 empty lines'),
    run: async (variant, _work, xml) => validationOutcome(variant, xml as string | null),
  },
  'validate-6000-full-lines': {
    hole: '36: UBL invoice with 6,000 full lines (4.2 MB) validated',
    prepare: () => issue36Invoice('6,000 full lines'),
    run: async (variant, _work, xml) => validationOutcome(variant, xml as string | null),
  },
  'v1-sliver-image': {
    hole: '7: /v1 with a 1 × 100,000,000 px PNG',
    run: async (_variant, work) => v1Case(work, async (post) => `HTTP ${await post(await sliverPng())}`),
  },
  'v1-long-prompt': {
    hole: '7: /v1 with a 4,000,000-character prompt',
    run: async (_variant, work) => v1Case(work, async (post) => `HTTP ${await post(await smallPng(), 'x'.repeat(4_000_000))}`),
  },
  'v1-concurrent-uploads': {
    hole: '8: /v1, 24 concurrent 48 MB uploads',
    run: async (_variant, work) =>
      v1Case(work, async (post) => {
        const body = Buffer.alloc(47 * 1024 * 1024, 0x61);
        const statuses = await Promise.all(Array.from({ length: 24 }, () => post(null, '', body)));
        const counts = new Map<number, number>();
        for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
        return [...counts].map(([s, n]) => `${n}× ${s}`).join(', ');
      }),
  },
};

/**
 * Issue 36's two invoice shapes, grown as `bench:validate` grows them (bench/validate/sizeScaling.ts) from the same
 * real UBL invoice; null where testdata is absent.
 */
function issue36Invoice(name: string): string | null {
  const base = path.join(defaultTestdataRoot, 'einvoice-corpus', 'xml', 'ubl', 'EN16931_OEPNV.ubl.xml');
  if (!fs.existsSync(base)) return null;
  return sizeCases(fs.readFileSync(base, 'utf8')).find((c) => c.name === name)?.xml ?? null;
}

/**
 * `after`: the app's path (the server's `einvoice.validation`, curation, approvals): a worker with a time and heap
 * limit (validateEInvoiceOffThread). `before`: the same validation on the calling thread, as before the worker (and as
 * the in-thread fallback still does).
 */
async function validationOutcome(variant: Variant, xml: string | null): Promise<string> {
  if (xml === null) return `skipped: ${path.join(defaultTestdataRoot, 'einvoice-corpus')} is absent`;
  const bytes = new TextEncoder().encode(xml);
  const report = variant === 'after' ? (await validateEInvoiceOffThread(bytes)).report : validateEInvoiceXml(bytes);
  const fatal = report.failed.filter((f) => f.flag === 'fatal').length;
  return `${fatal === 0 ? 'valid' : 'invalid'}, ${fatal} fatal finding(s)`;
}

function embeddedOutcome(result: Awaited<ReturnType<typeof readEmbeddedEInvoice>>): string {
  return result.status === 'none' ? 'no e-invoice' : `${result.status} ${result.fileName}`;
}

async function smallPng(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 60, channels: 3, background: '#fff' } }).png().toBuffer();
}

/** A real 1 × 100,000,000 px PNG (~200 KB), as in the issue's repro. */
async function sliverPng(): Promise<Buffer> {
  return hugePng(1, 100_000_000);
}

/** Starts the browser server with /v1 over an engine that answers at once, and runs `act` against it. */
async function v1Case(work: string, act: (post: (image: Buffer | null, prompt?: string, raw?: Buffer) => Promise<number>) => Promise<string>): Promise<string> {
  fs.mkdirSync(path.join(work, 'renderer'), { recursive: true });
  fs.writeFileSync(path.join(work, 'renderer', 'index.html'), '<!doctype html>');
  const apiKey = 'recto-v1-bench-key-0123456789';
  const server = await startBrowserServer({
    dispatch: async () => ({ ok: true, result: null }),
    bus: new EventBus(),
    pageImagePath: async () => path.join(work, 'none.png'),
    rendererDir: path.join(work, 'renderer'),
    extraRoutes: openAiRoutes({
      modelId: 'm',
      apiKey,
      licence: null,
      scratchDir: path.join(work, 'scratch'),
      model: async () => ({ packInfo: async () => ({ maxPositions: 8192 }), readText: async () => ({ text: 'ok', tokens: 1, promptTokens: 1, hitMaxTokens: false }) }),
    }),
  });
  const post = (image: Buffer | null, prompt = 'Read.', raw?: Buffer): Promise<number> =>
    new Promise((resolve) => {
      const body =
        raw ??
        Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${image!.toString('base64')}` } }, { type: 'text', text: prompt }] }] }));
      const req = http.request(
        { host: '127.0.0.1', port: server.port, path: '/v1/chat/completions', method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  try {
    return await act(post);
  } finally {
    await server.close();
  }
}

export const tmpWork = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'recto-bench-hostile-'));
