/**
 * The `/v1` API key: its own random value per launch, printed beside the /v1 URL, that authorises the
 * OpenAI-compatible routes and nothing else. The browser shell's RPC token (which can create projects, import any
 * local file by path and export anywhere) is never accepted on /v1, and this key is never accepted on the RPC: a
 * batch client given the key can read pages, not the machine.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Marks the key as the /v1 one wherever it is pasted, so it is not mistaken for the RPC token. */
const KEY_PREFIX = 'recto-v1-';

export function newV1ApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

/** True when the Authorization header carries exactly `key` as a Bearer token (compared in constant time). */
export function bearerIs(authorization: string | undefined, key: string): boolean {
  const candidate = /^Bearer[ \t]+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}
