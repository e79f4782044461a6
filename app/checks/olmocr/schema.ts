/**
 * olmOCR-Bench unit-test schema (allenai/olmocr, olmocr/bench/tests.py), validated with zod. One JSON object a line in
 * the bench's JSONL files; unknown keys are kept (passthrough) so newer upstream fields do not break loading.
 */
import { z } from 'zod';

const common = {
  pdf: z.string().min(1),
  page: z.number().int().positive(),
  id: z.string().min(1),
  max_diffs: z.number().int().nonnegative().default(0),
  checked: z.string().nullish(),
  url: z.string().nullish(),
};

export const presenceTestSchema = z.looseObject({
  ...common,
  type: z.enum(['present', 'absent']),
  text: z.string(),
  case_sensitive: z.boolean().default(true),
  first_n: z.number().int().positive().nullish(),
  last_n: z.number().int().positive().nullish(),
});

export const orderTestSchema = z.looseObject({
  ...common,
  type: z.literal('order'),
  before: z.string().min(1),
  after: z.string().min(1),
});

export const tableTestSchema = z.looseObject({
  ...common,
  type: z.literal('table'),
  cell: z.string(),
  up: z.string().nullish(),
  down: z.string().nullish(),
  left: z.string().nullish(),
  right: z.string().nullish(),
  top_heading: z.string().nullish(),
  left_heading: z.string().nullish(),
});

export const mathTestSchema = z.looseObject({ ...common, type: z.literal('math'), math: z.string().min(1) });

export const baselineTestSchema = z.looseObject({
  ...common,
  type: z.literal('baseline'),
  max_length: z.number().int().nonnegative().nullish(),
  max_repeats: z.number().int().positive().default(30),
  check_disallowed_characters: z.boolean().default(true),
});

export const benchTestSchema = z.discriminatedUnion('type', [
  presenceTestSchema,
  orderTestSchema,
  tableTestSchema,
  mathTestSchema,
  baselineTestSchema,
]);

export type PresenceTest = z.infer<typeof presenceTestSchema>;
export type OrderTest = z.infer<typeof orderTestSchema>;
export type TableTest = z.infer<typeof tableTestSchema>;
export type MathTest = z.infer<typeof mathTestSchema>;
export type BaselineTest = z.infer<typeof baselineTestSchema>;
export type BenchTest = z.infer<typeof benchTestSchema>;
export type BenchTestType = BenchTest['type'];
export const benchTestTypes: readonly BenchTestType[] = ['present', 'absent', 'order', 'table', 'math', 'baseline'];

/**
 * Parses JSONL text into tests. `sourceName` names the file in errors. Bad lines are reported, not thrown, so one
 * malformed test does not lose the rest.
 */
export function parseBenchTests(jsonl: string, sourceName: string): { tests: BenchTest[]; errors: string[] } {
  const tests: BenchTest[] = [];
  const errors: string[] = [];
  jsonl.split(/\r?\n/).forEach((line, index) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      errors.push(`${sourceName}:${index + 1}: not JSON (${(error as Error).message})`);
      return;
    }
    const parsed = benchTestSchema.safeParse(raw);
    if (parsed.success) tests.push(parsed.data);
    else errors.push(`${sourceName}:${index + 1}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  });
  return { tests, errors };
}
