/**
 * `npx vitest run -c e2e/lifecycle.vitest.config.ts`: VM lifecycle and virt-api on whole `kv up`
 * clusters with real guests (the root config leaves e2e/ out): the runStrategy × action table,
 * kubectl, aggregation vs direct virt-api, admission fuzz, console streams and screenshots.
 * ADMISSION_FUZZ_COUNT sets the fuzz size (default 10000).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/lifecycle*.test.ts', 'e2e/admission-fuzz*.test.ts', 'e2e/console-streams*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: false,
    maxConcurrency: 16,
  },
});
