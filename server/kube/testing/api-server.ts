import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { startApiServer } from '../../apiserver/server';
import { makeKubeConfig } from '../kubeconfig';

/** An embedded API server in a temp data dir, for integration tests; `stop` closes it and removes the dir. */
export async function startTestApiServer(): Promise<{ kc: KubeConfig; dataDir: string; url: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kv-test-'));
  const api = await startApiServer({ dataDir, port: 0 });
  const kc = makeKubeConfig({ server: api.url, token: api.adminToken, caPem: api.caPem });
  return {
    kc,
    dataDir,
    url: api.url,
    stop: async () => {
      await api.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
