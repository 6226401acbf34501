/** Starts one embedded cluster for the whole e2e run; tests read its URLs from the environment. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startCluster, type TestCluster } from './harness';

export const E2E_STATE_FILE = join(tmpdir(), `kv-e2e-${process.pid}.json`);
let cluster: TestCluster | undefined;

export default async function globalSetup(): Promise<() => Promise<void>> {
  cluster = await startCluster({ nodes: 2, timeoutMs: 180_000 });
  if (!cluster.loginUrl || !cluster.consoleUrl) throw new Error(`kv up printed no console login URL:\n${cluster.output()}`);
  process.env.KV_E2E_LOGIN_URL = cluster.loginUrl;
  process.env.KV_E2E_CONSOLE_URL = cluster.consoleUrl;
  process.env.KV_E2E_KUBECONFIG = cluster.kubeconfig;
  process.env.KV_E2E_DATA_DIR = cluster.dataDir;
  writeFileSync(E2E_STATE_FILE, JSON.stringify({ dataDir: cluster.dataDir }));
  (globalThis as { __kvCluster?: TestCluster }).__kvCluster = cluster;
  return () => cluster!.stop(); // the teardown (global-teardown.ts does the same; stop() is idempotent)
}
