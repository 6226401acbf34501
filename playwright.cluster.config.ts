import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run test:cluster`: the console journey against kubevirt-ts installed from deploy/ onto
 * `kv up --bare` (e2e/cluster-journey.setup.ts installs it; `next build` first: the console
 * Deployment serves that build). Needs the pod network: no other `kv up` may run.
 */
export default defineConfig({
  ...base,
  testMatch: '*.cluster.ts',
  globalSetup: './e2e/cluster-journey.setup.ts',
  globalTeardown: undefined,
  // a step that hangs (an action button the console hides) fails within minutes, not the base's 10
  timeout: 5 * 60_000,
  use: { ...base.use, actionTimeout: 60_000 },
});
