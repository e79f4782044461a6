/**
 * The invoice queue's requests through the contract's one door (validated requests and replies): the queue's rows,
 * assignment and claims with their events, presence in the rows, and `me` from the reviewer name.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../app/contract/events.js';
import { addReadDocument, invoiceReading } from '../../testing/invoiceReadings.js';
import { okDispatch, sessionIn } from '../../testing/realInvoiceProject.js';
import type { RectoSession } from './rectoSession.js';

let dir: string;
let session: RectoSession;
let call: ReturnType<typeof okDispatch>;
const events: EventEnvelope[] = [];
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-queue-handlers-'));
  session = sessionIn(dir);
  call = okDispatch(session);
  await call('project.create', { path: path.join(dir, 'p.recto') });
  session.settings.update({ authorName: 'Ada' });
  events.length = 0;
  session.bus.subscribe((envelope) => events.push(envelope));
});
afterEach(async () => {
  await session.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Queue = { rows: { documentId: string; assignee: string | null; claimedBy: string | null; openBy: string[] }[]; me: string };

describe('invoice queue requests', () => {
  it('answer rows with assignee, claim and presence; each change announces itself', async () => {
    const { documentId, pageId } = addReadDocument(session.store, 'a.pdf', invoiceReading({ invoice_number: 'A-1', total: 5 }));
    await call('work.assign', { documentId, assignee: 'Bo' });
    await call('work.claim', { documentId });
    await call('presence.set', { viewer: 'window-1234-abcd', pageId });
    const queue = await call<Queue>('invoices.queue', {});
    expect(queue.me).toBe('Ada');
    expect(queue.rows[0]).toMatchObject({ documentId, assignee: 'Bo', claimedBy: 'Ada', openBy: ['Ada'] });
    expect(events.map((e) => e.event)).toEqual(['work.changed', 'work.changed', 'presence.changed']);
    expect(await call('work.state', { pageId })).toMatchObject({ assignee: 'Bo', claimedBy: 'Ada', openBy: ['Ada'], me: 'Ada' });
    await call('presence.set', { viewer: 'window-1234-abcd', pageId: null });
    expect((await call<Queue>('invoices.queue', {})).rows[0]!.openBy).toEqual([]);
  });

  it("refuses another's claim by name unless taken over, and a blank assignee", async () => {
    const { documentId } = addReadDocument(session.store, 'a.pdf', invoiceReading({ invoice_number: 'A-1', total: 5 }));
    session.settings.update({ authorName: 'Bo' });
    await call('work.claim', { documentId });
    session.settings.update({ authorName: 'Ada' });
    await expect(call('work.claim', { documentId })).rejects.toThrow(/claimed by Bo/);
    expect(await call('work.claim', { documentId, force: true })).toMatchObject({ claimedBy: 'Ada', previous: 'Bo' });
    await expect(call('work.assign', { documentId, assignee: '  ' })).rejects.toThrow(/bad-request|Invalid/);
  });

  it('approves clean invoices through the contract and announces each', async () => {
    const page = { markdown: 'Invoice', elements: [{ id: 'e1', kind: 'text' as const, box: [0, 0, 10, 10] as [number, number, number, number], span: [0, 7] as [number, number], confidence: null }] };
    const invoice = { invoice_number: 'R-1', issue_date: '2024-01-02', due_date: null, seller: 'Muster GmbH', buyer: 'Beispiel AG', currency: 'EUR', subtotal: 10, tax: 1.9, total: 11.9, lines: [{ description: 'Work', quantity: 1, unit_price: 10, amount: 10 }] };
    const { documentId } = addReadDocument(session.store, 'clean.pdf', invoiceReading(invoice, page));
    const reply = await call<{ approved: { documentId: string }[]; skipped: unknown[] }>('invoices.approveClean', { documentIds: [documentId] });
    expect(reply.approved.map((a) => a.documentId)).toEqual([documentId]);
    expect(events.filter((e) => e.event === 'page.updated')).toHaveLength(1);
    expect(session.store.reviewEvents.latest(session.store.documents.getDocument(documentId).pages[0]!.id)).toMatchObject({ status: 'approved', reviewer: 'Ada' });
  });
});
