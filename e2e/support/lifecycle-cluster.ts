/**
 * One `kv up --no-console` cluster for a test file; `kv up` runs virt-api as its own component, so
 * admission and every subresource are there without the console. Gives endpoints for the admin and
 * the viewer, through the API server (aggregation) and directly on virt-api.
 */
import { readFileSync } from 'node:fs';
import { dataPaths } from '../../server/data-dir';
import { findProcesses } from '../../server/virt-handler/testing/stack-helpers';
import { startCluster, type TestCluster } from '../harness';
import { callRest, until, type Endpoint } from './rest';

export interface LifecycleCluster {
  cluster: TestCluster;
  /** API server, cluster-admin token */
  admin: Endpoint;
  /** API server, the view-only user's token */
  viewer: Endpoint;
  /** virt-api itself (its URL from the Endpoints of kubevirt/virt-api), cluster-admin token */
  virtApi: Endpoint;
  /** the Origin virt-api lets open console sockets (the console's, though it does not run here) */
  consoleOrigin: string;
  virtApiPid: () => number | undefined;
  stop: () => Promise<void>;
}

function viewerToken(dataDir: string): string {
  const file = JSON.parse(readFileSync(dataPaths(dataDir).tokens, 'utf8'));
  return file.tokens.find((t: { username: string }) => t.username === 'viewer').token;
}

/** The address the API server proxies subresources.kubevirt.io to (the Endpoints of kubevirt/virt-api). */
async function virtApiUrl(admin: Endpoint): Promise<string> {
  const ep = (await callRest(admin, 'GET', '/api/v1/namespaces/kubevirt/endpoints/virt-api')).body;
  const subset = ep.subsets[0];
  return `https://${subset.addresses[0].ip}:${subset.ports[0].port}`;
}

export async function startLifecycleCluster(opts: { nodes: number; env?: Record<string, string> }): Promise<LifecycleCluster> {
  const cluster = await startCluster({ nodes: opts.nodes, console: false, timeoutMs: 180_000, env: opts.env });
  const { server: url, ca, token } = cluster.access;
  const admin: Endpoint = { url, ca, token };
  try {
    await until('subresources.kubevirt.io served through the API server', async () => (await callRest(admin, 'GET', '/apis/subresources.kubevirt.io/v1')).status === 200, 30_000);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return {
    cluster, admin, viewer: { url, ca, token: viewerToken(cluster.dataDir) },
    virtApi: { url: await virtApiUrl(admin), ca, token },
    consoleOrigin: cluster.consoleOrigin,
    virtApiPid: () => findProcesses(['virt-api', '--data-dir', cluster.dataDir])[0],
    stop: () => cluster.stop(),
  };
}
