/**
 * The remote engine's command-line flags, shared by `recto ocr` and `recto serve`:
 *   --endpoint URL (repeatable)  --model NAME  --concurrency N (per endpoint)  --timeout SECONDS  --retries N
 *   --api-key-env VAR (the variable holding the API key; RECTO_API_KEY when not given)
 * The key is read from the environment only, so it never appears in a shell history, a process list or a project file.
 */
import type { RemoteEngineOptions } from '../../native-models/remote/index.js';

export const remoteFlags = {
  endpoint: { type: 'string', multiple: true },
  model: { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  retries: { type: 'string' },
  'api-key-env': { type: 'string' },
} as const;

export const remoteUsage = `      --endpoint URL selects the remote engine (an OpenAI-compatible server such as vLLM, or \`recto serve --pack\`);
      repeat it to spread pages over several servers. --model NAME (default: what the server lists), --concurrency N
      requests per endpoint (8), --timeout S per request (300), --retries N (4). The API key comes from RECTO_API_KEY
      or the variable named by --api-key-env VAR.`;

interface RemoteFlagValues {
  endpoint?: string[];
  model?: string;
  concurrency?: string;
  timeout?: string;
  retries?: string;
  'api-key-env'?: string;
}

/** The engine options, null when no --endpoint was given, or a message saying which flag is wrong. */
export function remoteOptionsFrom(values: RemoteFlagValues, env: NodeJS.ProcessEnv = process.env): RemoteEngineOptions | null | string {
  const endpoints = values.endpoint ?? [];
  if (endpoints.length === 0) {
    const stray = (['model', 'concurrency', 'timeout', 'retries', 'api-key-env'] as const).find((flag) => values[flag] !== undefined);
    return stray ? `--${stray} needs --endpoint URL` : null;
  }
  for (const endpoint of endpoints) {
    try {
      if (!/^https?:$/.test(new URL(endpoint).protocol)) throw new Error();
    } catch {
      return `--endpoint: not an http(s) URL: ${endpoint}`;
    }
  }
  const concurrency = integer(values.concurrency, 1, 1024);
  if (concurrency === null) return `--concurrency: a whole number from 1 to 1024, not ${values.concurrency}`;
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(timeout > 0 && timeout <= 86_400)) return `--timeout: seconds, more than 0, not ${values.timeout}`;
  const retries = integer(values.retries, 0, 100);
  if (retries === null) return `--retries: a whole number from 0 to 100, not ${values.retries}`;
  const keyVariable = values['api-key-env'] ?? 'RECTO_API_KEY';
  const apiKey = env[keyVariable];
  if (values['api-key-env'] !== undefined && !apiKey) return `--api-key-env: the variable ${keyVariable} is not set`;
  return {
    endpoints,
    model: values.model,
    apiKey: apiKey || undefined,
    concurrency,
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    retry: retries === undefined ? undefined : { retries },
  };
}

/** undefined when absent, null when not a whole number in [min, max]. */
function integer(value: string | undefined, min: number, max: number): number | undefined | null {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}
