/** Stops the cluster global-setup started (SIGTERM to `kv up`, which stops every QEMU it ran). */
import type { TestCluster } from './harness';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __kvCluster?: TestCluster }).__kvCluster?.stop();
}
