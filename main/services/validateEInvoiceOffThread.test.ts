/**
 * Validation off the main thread (issue 36): a large invoice is read and checked in a worker, so the event loop keeps
 * running meanwhile; the worker's report equals the in-thread one; past its time limit the worker is stopped.
 */
import { describe, expect, it } from 'vitest';
import { validateEInvoiceXml } from '../../app/en16931/index.js';
import { idleValidationWorkerThreadId, validateEInvoiceOffThread, validateEInvoicesOffThread } from './validateEInvoiceOffThread.js';

const NS = 'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';
const line = (n: number) =>
  `<cac:InvoiceLine><cbc:ID>${n}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">1.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>item</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">1.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>`;
const invoice = (lines: number) =>
  new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n<Invoice ${NS}><cbc:ID>1</cbc:ID><cbc:IssueDate>2024-01-31</cbc:IssueDate><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>${Array.from({ length: lines }, (_, i) => line(i + 1)).join('')}</Invoice>`);

describe('validateEInvoiceOffThread', () => {
  it('gives the in-thread report, while the main thread keeps running', async () => {
    const xml = invoice(4000);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    let result;
    try {
      result = await validateEInvoiceOffThread(xml);
    } finally {
      clearInterval(ticker);
    }
    // The same work on this thread would let no timer fire until it ends.
    expect(ticks).toBeGreaterThan(0);
    // The worker adds the schema layer to the in-thread report: this invoice lacks the parties and totals the UBL 2.1
    // XSD requires, so its schema findings come first and the rule findings are the in-thread ones.
    const { schema, failed, valid, ...rest } = result.report;
    const { failed: ruleFailures, valid: _rulesValid, ...inThread } = validateEInvoiceXml(xml);
    expect(rest).toEqual(inThread);
    expect(failed.filter((f) => f.layer !== 'schema')).toEqual(ruleFailures);
    expect(failed[0]).toMatchObject({ id: 'XSD', layer: 'schema' });
    expect(schema).toEqual({ checked: true, schema: 'UBL 2.1 Invoice XSD', valid: false });
    expect(valid).toBe(false);
    expect(result.invoice.lines).toHaveLength(4000);
  }, 60_000);

  it('stops a validation past its time limit and says so; refuses unreadable XML with the reason', async () => {
    await expect(validateEInvoiceOffThread(invoice(2000), 1)).rejects.toThrow(/could not be validated within/);
    await expect(validateEInvoiceOffThread(new TextEncoder().encode('<Invoice>&#x0;</Invoice>'))).rejects.toThrow(/not well-formed/);
  }, 60_000);

  it('validates a batch in one worker, each XML with its own verdict; one past its limit is given up and the rest go on', async () => {
    const broken = new TextEncoder().encode('<Invoice>&#x0;</Invoice>');
    const results = await validateEInvoicesOffThread([invoice(3), broken, invoice(5)]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(results[1]).toMatchObject({ ok: false, message: expect.stringMatching(/not well-formed/) });
    expect(results[2]!.ok && results[2]!.invoice.lines).toHaveLength(5);
    const late = await validateEInvoicesOffThread([invoice(2000), invoice(2000), invoice(2000)], 1);
    expect(late).toHaveLength(3);
    expect(late.every((r) => !r.ok && /within/.test(r.message))).toBe(true);
  }, 120_000);

  it('keeps the worker that finished its batch for the next (libxml2 and the XSDs loaded once); not one stopped or past the size', async () => {
    await validateEInvoicesOffThread([invoice(3)]);
    const kept = idleValidationWorkerThreadId();
    expect(kept).not.toBeNull();
    const [again] = await validateEInvoicesOffThread([invoice(4)]);
    expect(again!.ok).toBe(true);
    expect(idleValidationWorkerThreadId()).toBe(kept);
    // Stopped past its time limit: that worker is not kept.
    await validateEInvoicesOffThread([invoice(2000)], 1);
    expect(idleValidationWorkerThreadId()).toBeNull();
    // An XML over 2 MB: its worker's WebAssembly memory grew for it, so it is stopped after the batch.
    const [large] = await validateEInvoicesOffThread([invoice(9000)]);
    expect(large!.ok).toBe(true);
    expect(idleValidationWorkerThreadId()).toBeNull();
  }, 120_000);
});
