/**
 * `npx vitest run -c e2e/migration.vitest.config.ts`: the live-migration tests on a whole `kv up`
 * cluster (the root config leaves e2e/ out). MIGRATION_STRESS_REPEAT=10 for the full stress run.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/migration*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
