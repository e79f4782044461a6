import { defineConfig } from 'vitest/config';

// Unit tests: app/, main/, native-models/, renderer/ logic, and the benchmarks' own harnesses (bench/). The Playwright suite has its own config (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    include: ['{app,main,native-models,renderer,resources,bench,testing}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
