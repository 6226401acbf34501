/**
 * One `kv up --no-console` cluster for a test file, plus virt-api as its own process (in `kv up`
 * virt-api lives in the console server, which needs a `next build`). Gives endpoints for the
 * admin and the viewer, through the API server (aggregation) and directly on virt-api.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dataPaths } from '../../server/data-dir';
import { startCluster, type TestCluster } from '../harness';
import { callRest, until, type Endpoint } from './rest';

const virtApiMain = fileURLToPath(new URL('./virt-api-main.ts', import.meta.url));
/** The web console origin virt-api trusts for console sockets in these clusters. */
export const CONSOLE_ORIGIN = 'http://127.0.0.1:3000';

export interface LifecycleCluster {
  cluster: TestCluster;
  /** API server, cluster-admin token */
  admin: Endpoint;
  /** API server, the view-only user's token */
  viewer: Endpoint;
  /** virt-api itself (its URL from the Endpoints of kubevirt/virt-api), cluster-admin token */
  virtApi: Endpoint;
  virtApiPid: () => number | undefined;
  stop: () => Promise<void>;
}

function viewerToken(dataDir: string): string {
  const file = JSON.parse(readFileSync(dataPaths(dataDir).tokens, 'utf8'));
  return file.tokens.find((t: { username: string }) => t.username === 'viewer').token;
}

function startVirtApiProcess(dataDir: string): { child: ChildProcess; ready: Promise<void>; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', virtApiMain, '--data-dir', dataDir, '--allowed-origin', CONSOLE_ORIGIN], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KV_LOG_LEVEL: process.env.KV_LOG_LEVEL ?? 'warn' },
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => { if (out.includes('virt-api ready')) resolve(); });
    child.on('exit', (code) => reject(new Error(`virt-api exited with ${code}:\n${out}`)));
  });
  return { child, ready, output: () => out };
}

/** The address the API server proxies subresources.kubevirt.io to (the Endpoints of kubevirt/virt-api). */
async function virtApiUrl(admin: Endpoint): Promise<string> {
  const ep = (await callRest(admin, 'GET', '/api/v1/namespaces/kubevirt/endpoints/virt-api')).body;
  const subset = ep.subsets[0];
  return `https://${subset.addresses[0].ip}:${subset.ports[0].port}`;
}

export async function startLifecycleCluster(opts: { nodes: number }): Promise<LifecycleCluster> {
  const cluster = await startCluster({ nodes: opts.nodes, console: false, timeoutMs: 180_000 });
  const { server: url, ca, token } = cluster.access;
  const admin: Endpoint = { url, ca, token };
  const api = startVirtApiProcess(cluster.dataDir);
  try {
    await Promise.race([api.ready, until('virt-api ready', () => false, 60_000)]);
    await until('subresources.kubevirt.io served through the API server', async () => (await callRest(admin, 'GET', '/apis/subresources.kubevirt.io/v1')).status === 200, 30_000);
  } catch (err) {
    api.child.kill('SIGKILL');
    await cluster.stop();
    throw new Error(`${(err as Error).message}\n${api.output()}`, { cause: err });
  }
  const stop = async () => {
    if (api.child.exitCode === null) {
      const exited = new Promise((r) => api.child.once('exit', r));
      api.child.kill('SIGTERM');
      const timer = setTimeout(() => api.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await cluster.stop();
  };
  return {
    cluster, admin, viewer: { url, ca, token: viewerToken(cluster.dataDir) },
    virtApi: { url: await virtApiUrl(admin), ca, token },
    virtApiPid: () => (api.child.exitCode === null ? api.child.pid : undefined),
    stop,
  };
}
