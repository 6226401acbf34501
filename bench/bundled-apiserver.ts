import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import type { ChildServer } from '../server/apiserver/testing/child-server';
import { API_SERVER_FLAGS } from '../server/up/node-flags';

const KV = fileURLToPath(new URL('../bin/kv.mjs', import.meta.url));
const KV_BUNDLE = fileURLToPath(new URL('../bin/kv-bundle.mjs', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** `kv apiserver` from the esbuild bundle with kv up's node flags for it (as `kv up` runs it), ready once it wrote DIR/kubeconfig */
export async function startBundledServer(dataDir: string, nodeArgs: string[] = []): Promise<ChildServer> {
  const { bundleEntry } = (await import(KV_BUNDLE)) as { bundleEntry: () => string | undefined };
  if (!bundleEntry()) throw new Error('no up-to-date bundle: run `node bin/kv.mjs bundle` first (or KV_BENCH_SERVER=tsx)');
  const port = await freePort();
  const proc = spawn(process.execPath, [...API_SERVER_FLAGS, ...nodeArgs, KV, 'apiserver', '--data-dir', dataDir, '--port', String(port), '--host', '127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, KV_LOG_LEVEL: 'warn' },
  });
  const kubeconfig = join(dataDir, 'kubeconfig');
  const deadline = Date.now() + 60_000;
  while (!existsSync(kubeconfig)) {
    if (proc.exitCode !== null) throw new Error(`kv apiserver exited with ${proc.exitCode}`);
    if (Date.now() > deadline) throw new Error('kv apiserver did not become ready in 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 200)); // the file is written whole by then
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const cluster = kc.getCurrentCluster()!;
  return {
    proc, url: cluster.server, port,
    caPem: Buffer.from(cluster.caData!, 'base64').toString(),
    adminToken: kc.getCurrentUser()!.token!,
  };
}
