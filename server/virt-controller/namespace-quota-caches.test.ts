/**
 * virt-controller as `kv controller` starts it (startControllers) against a real API server: the
 * VMI and migration controllers share one ResourceQuota and one Namespace watch, as the API
 * server's own count of open watches (apiserver_longrunning_requests) shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server';
import { makeKubeClients } from '../kube/clients';
import { ClusterConfig } from '../kube/cluster-config';
import { EventRecorder } from '../kube/events';
import { makeKubeConfig } from '../kube/kubeconfig';
import { waitFor } from '../kube/testing/wait-for';
import { startControllers } from './main';

let api: TestServer;
const abort = new AbortController();
let stopped: Promise<void>;

beforeAll(async () => {
  api = await startTestServer();
  const clients = makeKubeClients(makeKubeConfig({ server: api.srv.url, token: api.srv.adminToken, caPem: api.srv.caPem }));
  stopped = startControllers({ clients, recorder: new EventRecorder(clients.core, { component: 'virt-controller' }), clusterConfig: new ClusterConfig(clients.kc) }, abort.signal);
});
afterAll(async () => { abort.abort(); await stopped; await api?.close(); });

/** open watches per resource, from the API server's /metrics */
async function openWatches(): Promise<Map<string, number>> {
  const r = await api.call('GET', '/metrics', undefined, { accept: 'text/plain' });
  const out = new Map<string, number>();
  for (const m of String(r.body).matchAll(/^apiserver_longrunning_requests\{group="([^"]*)",resource="([^"]*)"\} (\d+)/gm)) out.set(`${m[1]}/${m[2]}`, Number(m[3]));
  return out;
}

describe('virt-controller shares its ResourceQuota and Namespace caches', () => {
  it('one watch of each, for both the VMI and the migration controller', async () => {
    // the migration controller's VMIM watch and the VMI controller's StorageClass watch are open: both loops run
    await waitFor(async () => { const w = await openWatches(); return (w.get('kubevirt.io/virtualmachineinstancemigrations') ?? 0) > 0 && (w.get('storage.k8s.io/storageclasses') ?? 0) > 0 ? w : undefined; }, 15_000, 'controllers watching');
    await new Promise((res) => setTimeout(res, 300)); // a second informer would open its watch by now
    const settled = await openWatches();
    expect(settled.get('/resourcequotas')).toBe(1);
    expect(settled.get('/namespaces')).toBe(1);
  });
});
