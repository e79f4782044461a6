/**
 * Keys kept out of everything Recto stores or exports. An endpoint URL may carry a key (`?api-key=…`, `user:pass@`)
 * and an upstream error body may echo the request's `Authorization` header; the project file, records.jsonl, the
 * per-page JSON and manifest.json are shared, so neither may reach them. Endpoints are kept as scheme, host, port and
 * path; messages have URLs so reduced and header-, parameter- and token-shaped secrets replaced by `[redacted]`.
 *
 * Every pattern here is linear: single quantifiers over disjoint characters, nothing nested.
 */

export const REDACTED = '[redacted]';

/** An endpoint URL without userinfo, query or fragment (`https://u:p@h/v1?api-key=k` → `https://h/v1`); non-URLs unchanged. */
export function endpointForStorage(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return scrubSecrets(endpoint);
  }
  return `${url.protocol}//${url.host}${url.pathname === '/' && !endpoint.endsWith('/') ? '' : url.pathname}`;
}

/** `Authorization: Bearer x`, `"authorization":"x"`, `Bearer x`, `api-key=x`, `api_key: x`, `key=x`, `sk-…`-style tokens. */
const SECRET_PATTERNS: [RegExp, string][] = [
  // A URL's userinfo: scheme://user:pass@host.
  [/([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s/@'"<>]{1,512}@/gi, `$1${REDACTED}@`],
  // Query parameters and header-like fields that name a key, token, secret or password, in text or JSON.
  [/((?<![A-Za-z0-9])(?:x-)?(?:api[-_]?key|access[-_]?token|auth[-_]?token|token|secret|password|passwd|key|authorization|proxy-authorization)["']?\s{0,4}[:=]\s{0,4}["']?)(?:(?:Bearer|Basic|Token)\s{1,4})?[^\s"'&,;}]{1,4096}/gi, `$1${REDACTED}`],
  // A bare bearer credential.
  [/\b(Bearer|Basic)\s{1,4}[A-Za-z0-9._~+/=-]{8,4096}/g, `$1 ${REDACTED}`],
  // Provider-style keys (OpenAI `sk-…`, Hugging Face `hf_…`, GitHub `ghp_…`).
  [/\b(?:sk|hf|ghp|gho|xox[abp])[-_][A-Za-z0-9_-]{16,4096}/g, REDACTED],
];

/** `text` with secrets replaced by `[redacted]`; `known` (the configured API key) is removed wherever it appears. */
export function scrubSecrets(text: string, known: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of known) if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A JSON-like value with every string scrubbed (engine settings, warnings); URLs reduced to their endpoint. */
export function scrubValue<T>(value: T, known: readonly (string | null | undefined)[] = []): T {
  if (typeof value === 'string') return (/^[a-z][a-z0-9+.-]{0,20}:\/\//i.test(value) ? scrubSecrets(endpointForStorage(value), known) : scrubSecrets(value, known)) as T;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, known)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, known)])) as T;
  return value;
}
