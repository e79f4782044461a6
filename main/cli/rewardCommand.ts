/**
 * `recto reward`: the combined check score of a prediction against a reference, for training and evaluation loops.
 *   recto reward --ref REF.md --pred PRED.md [--json]    one pair; prints the score (or the whole reward as JSON)
 *   recto reward --jsonl                                  reads {"ref","pred"} per line on stdin, writes one reward per line
 * In JSON-lines mode a bad line gets `{"line": N, "error": "…"}` and the loop goes on: a rollout batch is never lost
 * to one malformed pair. The exit code is 1 when any line failed.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { reward, type Reward } from '../../app/checks/reward.js';

export const rewardUsage = `  recto reward --ref REF.md --pred PRED.md [--json]
  recto reward --jsonl < pairs.jsonl
      The combined check score (curation's terms and floors) of a prediction against a reference; --jsonl reads
      {"ref","pred"} per line on standard input and writes {"score","terms","raw"} per line.`;

const pairSchema = z.object({ ref: z.string(), pred: z.string() });

interface Io {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

function roundedReward(result: Reward): Reward {
  const round = (terms: Reward['terms']) => Object.fromEntries(Object.entries(terms).map(([k, v]) => [k, rounded(v)]));
  return { score: rounded(result.score), terms: round(result.terms), raw: round(result.raw) };
}

export async function rewardCommand(args: string[], io: Io): Promise<number> {
  let values: { ref?: string; pred?: string; json?: boolean; jsonl?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { ref: { type: 'string' }, pred: { type: 'string' }, json: { type: 'boolean' }, jsonl: { type: 'boolean' } },
    }));
  } catch (error) {
    io.stderr.write(`recto reward: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (values.jsonl) return rewardLines(io);
  if (!values.ref || !values.pred) {
    io.stderr.write('recto reward: give --ref REF.md and --pred PRED.md, or --jsonl\n');
    return 2;
  }
  const texts: string[] = [];
  for (const file of [values.ref, values.pred]) {
    try {
      texts.push(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      io.stderr.write(`recto reward: ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      return 2;
    }
  }
  const result = roundedReward(reward(texts[0]!, texts[1]!));
  io.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${result.score}\n`);
  return 0;
}

async function rewardLines(io: Io): Promise<number> {
  const lines = readline.createInterface({ input: io.stdin, crlfDelay: Infinity });
  let number = 0;
  let failed = 0;
  for await (const line of lines) {
    number += 1;
    if (line.trim() === '') continue;
    let output: object;
    try {
      const pair = pairSchema.parse(JSON.parse(line));
      output = roundedReward(reward(pair.ref, pair.pred));
    } catch (error) {
      failed += 1;
      const reason = error instanceof z.ZodError ? 'expected {"ref": string, "pred": string}' : error instanceof Error ? error.message : String(error);
      output = { line: number, error: reason };
    }
    // Back-pressure: a slow reader of stdout slows the loop instead of filling memory.
    if (!io.stdout.write(`${JSON.stringify(output)}\n`)) await new Promise((resolve) => io.stdout.once('drain', resolve));
  }
  if (failed > 0) io.stderr.write(`recto reward: ${failed} line(s) could not be scored\n`);
  return failed > 0 ? 1 : 0;
}
