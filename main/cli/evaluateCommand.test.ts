import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationSummary } from '../../app/evaluation/evaluationSummary.js';
import { startFakeChatServer } from '../../testing/fakeChatServer.js';
import { contractOf, makeRealInvoiceProject, realInvoices, realInvoicesAvailable, sessionIn } from '../../testing/realInvoiceProject.js';
import { evaluateCommand, parseEngineSpecs } from './evaluateCommand.js';

if (!realInvoicesAvailable) console.log(`SKIPPED: recto evaluate on real invoices: ${realInvoices.join(' or ')} absent`);

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
    expect(parseEngineSpecs('remote:http://127.0.0.1:8000')).toEqual([{ key: 'remote:http://127.0.0.1:8000', kind: 'remote', target: 'http://127.0.0.1:8000' }]);
    expect(() => parseEngineSpecs('remote:gpu1')).toThrow(/http/);
    expect(() => parseEngineSpecs('bundled,bundled')).toThrow(/twice/);
    expect(() => parseEngineSpecs('tesseract')).toThrow(/not an engine/);
    expect(() => parseEngineSpecs(' , ')).toThrow(/at least one/);
  });
});

describe.skipIf(!realInvoicesAvailable)('recto evaluate on a project of real invoices', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-evaluate-'));
  const out = path.join(dir, 'evaluation');
  const home = process.env.RECTO_HOME;
  let project = '';
  let pages: { id: string; engineMarkdown: string }[] = [];

  const evaluate = async (...extra: string[]) => {
    const err = streams();
    const stdout = streams();
    const code = await evaluateCommand([project, '--out', out, '--engines', 'bundled', ...extra], err.stream, stdout.stream);
    const summary = JSON.parse(fs.readFileSync(path.join(out, 'evaluation.json'), 'utf8')) as EvaluationSummary;
    return { code, summary, err: err.text(), stdout: stdout.text() };
  };

  beforeAll(async () => {
    process.env.RECTO_HOME = dir; // the page-image cache of the command
    // Small corrections of the first document's two pages: the engine's reading stays acceptable at 0.9.
    const made = await makeRealInvoiceProject(dir, (markdown, index) => (index < 2 ? `${markdown}\n\nChecked.` : null));
    project = made.project;
    pages = made.pages;
  }, 300_000);

  afterAll(() => {
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
    const reopened = sessionIn(dir);
    const again = contractOf(reopened);
    await again('project.open', { path: project });
    const parent = reopened.store.revisions.latestRevision(pages[0]!.id)!.id;
    const rewritten = `${pages[0]!.engineMarkdown}\n\n${'The analyst added a paragraph the engine never saw on the page. '.repeat(40)}`;
    expect((await again('revisions.save', { pageId: pages[0]!.id, text: rewritten, parentId: parent })).ok).toBe(true);
    await reopened.dispose();

    const after = await evaluate();
    expect(after.err).toContain('1 page reading(s) this run');
    const engine = after.summary.engines[0]!;
    expect(engine.accepted_share).toBeLessThan(before.accepted_share);
    expect(engine.worst[0]!.pageId).toBe(pages[0]!.id);
    expect(engine.worst[0]!.why).toMatch(/text/);
  }, 300_000);

  it('evaluates a remote OpenAI-compatible server beside the bundled engine', async () => {
    const server = await startFakeChatServer();
    try {
      const remote = `remote:${server.url}`;
      const err = streams();
      const stdout = streams();
      const code = await evaluateCommand([project, '--out', path.join(dir, 'remote-eval'), '--engines', `bundled,${remote}`], err.stream, stdout.stream);
      expect(code).toBe(0);
      const summary = JSON.parse(fs.readFileSync(path.join(dir, 'remote-eval', 'evaluation.json'), 'utf8')) as EvaluationSummary;
      expect(summary.engines.map((engine) => engine.engine)).toEqual(['bundled', remote]);
      const served = summary.engines[1]!;
      expect(served.pages).toBe(2);
      expect(served.errors).toBe(0);
      expect(server.answered).toBe(2);
      // The fake server reads every page as a title and one line: far from the analyst's text.
      expect(served.accepted_share).toBe(0);
      expect(served.mean_score).toBeLessThan(summary.engines[0]!.mean_score);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('refuses a file that is not a project, naming it', async () => {
    const bogus = path.join(dir, 'not-a-project.recto');
    fs.writeFileSync(bogus, 'hello');
    const err = streams();
    expect(await evaluateCommand([bogus, '--out', out], err.stream, streams().stream)).toBe(2);
    expect(err.text()).toContain('not-a-project.recto');
  });
});
