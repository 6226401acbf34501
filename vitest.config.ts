import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = { '@': fileURLToPath(new URL('.', import.meta.url)) };
const ignored = ['node_modules/**', '.next/**', 'test-results/**'];
/** objects shared by the informers of a process are frozen in every test run, clusters included (server/kube/cache-mutation-detector.ts) */
const CACHE_MUTATION_DETECTOR = { KV_CACHE_MUTATION_DETECTOR: '1' };

/**
 * Two projects:
 * - unit: pure code and single real parts (a QEMU, one API server), run in parallel;
 * - integration: whole clusters (`*.integration.test.ts`, `e2e/*.test.ts`), one file at a time
 *   so two clusters never fight over 2 cores. Browser tests are Playwright's (`e2e/*.spec.ts`).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['**/*.test.ts', '**/*.test.tsx'],
          exclude: [...ignored, 'e2e/**', '**/*.integration.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          env: CACHE_MUTATION_DETECTOR,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['**/*.integration.test.ts', 'e2e/**/*.test.ts'],
          exclude: ignored,
          testTimeout: 300_000,
          hookTimeout: 240_000,
          pool: 'forks',
          env: CACHE_MUTATION_DETECTOR,
          fileParallelism: false,
          // rows of one table share a cluster and run concurrently (test.concurrent)
          maxConcurrency: 16,
        },
      },
    ],
  },
});
