import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../app/contract/attention.js';
import type { EInvoiceValidation } from '../../app/contract/einvoiceValidation.js';
import { contractOf, sessionIn } from '../../testing/realInvoiceProject.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';

const xml = path.join(defaultTestdataRoot, 'einvoices', 'xml', 'ubl', 'EN16931_Miete.ubl.xml');
const available = fs.existsSync(xml);
if (!available) console.log(`SKIPPED: e-invoice validation in the review: ${xml} is absent`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-einvoice-validation-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.runIf(available)('einvoice.validation and the needs-attention queue', () => {
  it('reports the XML, then the analyst’s corrections and drafts, re-validated', async () => {
    const session = sessionIn(dir);
    const dispatch = contractOf(session);
    try {
      await dispatch('project.create', { path: path.join(dir, 'p.recto') });
      await dispatch('documents.importPaths', { paths: [xml] });
      await session.queue.idle();
      const listed = await dispatch('documents.list', {});
      if (!listed.ok) throw new Error('documents.list failed');
      const pageId = (listed.result as { pages: { id: string }[] }[])[0]!.pages[0]!.id;

      const asRead = await dispatch('einvoice.validation', { pageId });
      expect(asRead.ok).toBe(true);
      if (!asRead.ok) return;
      expect(asRead.result).toMatchObject({ syntax: 'UBL-Invoice', valid: true, edited: [] });

      // A draft amount due that no longer equals total − prepaid: BR-CO-16 fires, on the field it concerns.
      const draft = await dispatch('einvoice.validation', { pageId, drafts: [{ field: 'amount_due', value: 1 }] });
      if (!draft.ok) throw new Error(JSON.stringify(draft));
      const drafted = draft.result as EInvoiceValidation;
      expect(drafted.valid).toBe(false);
      expect(drafted.failed.find((f) => f.id === 'BR-CO-16')).toMatchObject({ flag: 'fatal', bt: expect.arrayContaining(['BT-115']) });
      expect(drafted.edited).toEqual(['amount_due']);

      // Saved, the correction stays in the report and puts the page in the needs-attention queue.
      await dispatch('fields.save', { pageId, field: 'amount_due', value: 1 });
      const saved = await dispatch('einvoice.validation', { pageId });
      if (!saved.ok) throw new Error(JSON.stringify(saved));
      expect((saved.result as EInvoiceValidation).failed.map((f) => f.id)).toContain('BR-CO-16');
      const queue = await dispatch('attention.list', {});
      if (!queue.ok) throw new Error(JSON.stringify(queue));
      const item = (queue.result as { items: AttentionItem[] }).items.find((i) => i.pageId === pageId)!;
      expect(item.signals).toContainEqual({ kind: 'failed-rule', detail: expect.stringMatching(/^BR-CO-16 \(e-invoice XML\): /) });

      const bad = await dispatch('einvoice.validation', { pageId, drafts: [{ field: 'not_a_field' as 'total', value: 1 }] });
      expect(bad.ok).toBe(false);
    } finally {
      await session.dispose();
    }
  });
});

const zugferd1Pdf = path.join(defaultTestdataRoot, 'einvoice-corpus', 'pdfs', 'correct-Intarsys__ZUGFeRD_1p0_COMFORT_Kraftfahrversicherung_Bruttopreise.pdf');
const haveZugferd1 = fs.existsSync(zugferd1Pdf);
if (!haveZugferd1) console.log(`SKIPPED: a ZUGFeRD 1.0 invoice in the review: ${zugferd1Pdf} is absent`);

describe.runIf(haveZugferd1)('einvoice.validation of a ZUGFeRD 1.0 invoice', () => {
  it('is judged by ZUGFeRD 1.0’s rules: valid, no EN 16931 finding, no failed-rule signal, and an edit runs no EN 16931 rule', async () => {
    const session = sessionIn(dir);
    const dispatch = contractOf(session);
    try {
      await dispatch('project.create', { path: path.join(dir, 'zugferd1.recto') });
      await dispatch('documents.importPaths', { paths: [zugferd1Pdf] });
      await session.queue.idle();
      const listed = await dispatch('documents.list', {});
      if (!listed.ok) throw new Error('documents.list failed');
      const pageId = (listed.result as { pages: { id: string }[] }[])[0]!.pages[0]!.id;
      const asRead = await dispatch('einvoice.validation', { pageId });
      if (!asRead.ok) throw new Error(JSON.stringify(asRead));
      expect(asRead.result).toMatchObject({ syntax: 'CII', profile: 'urn:ferd:CrossIndustryDocument:invoice:1p0:comfort', ruleSets: ['zugferd1'], valid: true, failed: [] });
      const drafted = await dispatch('einvoice.validation', { pageId, drafts: [{ field: 'amount_due', value: 1 }] });
      if (!drafted.ok) throw new Error(JSON.stringify(drafted));
      expect((drafted.result as EInvoiceValidation).failed.filter((f) => f.id.startsWith('BR-'))).toEqual([]);
      const queue = await dispatch('attention.list', {});
      if (!queue.ok) throw new Error(JSON.stringify(queue));
      const item = (queue.result as { items: AttentionItem[] }).items.find((i) => i.pageId === pageId);
      expect(item?.signals.filter((s) => s.kind === 'failed-rule' && s.detail.includes('e-invoice XML')) ?? []).toEqual([]);
    } finally {
      await session.dispose();
    }
  }, 120_000);
});

