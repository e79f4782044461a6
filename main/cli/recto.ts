#!/usr/bin/env node
/**
 * The `recto` command line: `recto serve` starts the browser shell; `recto ocr` reads files to Markdown; `export`,
 * `import-corpus` and `merge` move corrections between projects and corpora; `validate` checks e-invoices against
 * EN 16931; `audit` verifies a project's audit trail. Benchmarks are not here: `npm run bench:…`.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DecoderKind, ProviderPreference } from '../../native-models/vlm/index.js';
import { createRectoSession } from '../composition/createRectoSession.js';
import { auditCommand, auditUsage } from './auditCommand.js';
import { evaluateCommand, evaluateUsage } from './evaluateCommand.js';
import { exportCommand, importCorpusCommand, mergeCommand } from './exportCommand.js';
import { masterCommand, masterUsage } from './masterCommand.js';
import { runOcr } from './ocrCommand.js';
import { remoteFlags, remoteOptionsFrom, remoteUsage } from './remoteOptions.js';
import { rewardCommand, rewardUsage } from './rewardCommand.js';
import { serve, ServeRefusedError } from './serveCommand.js';
import { usersCommand, usersUsage } from './usersCommand.js';
import { validateCommand, validateUsage } from './validateCommand.js';

const usage = `Usage:
  recto serve [--port N] [--project FILE.recto] [--pack DIR] [--endpoint URL …]
      Starts Recto in your browser (a server on 127.0.0.1 with a per-launch token) and prints the URL to open.
      With --pack DIR it also answers /v1/chat/completions and /v1/models (OpenAI-compatible) with that jina-ocr-v1
      pack, for remote engines and batch runs elsewhere; Bearer = the /v1 API key printed beside the URL (/v1 only).
  recto serve --team --project P.recto [--listen ADDR] [--origin https://HOST] [--port N]
      Serves one project to its accounts (recto users): each person signs in with their personal token, roles and
      four eyes apply. --listen binds ADDR instead of 127.0.0.1 (and says what that exposes); --origin names the
      address a TLS reverse proxy serves it under (docs/team-mode.md).
  recto ocr FILE… --out DIR [--project FILE.recto] [--engine bundled|vlm|remote] [--pack DIR]
            [--provider auto|cpu|webgpu|cuda|dml|coreml] [--decoder fastmtp|greedy] [--k 1|2|3]
            [--endpoint URL [--endpoint URL2]] [--model NAME] [--concurrency N] [--fields-from page]
      Reads every page of every FILE (PDF, image, or CII/UBL e-invoice XML) and writes DIR/<name>_pg<N>.md,
      DIR/<name>_pg<N>.json and DIR/<name>.fields.json (from the embedded e-invoice XML where there is one, with
      "page_vs_xml" listing where the page disagrees; --fields-from page forces the page's reading).
      --pack DIR selects the jina-ocr-v1 engine (vlm) over that model pack. With --project the run is resumable:
      a rerun reads only the pages not read yet.
${remoteUsage}
  recto export P.recto --out DIR [--status approved] [--since ISO] [--images png|none]
               [--format records|chat|olmocr|pairs]
      Writes the corpus: images/, records.jsonl, tests.jsonl (olmOCR-Bench tests from the corrections), README.md,
      manifest.json. Into a new or empty folder, or a previous export (only what changed is rewritten).
      --format adds a training layout: chat.jsonl (ms-swift / LLaMA-Factory messages + images), olmocr
      (images/<id>.md with olmOCR front matter), pairs.jsonl (engine output vs correction with reward terms).
  recto import-corpus DIR --into P.recto
      Reads a corpus export back into a project (created if missing); nothing already there is changed.
  recto merge A.recto B.recto [--into OUT.recto]
      Adds everything of B that A lacks (every revision kept) to A, or to a new OUT.recto (A untouched).
${evaluateUsage}
${rewardUsage}
${validateUsage}
${masterUsage}
${auditUsage}
${usersUsage}
  recto --version | --help`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({
        args: rest,
        options: {
          port: { type: 'string' },
          project: { type: 'string' },
          pack: { type: 'string' },
          team: { type: 'boolean' },
          listen: { type: 'string' },
          origin: { type: 'string' },
          ...remoteFlags,
        },
      });
      const port = values.port ? Number(values.port) : 0;
      if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`--port: not a port number: ${values.port}`);
      const remote = remoteOptionsFrom(values);
      if (typeof remote === 'string') return fail(remote);
      if (values.origin !== undefined && !/^https?:\/\/[^/]+$/.test(values.origin)) return fail(`--origin: a scheme and host, such as https://recto.example.com, not ${values.origin}`);
      try {
        await serve({ port, project: values.project, packDir: values.pack, remote: remote ?? undefined, team: values.team, listen: values.listen, publicOrigin: values.origin });
      } catch (error) {
        if (error instanceof ServeRefusedError) return fail(`recto serve: ${error.message}`);
        throw error;
      }
      return new Promise<number>(() => {
        // Runs until interrupted; serve() installs the signal handlers that close it cleanly.
      });
    }
    case 'ocr': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          out: { type: 'string' },
          project: { type: 'string' },
          engine: { type: 'string' },
          pack: { type: 'string' },
          provider: { type: 'string' },
          decoder: { type: 'string' },
          k: { type: 'string' },
          ...remoteFlags,
          'fields-from': { type: 'string' },
        },
      });
      if (positionals.length === 0) return fail('recto ocr: give at least one file');
      const fieldsFrom = values['fields-from'];
      if (fieldsFrom !== undefined && fieldsFrom !== 'page' && fieldsFrom !== 'auto') return fail(`--fields-from: page (or auto), not ${fieldsFrom}`);
      if (!values.out) return fail('recto ocr: --out DIR is required');
      if (values.decoder && values.decoder !== 'fastmtp' && values.decoder !== 'greedy') {
        return fail(`--decoder: fastmtp or greedy, not ${values.decoder}`);
      }
      const draftDepth = values.k ? Number(values.k) : undefined;
      if (draftDepth !== undefined && !(Number.isInteger(draftDepth) && draftDepth >= 1 && draftDepth <= 8)) {
        return fail(`--k: a draft depth from 1 to 8, not ${values.k}`);
      }
      const remote = remoteOptionsFrom(values);
      if (typeof remote === 'string') return fail(remote);
      const session = createRectoSession({
        remote: remote ?? undefined,
        packDir: values.pack,
        provider: values.provider as ProviderPreference | undefined,
        decoder: values.decoder as DecoderKind | undefined,
        draftDepth,
      });
      try {
        const summary = await runOcr(session, {
          files: positionals.map((file) => path.resolve(file)),
          outDir: path.resolve(values.out),
          project: values.project ? path.resolve(values.project) : undefined,
          engine: values.engine ?? (remote ? 'remote' : values.pack ? 'vlm' : undefined),
          fieldsFrom: fieldsFrom === 'page' ? 'page' : 'auto',
          progress: process.stderr,
        });
        for (const { file, reason } of summary.failedFiles) process.stderr.write(`recto: ${file}: ${reason}\n`);
        for (const { label, reason } of summary.failedPages) process.stderr.write(`recto: ${label}: ${reason}\n`);
        process.stderr.write(`recto: wrote ${summary.pagesWritten} page(s) to ${values.out}\n`);
        return summary.failedFiles.length + summary.failedPages.length > 0 ? 1 : 0;
      } finally {
        await session.dispose();
      }
    }
    case 'export':
      return exportCommand(rest, process.stderr);
    case 'import-corpus':
      return importCorpusCommand(rest, process.stderr);
    case 'merge':
      return mergeCommand(rest, process.stderr);
    case 'evaluate':
      return evaluateCommand(rest, process.stderr, process.stdout);
    case 'reward':
      return rewardCommand(rest, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
    case 'validate':
      return validateCommand(rest, process.stdout, process.stderr);
    case 'master':
      return masterCommand(rest, process.stdout, process.stderr);
    case 'audit':
      return auditCommand(rest, process.stdout, process.stderr);
    case 'users':
      return usersCommand(rest, process.stdout, process.stderr);
    case '--version':
    case '-v': {
      const { packageVersion } = await import('../util/packageRoot.js');
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(`${usage}\n`);
      return command === undefined ? 1 : 0;
    default:
      return fail(`recto: unknown command "${command}"\n\n${usage}`);
  }
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`recto: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
