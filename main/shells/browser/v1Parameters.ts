/**
 * What `/v1/chat/completions` on `recto serve --pack` does with each request parameter. The engine reads a page
 * greedily (the same rule as the desktop app), so a parameter that asks for anything else is answered 400 with what
 * is supported — as vLLM answers what it cannot do — instead of being ignored and leaving the client to believe it
 * was applied. `stop` is honoured: the answer ends before the first stop string, finish_reason "stop".
 */

/** At most this many stop strings, as OpenAI's API allows. */
const MAX_STOP_STRINGS = 4;

type Rule = { accepts: (value: unknown) => boolean; supported: string };

const isInteger = (value: unknown) => typeof value === 'number' && Number.isInteger(value);
const absentOr = (accept: (value: unknown) => boolean) => (value: unknown) => value === undefined || value === null || accept(value);

/** Every parameter the server takes, with the values it takes (checked after the request schema). */
const RULES: Record<string, Rule> = {
  model: { accepts: () => true, supported: 'the served model' },
  messages: { accepts: () => true, supported: 'one user message: one page image and the prompt' },
  stream: { accepts: () => true, supported: 'true or false' },
  stream_options: { accepts: () => true, supported: '{"include_usage": bool}' },
  max_tokens: { accepts: () => true, supported: 'up to the pack\'s limit' },
  max_completion_tokens: { accepts: () => true, supported: 'up to the pack\'s limit' },
  n: { accepts: absentOr((v) => v === 1), supported: '1' },
  temperature: { accepts: absentOr((v) => v === 0), supported: '0 (greedy decoding)' },
  top_p: { accepts: absentOr((v) => v === 1), supported: '1 (greedy decoding)' },
  top_k: { accepts: absentOr((v) => v === -1 || v === 0 || v === 1), supported: '-1, 0 or 1 (greedy decoding)' },
  // Greedy decoding is deterministic: a seed changes nothing, so any seed is honoured.
  seed: { accepts: absentOr(isInteger), supported: 'any integer (greedy decoding is deterministic)' },
  presence_penalty: { accepts: absentOr((v) => v === 0), supported: '0' },
  frequency_penalty: { accepts: absentOr((v) => v === 0), supported: '0' },
  logprobs: { accepts: absentOr((v) => v === false), supported: 'false' },
  top_logprobs: { accepts: absentOr((v) => v === 0), supported: '0' },
  response_format: { accepts: absentOr((v) => typeof v === 'object' && (v as { type?: unknown }).type === 'text'), supported: '{"type": "text"}' },
  tools: { accepts: absentOr((v) => Array.isArray(v) && v.length === 0), supported: 'none' },
  tool_choice: { accepts: absentOr((v) => v === 'none'), supported: '"none"' },
  stop: {
    accepts: absentOr((v) => typeof v === 'string' || (Array.isArray(v) && v.length <= MAX_STOP_STRINGS && v.every((s) => typeof s === 'string'))),
    supported: `a string or up to ${MAX_STOP_STRINGS} strings`,
  },
  user: { accepts: absentOr((v) => typeof v === 'string'), supported: 'a string (not used)' },
  // vLLM's extensions as Recto's remote engine sends them: the grounding tags are always kept, and the engine's own
  // no-repeat n-gram rule is the one vllm_xargs configures on a vLLM server.
  skip_special_tokens: { accepts: absentOr((v) => v === false), supported: 'false (grounding tags are kept)' },
  vllm_xargs: { accepts: () => true, supported: "the no-repeat n-gram rule's arguments (the engine applies its own)" },
};

export const SUPPORTED_PARAMETERS = Object.keys(RULES);

/** Why the server cannot do what the request asks (a 400's message), or null. */
export function unsupportedParameter(body: Record<string, unknown>): string | null {
  for (const [name, value] of Object.entries(body)) {
    const rule = RULES[name];
    if (!rule) return `${name}: not supported by this server; it takes ${SUPPORTED_PARAMETERS.join(', ')}`;
    if (!rule.accepts(value)) return `${name}: ${JSON.stringify(value)} is not supported by this server; supported: ${rule.supported}`;
  }
  return null;
}

/** The request's stop strings (empty strings dropped: they would stop before the first character). */
export function stopStrings(stop: unknown): string[] {
  const list = typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop : [];
  return list.filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/**
 * Applies stop strings to streamed text: hands on what can no longer turn into a stop string (holding back the last
 * characters that could be its start), and nothing after a stop string.
 */
export class StopSequences {
  private full = '';
  private emitted = 0;
  private readonly hold: number;
  stopped = false;

  constructor(private readonly stops: readonly string[]) {
    this.hold = Math.max(0, ...stops.map((s) => s.length - 1));
  }

  /** The text of `piece` that may be sent now. */
  push(piece: string): string {
    if (this.stopped) return '';
    this.full += piece;
    const at = this.firstStop(this.full);
    const end = at >= 0 ? at : Math.max(this.emitted, this.full.length - this.hold);
    if (at >= 0) this.stopped = true;
    const out = this.full.slice(this.emitted, end);
    this.emitted = end;
    return out;
  }

  /** The whole answer, ended before its first stop string; whether one was found. */
  finish(text: string): { text: string; stopped: boolean } {
    const at = this.firstStop(text);
    return at >= 0 ? { text: text.slice(0, at), stopped: true } : { text, stopped: false };
  }

  private firstStop(text: string): number {
    let first = -1;
    for (const stop of this.stops) {
      const at = text.indexOf(stop);
      if (at >= 0 && (first < 0 || at < first)) first = at;
    }
    return first;
  }
}

/** `GET /v1/models/{id}`: the model object for the served model, null for any other id. */
export function modelIdFromPath(pathname: string): string | null {
  const match = /^\/v1\/models\/(.+)$/.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}
