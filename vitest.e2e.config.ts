import { defineConfig } from 'vitest/config';

// End-to-end tests: the built app (npm run build) in real processes, driven in Debian's Chromium. One file at a
// time: they share two cores with OCR.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
