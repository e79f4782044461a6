import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationSummary } from '../../app/evaluation/evaluationSummary.js';
import { createRectoSession } from '../composition/createRectoSession.js';
import { createDispatch } from '../services/dispatch.js';
import { createHandlers } from '../services/handlers.js';
import { defaultTestdataRoot } from '../../testing/testdataPaths.js';
import { evaluateCommand, parseEngineSpecs } from './evaluateCommand.js';

const compare = path.join(defaultTestdataRoot, 'invoice2data', 'tests', 'compare');
const documents = ['QualityHosting.pdf', 'AmazonWebServices.pdf'].map((name) => path.join(compare, name));
const haveDocuments = documents.every((file) => fs.existsSync(file));
if (!haveDocuments) console.log(`SKIPPED: recto evaluate on real invoices: ${documents.join(' or ')} absent`);

function streams() {
  const out = new PassThrough();
  const text: string[] = [];
  out.on('data', (chunk) => text.push(String(chunk)));
  return { stream: out, text: () => text.join('') };
}

describe('parseEngineSpecs', () => {
  it('reads bundled and pack:DIR and refuses anything else', () => {
    expect(parseEngineSpecs('bundled,pack:/x/pack')).toEqual([
      { key: 'bundled', kind: 'bundled', target: null },
      { key: 'pack:/x/pack', kind: 'pack', target: '/x/pack' },
    ]);
    expect(() => parseEngineSpecs('tesseract')).toThrow(/not an engine/);
    expect(() => parseEngineSpecs(' , ')).toThrow(/at least one/);
  });
});

describe.skipIf(!haveDocuments)('recto evaluate on a project of real invoices', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-evaluate-'));
  const project = path.join(dir, 'invoices.recto');
  const out = path.join(dir, 'evaluation');
  const home = process.env.RECTO_HOME;
  let pageIds: string[] = [];
  let engineTexts: string[] = [];
  const session = createRectoSession({ paths: { dataDir: path.join(dir, 'data'), cacheDir: path.join(dir, 'cache') } });
  const dispatch = createDispatch(createHandlers(session, { shell: 'browser', pageImageUrl: (id) => `/img/${id}` }), { validateReplies: true });

  const evaluate = async (...extra: string[]) => {
    const err = streams();
    const stdout = streams();
    const code = await evaluateCommand([project, '--out', out, '--engines', 'bundled', ...extra], err.stream, stdout.stream);
    const summary = JSON.parse(fs.readFileSync(path.join(out, 'evaluation.json'), 'utf8')) as EvaluationSummary;
    return { code, summary, err: err.text(), stdout: stdout.text() };
  };

  beforeAll(async () => {
    process.env.RECTO_HOME = dir; // the page-image cache of the command
    await dispatch('project.create', { path: project });
    await dispatch('documents.importPaths', { paths: documents });
    await session.queue.idle();
    const listed = (await dispatch('documents.list', {})) as { ok: true; result: { pages: { id: string }[] }[] };
    pageIds = listed.result.flatMap((document) => document.pages.map((page) => page.id)).slice(0, 2);
    engineTexts = pageIds.map((id) => session.store.latestExtraction(id)!.markdown);
    // Small corrections: the engine's reading stays acceptable at 0.9.
    for (const [i, pageId] of pageIds.entries()) {
      const saved = await dispatch('revisions.save', { pageId, text: `${engineTexts[i]}\n\nChecked.`, parentId: null });
      expect(saved.ok).toBe(true);
    }
    await session.close();
  }, 300_000);

  afterAll(async () => {
    await session.dispose();
    if (home === undefined) delete process.env.RECTO_HOME;
    else process.env.RECTO_HOME = home;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('scores the corrected pages, writes the report, and resumes without reading again', async () => {
    const first = await evaluate('--cost-per-hour', '1.5');
    expect(first.code).toBe(0);
    const engine = first.summary.engines[0]!;
    expect(engine.engine).toBe('bundled');
    expect(engine.pages).toBe(2);
    expect(engine.accepted_share).toBeGreaterThan(0);
    expect(engine.accepted_share).toBeLessThanOrEqual(1);
    expect(engine.seconds_per_page).toBeGreaterThan(0);
    expect(engine.cost_per_accepted_page).toBeGreaterThan(0);
    expect(engine.terms.text).toBeGreaterThan(0.9);
    expect(fs.readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('<svg');
    expect(first.stdout).toContain('bundled');

    const again = await evaluate();
    expect(again.err).toContain('0 page reading(s) this run');
    expect(again.summary.engines[0]!.accepted_share).toBe(engine.accepted_share);
  }, 300_000);

  it('accepts fewer pages when a correction is made larger, reading only that page again', async () => {
    const before = (await evaluate()).summary.engines[0]!;
    const reopened = createRectoSession({ paths: { dataDir: path.join(dir, 'data'), cacheDir: path.join(dir, 'cache') } });
    const again = createDispatch(createHandlers(reopened, { shell: 'browser', pageImageUrl: (id) => `/img/${id}` }));
    await again('project.open', { path: project });
    const parent = reopened.store.latestRevision(pageIds[0]!)!.id;
    const rewritten = `${engineTexts[0]}\n\n${'The analyst added a paragraph the engine never saw on the page. '.repeat(40)}`;
    expect((await again('revisions.save', { pageId: pageIds[0]!, text: rewritten, parentId: parent })).ok).toBe(true);
    await reopened.dispose();

    const after = await evaluate();
    expect(after.err).toContain('1 page reading(s) this run');
    const engine = after.summary.engines[0]!;
    expect(engine.accepted_share).toBeLessThan(before.accepted_share);
    expect(engine.worst[0]!.pageId).toBe(pageIds[0]);
    expect(engine.worst[0]!.why).toMatch(/text/);
  }, 300_000);

  it('refuses a file that is not a project, naming it', async () => {
    const bogus = path.join(dir, 'not-a-project.recto');
    fs.writeFileSync(bogus, 'hello');
    const err = streams();
    expect(await evaluateCommand([bogus, '--out', out], err.stream, streams().stream)).toBe(2);
    expect(err.text()).toContain('not-a-project.recto');
  });
});
