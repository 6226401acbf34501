/**
 * The pool controller against a real (embedded) API server, with virt-api's admission off and no
 * VM controller: the test writes the VMs' Ready condition as the VM controller would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients } from '../../kube/clients';
import { EventRecorder } from '../../kube/events';
import { makeKubeConfig } from '../../kube/kubeconfig';
import { startTestServer, waitFor, type TestServer } from '../../apiserver/testing/test-server';
import { PoolController } from './pool-controller';

interface Obj { metadata: { name: string; uid: string }; spec: { dataVolumeTemplates?: { metadata: { name: string } }[] }; status?: { replicas?: number; readyReplicas?: number; labelSelector?: string } }

let api: TestServer;
let abort: AbortController;
const NS = 'default';
const VMS = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines`;
const POOLS = `/apis/pool.kubevirt.io/v1beta1/namespaces/${NS}/virtualmachinepools`;
const MERGE = { contentType: 'application/merge-patch+json' };

const POOL = {
  apiVersion: 'pool.kubevirt.io/v1beta1', kind: 'VirtualMachinePool', metadata: { name: 'pool', namespace: NS },
  spec: {
    replicas: 2, selector: { matchLabels: { app: 'pool' } },
    virtualMachineTemplate: {
      metadata: { labels: { app: 'pool' } },
      spec: {
        runStrategy: 'Always',
        dataVolumeTemplates: [{ metadata: { name: 'root' }, spec: { source: { blank: {} }, storage: { resources: { requests: { storage: '1Mi' } } } } }],
        template: { spec: { domain: { memory: { guest: '64Mi' }, devices: {} }, volumes: [{ name: 'root', dataVolume: { name: 'root' } }] } },
      },
    },
  },
};
const vmNames = async () => ((await api.call('GET', `${VMS}?labelSelector=app=pool`)).body.items as Obj[]).map((v) => v.metadata.name).sort();

beforeAll(async () => {
  api = await startTestServer();
  const clients = makeKubeClients(makeKubeConfig({ server: api.srv.url, token: api.srv.adminToken, caPem: api.srv.caPem }));
  const controller = new PoolController({ clients, recorder: new EventRecorder(clients.core, { component: 'virt-controller' }) });
  abort = new AbortController();
  void controller.run(abort.signal);
});
afterAll(async () => { abort.abort(); await api.close(); });

describe('VirtualMachinePool controller on a real API server', () => {
  it('creates pool-0 and pool-1 with their own DataVolume names, scales out to pool-2 and in from the highest ordinal', async () => {
    expect((await api.call('POST', POOLS, POOL)).status).toBe(201);
    await waitFor(async () => (await vmNames()).join() === 'pool-0,pool-1', 10_000, 'pool-0 and pool-1');
    const vm1 = (await api.call('GET', `${VMS}/pool-1`)).body as Obj;
    expect(vm1.spec.dataVolumeTemplates?.[0].metadata.name).toBe('root-1');

    await api.call('PATCH', `${VMS}/pool-0/status`, { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, MERGE);
    const status = await waitFor(async () => { const p = (await api.call('GET', `${POOLS}/pool`)).body as Obj; return p.status?.readyReplicas === 1 ? p.status : undefined; }, 10_000, 'readyReplicas 1');
    expect(status).toMatchObject({ replicas: 2, readyReplicas: 1, labelSelector: 'app=pool' });

    expect((await api.call('PATCH', `${POOLS}/pool/scale`, { spec: { replicas: 3 } }, MERGE)).status).toBe(200);
    await waitFor(async () => (await vmNames()).join() === 'pool-0,pool-1,pool-2', 10_000, 'pool-2 added');

    // a hole is filled first: delete pool-1 by hand, it comes back under the same name
    await api.call('DELETE', `${VMS}/pool-1`);
    await waitFor(async () => { const v = (await api.call('GET', `${VMS}/pool-1`)).body as Obj; return v.metadata?.uid && v.metadata.uid !== vm1.metadata.uid; }, 10_000, 'pool-1 recreated');

    expect((await api.call('PATCH', `${POOLS}/pool/scale`, { spec: { replicas: 1 } }, MERGE)).status).toBe(200);
    await waitFor(async () => (await vmNames()).join() === 'pool-0', 10_000, 'only pool-0 left');
    const events = (await api.call('GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name=pool`)).body.items as { reason: string; message: string }[];
    expect(events.map((e) => e.message)).toEqual(expect.arrayContaining(['Created VM default/pool-2', expect.stringMatching(/^Deleted VM default\/pool-2 with uid .* from pool$/)]));
  });
});
