import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../app/contract/attention.js';
import type { EInvoiceValidation } from '../../app/contract/einvoiceValidation.js';
import { facturXMinimum } from '../../testing/facturXMinimum.js';
import { contractOf, sessionIn } from '../../testing/realInvoiceProject.js';
import { loadSchemaLayer } from '../import/einvoiceSchemaCheck.js';
import { documentEInvoiceReport } from './einvoiceValidation.js';
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


/** A Factur-X MINIMUM invoice that its XSD refuses (an element the schema has no place for) and whose rules all hold. */
const schemaInvalidMinimum = facturXMinimum({ id: 'INV-XSD-1', extra: '<ram:Surprise>x</ram:Surprise>' });

describe('einvoice.validation: the schema layer in the review, the queue and the approval', () => {
  it('a schema error is fatal: the report is invalid with the XSD finding and its line, the queue signals it, approval asks for a reason', async () => {
    const session = sessionIn(dir);
    const dispatch = contractOf(session);
    try {
      const file = path.join(dir, 'schema-invalid-minimum.xml');
      fs.writeFileSync(file, schemaInvalidMinimum);
      await dispatch('project.create', { path: path.join(dir, 'schema.recto') });
      await dispatch('documents.importPaths', { paths: [file] });
      await session.queue.idle();
      const listed = await dispatch('documents.list', {});
      if (!listed.ok) throw new Error('documents.list failed');
      const pageId = (listed.result as { pages: { id: string }[] }[])[0]!.pages[0]!.id;

      const asRead = await dispatch('einvoice.validation', { pageId });
      if (!asRead.ok) throw new Error(JSON.stringify(asRead));
      const report = asRead.result as EInvoiceValidation;
      expect(report).toMatchObject({ syntax: 'CII', profileName: 'Factur-X MINIMUM', valid: false, schema: { checked: true, schema: 'Factur-X 1.07.3 MINIMUM XSD (CII D16B)', valid: false } });
      expect(report.failed[0]).toMatchObject({ id: 'XSD', flag: 'fatal', layer: 'schema', xmlLine: 5 });
      expect(report.failed.filter((f) => f.layer !== 'schema' && f.flag === 'fatal')).toEqual([]);

      // An edit re-runs rules on the model, not the XML: the schema's verdict stands.
      const drafted = await dispatch('einvoice.validation', { pageId, drafts: [{ field: 'invoice_number', value: 'INV-XSD-2' }] });
      if (!drafted.ok) throw new Error(JSON.stringify(drafted));
      expect(drafted.result).toMatchObject({ valid: false, failed: expect.arrayContaining([expect.objectContaining({ id: 'XSD' })]) });

      const queue = await dispatch('attention.list', {});
      if (!queue.ok) throw new Error(JSON.stringify(queue));
      const item = (queue.result as { items: AttentionItem[] }).items.find((i) => i.pageId === pageId)!;
      expect(item.signals).toContainEqual({ kind: 'failed-rule', detail: expect.stringMatching(/^XSD \(e-invoice XML\): XML line 5: Element 'ram:Surprise'/) });

      const check = await dispatch('approval.check', { pageId, scope: 'document' });
      if (!check.ok) throw new Error(JSON.stringify(check));
      expect((check.result as { exceptions: { kind: string; detail: string }[] }).exceptions).toContainEqual(expect.objectContaining({ kind: 'failed-rule', detail: expect.stringMatching(/^XSD /) }));
      const approved = await dispatch('approval.approve', { pageId, scope: 'document' });
      if (!approved.ok) throw new Error(JSON.stringify(approved));
      expect(approved.result).toMatchObject({ outcome: 'needs-reason' });
    } finally {
      await session.dispose();
    }
  }, 120_000);
  it('a report made without the worker (a caller that did not prepare) still carries the schema verdict once libxml2 is loaded', async () => {
    const file = path.join(dir, 'schema-invalid-unprepared.xml');
    fs.writeFileSync(file, schemaInvalidMinimum);
    const project = path.join(dir, 'unprepared.recto');
    const first = sessionIn(dir);
    try {
      const dispatch = contractOf(first);
      await dispatch('project.create', { path: project });
      await dispatch('documents.importPaths', { paths: [file] });
      await first.queue.idle();
    } finally {
      await first.dispose();
    }
    // A fresh session on the project: nothing prepared, so the report is made on this thread.
    const second = sessionIn(dir);
    try {
      const dispatch = contractOf(second);
      const opened = await dispatch('project.open', { path: project });
      if (!opened.ok) throw new Error(JSON.stringify(opened));
      const listed = await dispatch('documents.list', {});
      if (!listed.ok) throw new Error('documents.list failed');
      const documentId = (listed.result as { id: string }[])[0]!.id;
      await loadSchemaLayer();
      const validated = documentEInvoiceReport(second.store, documentId);
      expect(validated?.report).toMatchObject({ valid: false, schema: { checked: true, valid: false } });
      expect(validated?.report.failed[0]).toMatchObject({ id: 'XSD', layer: 'schema' });
    } finally {
      await second.dispose();
    }
  }, 120_000);
});
