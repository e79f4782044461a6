/**
 * One score definition: the curation score of a page is the reward `recto evaluate` gives the same two texts
 * (app/checks/reward.ts), also on e-invoices whose page disagrees with the embedded XML — which the queue raises by
 * its `xml-disagreement` signal, not by a score of 0 (that zeroed every page of such a document, uncorrected ones
 * included). Migration 010 removes the check rows stored that way so they are scored again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reward } from '../../../app/checks/reward.js';
import { roundScore } from '../../../app/curation/checkPage.js';
import { fillProject } from '../../../testing/corpusFixtures.js';
import { closeRawDatabase, dropTablesAfterVersion, rawDatabase } from '../../../testing/rawDatabase.js';
import { migrations } from '../migrations/index.js';
import { contractOf, sessionIn } from '../../../testing/realInvoiceProject.js';
import { defaultTestdataRoot } from '../../../testing/testdataPaths.js';
import { rescoreEInvoicePagesSchema } from '../migrations/010_rescore_einvoice_pages.js';
import { ProjectStore } from '../projectStore.js';

const einvoices = ['EN16931_Miete.pdf', 'acme_invoice-42_ZUGFeRD.pdf'].map((name) => path.join(defaultTestdataRoot, 'einvoices', 'pdfs', name));
const haveEInvoices = einvoices.every((file) => fs.existsSync(file));
if (!haveEInvoices) console.log(`SKIPPED: curation scores of real e-invoices: ${einvoices.join(' or ')} absent`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-einvoice-scores-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!haveEInvoices)('curation scores of real e-invoices', () => {
  it('are the reward of the page against its text: a page that disagrees with its XML is flagged, not scored 0', async () => {
    const session = sessionIn(path.join(dir, 'real'));
    const dispatch = contractOf(session);
    try {
      await dispatch('project.create', { path: path.join(dir, 'real', 'p.recto') });
      await dispatch('documents.importPaths', { paths: einvoices });
      await session.queue.idle();
      const listed = await dispatch('curation.list', { sort: 'score', limit: 100 });
      if (!listed.ok) throw new Error(JSON.stringify(listed));
      const items = (listed.result as { items: { pageId: string; scores: { score: number }; signals: { kind: string }[] }[] }).items;
      expect(items.length).toBeGreaterThan(4);
      // The premise: the ZUGFeRD sample's page disagrees with its XML.
      expect(items.some((item) => item.signals.some((s) => s.kind === 'xml-disagreement'))).toBe(true);
      for (const item of items) {
        const engine = session.store.readings.latestExtraction(item.pageId)!.markdown;
        expect(item.scores.score, item.pageId).toBe(roundScore(reward(engine, engine).score));
        expect(item.scores.score).toBeGreaterThan(0);
      }
      // Nobody corrected anything: the chart's 0.0 bar is empty.
      const summary = await dispatch('curation.summary', {});
      if (!summary.ok) throw new Error(JSON.stringify(summary));
      expect((summary.result as { scoreHistogram: { count: number }[] }).scoreHistogram[0]!.count).toBe(0);
    } finally {
      await session.dispose();
    }
  }, 300_000);
});

describe('migration 010 (rescore e-invoice pages)', () => {
  it('removes check rows stored with an e-invoice disagreement; they are scored again on demand', () => {
    const file = path.join(dir, 'm.recto');
    const store = ProjectStore.create(file);
    const [disagreeing, other] = fillProject(store, [{ name: 'a.pdf', pages: 2, corrections: { 0: ['text'] } }]);
    const expected = store.checks.scores(disagreeing!)!.scores.score;
    // As the store wrote such a page before: score 0, the disagreement in its results.
    const db = rawDatabase(store);
    db.prepare(`UPDATE page_checks SET score = 0, results = json_set(results, '$.einvoice', json('{"disagreements":[],"messages":[]}')) WHERE page_id = ?`).run(disagreeing);
    dropTablesAfterVersion(db, rescoreEInvoicePagesSchema.version - 1, migrations);
    closeRawDatabase(store);
    store.close();

    const reopened = ProjectStore.open(file);
    try {
      expect(reopened.checks.scores(disagreeing!)).toBeNull();
      expect(reopened.checks.scores(other!)).not.toBeNull();
      expect(reopened.checks.recomputeMissing()).toBe(1);
      expect(reopened.checks.scores(disagreeing!)!.scores.score).toBe(expected);
      expect(expected).toBeGreaterThan(0);
    } finally {
      reopened.close();
    }
  });
});
