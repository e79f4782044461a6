/** olmOCR-Bench scorer: test schema, per-test runner and per-file scoring. */
export * from './schema.js';
export { normalizeBenchText } from './normalize.js';
export { runBenchTest, type TestOutcome } from './runTest.js';
export { scoreBenchTests, implicitBaselineTests, type BenchScore, type PassRate, type TestResult } from './score.js';
export { deriveBenchTests, type DeriveOptions } from './deriveTests.js';
