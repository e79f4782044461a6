/**
 * One simulated analyst of bench:team: a personal token, a few invoices of their own and now and then a colleague's,
 * and a loop of what analysts do over the RPC — read a page with its fields, correct the text (a revision based on
 * the newest one they saw), correct a field (based on the field's newest revision they saw), and (approvers) approve — at a person's pace or at full speed. Every
 * reply is timed by action and every acknowledged save is remembered, to be looked for in the project afterwards.
 */
export type Action = 'read' | 'revisions.save' | 'fields.save' | 'approve';
export type Pace = 'person' | 'full';

/** A person at their pace: a pause of 0.5–1.5 s after each reply (reading, typing, checking the page). */
export const PERSON_PAUSE_MS = [500, 1500] as const;
/** Full speed: a request every 50 ms — the 20 requests a second the rate limit leaves room for — or back to back when slower. */
export const FULL_SPEED_INTERVAL_MS = 50;
/** How often an analyst works on a colleague's invoice instead of their own (two people on one page). */
const SHARED_SHARE = 0.15;
const FIELDS = ['total', 'tax', 'subtotal', 'lines.0.amount', 'payment.iban'] as const;

export interface AnalystRun {
  latencies: Record<Action, number[]>;
  /** Replies that were not ok, by error code (or `http-<status>`, `network`). */
  errors: Map<string, number>;
  /** Saves the server acknowledged: a revision (its id, page and text) or a field revision (its id and key page). */
  acknowledged: { kind: 'revision' | 'field'; id: string; pageId: string; text?: string }[];
  requests: number;
}

export interface AnalystSetup {
  origin: string;
  token: string;
  name: string;
  approves: boolean;
  own: string[];
  all: string[];
  pace: Pace;
  until: number;
  random: () => number;
}

export async function runAnalyst(setup: AnalystSetup): Promise<AnalystRun> {
  const run: AnalystRun = { latencies: { read: [], 'revisions.save': [], 'fields.save': [], approve: [] }, errors: new Map(), acknowledged: [], requests: 0 };
  const newest = new Map<string, string | null>();
  const texts = new Map<string, string>();
  /** Per page, each field's newest revision as last read or saved (absent: none; the base `fields.save` sends). */
  const fieldBases = new Map<string, Map<string, string>>();
  const pick = (list: string[]) => list[Math.floor(setup.random() * list.length)]!;
  let step = 0;
  while (performance.now() < setup.until) {
    const started = performance.now();
    const pageId = setup.random() < SHARED_SHARE ? pick(setup.all) : pick(setup.own);
    const roll = setup.random();
    const action: Action = !newest.has(pageId) || roll < 0.25 ? 'read' : roll < 0.6 ? 'revisions.save' : roll < 0.9 || !setup.approves ? 'fields.save' : 'approve';
    let reply: Reply;
    if (action === 'read') {
      reply = await call(setup, run, 'pages.getReviewAndFields', { pageId });
      if (reply.ok) {
        const { review, fields } = reply.result as {
          review: { latestRevision: { id: string; text: string } | null; extraction: { markdown: string } | null };
          fields: { revisions: { id: string; field: string }[] };
        };
        newest.set(pageId, review.latestRevision?.id ?? null);
        fieldBases.set(pageId, new Map(fields.revisions.map((r) => [r.field, r.id])));
        texts.set(pageId, review.latestRevision?.text ?? review.extraction?.markdown ?? '');
      }
    } else if (action === 'revisions.save') {
      const text = `${texts.get(pageId) ?? ''}\n\n${setup.name} note ${step}`.slice(-6000);
      reply = await call(setup, run, 'revisions.save', { pageId, text, parentId: newest.get(pageId) ?? null });
      if (reply.ok) {
        const saved = reply.result as { id: string };
        run.acknowledged.push({ kind: 'revision', id: saved.id, pageId, text });
        newest.set(pageId, saved.id);
        texts.set(pageId, text);
      }
    } else if (action === 'fields.save') {
      const field = pick([...FIELDS]);
      const value = field === 'payment.iban' ? 'DE89370400440532013000' : Math.round(setup.random() * 100_000) / 100;
      const bases = fieldBases.get(pageId) ?? new Map<string, string>();
      reply = await call(setup, run, 'fields.save', { pageId, field, value, basedOn: bases.get(field) ?? null });
      if (reply.ok) {
        const saved = reply.result as { id: string; pageId: string };
        run.acknowledged.push({ kind: 'field', id: saved.id, pageId: saved.pageId });
        fieldBases.set(pageId, bases.set(field, saved.id));
      }
    } else {
      reply = await call(setup, run, 'approval.approve', { pageId, scope: 'document', reason: 'bench:team' });
    }
    run.latencies[action].push(performance.now() - started);
    step += 1;
    const pause = setup.pace === 'person' ? PERSON_PAUSE_MS[0] + setup.random() * (PERSON_PAUSE_MS[1] - PERSON_PAUSE_MS[0]) : FULL_SPEED_INTERVAL_MS - (performance.now() - started);
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return run;
}

type Reply = { ok: true; result: unknown } | { ok: false; code: string };

async function call(setup: AnalystSetup, run: AnalystRun, method: string, params: unknown): Promise<Reply> {
  run.requests += 1;
  let status = 0;
  try {
    const response = await fetch(`${setup.origin}/api/rpc/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-recto-token': setup.token },
      body: JSON.stringify(params),
    });
    status = response.status;
    const body = (await response.json()) as { ok: boolean; result?: unknown; error?: { code: string } };
    if (body.ok) return { ok: true, result: body.result };
    return count(run, body.error?.code ?? `http-${status}`);
  } catch {
    return count(run, status ? `http-${status}` : 'network');
  }
}

function count(run: AnalystRun, code: string): Reply {
  run.errors.set(code, (run.errors.get(code) ?? 0) + 1);
  return { ok: false, code };
}
