/**
 * The replica set controller against a real (embedded) API server. No VMI controller runs: the
 * test plays it, writing VMI phases and Ready conditions as virt-handler would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients } from '../../kube/clients';
import { EventRecorder } from '../../kube/events';
import { makeKubeConfig } from '../../kube/kubeconfig';
import { startTestServer, waitFor, type TestServer } from '../../apiserver/testing/test-server';
import { ReplicaSetController } from './replicaset-controller';

interface Obj { metadata: { name: string; uid: string; labels?: Record<string, string>; ownerReferences?: { uid: string; controller?: boolean }[] }; spec?: Record<string, unknown>; status?: { replicas?: number; readyReplicas?: number; labelSelector?: string; conditions?: { type: string }[] } }

let api: TestServer;
let abort: AbortController;
const NS = 'default';
const VMIS = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`;
const SETS = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancereplicasets`;
const MERGE = { contentType: 'application/merge-patch+json' };

const replicaSet = (name: string, replicas: number) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceReplicaSet', metadata: { name, namespace: NS },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { domain: { memory: { guest: '64Mi' }, devices: {} } } },
  },
});
const vmisOf = async (app: string) => ((await api.call('GET', `${VMIS}?labelSelector=app=${app}`)).body.items as Obj[]);
const rsOf = async (name: string) => (await api.call('GET', `${SETS}/${name}`)).body as Obj;
const waitCount = (app: string, n: number, what: string) => waitFor(async () => { const l = await vmisOf(app); return l.length === n ? l : undefined; }, 10_000, what) as Promise<Obj[]>;
const setPhase = (name: string, phase: string, ready = false) => api.call('PATCH', `${VMIS}/${name}/status`,
  { status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } }, MERGE);

beforeAll(async () => {
  api = await startTestServer();
  const clients = makeKubeClients(makeKubeConfig({ server: api.srv.url, token: api.srv.adminToken, caPem: api.srv.caPem }));
  const controller = new ReplicaSetController({ clients, recorder: new EventRecorder(clients.core, { component: 'virt-controller' }) });
  abort = new AbortController();
  void controller.run(abort.signal);
});
afterAll(async () => { abort.abort(); await api.close(); });

describe('VirtualMachineInstanceReplicaSet controller on a real API server', () => {
  it('creates replicas with generateName and a controller reference, counts ready ones, scales down and replaces a failed VMI', async () => {
    const created = await api.call('POST', SETS, replicaSet('web', 3));
    expect(created.status).toBe(201);
    const uid = created.body.metadata.uid;
    const three = await waitCount('web', 3, '3 VMIs');
    for (const v of three) {
      expect(v.metadata.name).toMatch(/^web[a-z0-9]{5}$/);
      expect(v.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'VirtualMachineInstanceReplicaSet', name: 'web', uid, controller: true })]);
    }
    await setPhase(three[0].metadata.name, 'Running', true);
    await setPhase(three[1].metadata.name, 'Running', true);
    const rs = await waitFor(async () => { const r = await rsOf('web'); return r.status?.readyReplicas === 2 ? r : undefined; }, 10_000, 'readyReplicas 2') as Obj;
    expect(rs.status).toMatchObject({ replicas: 3, readyReplicas: 2, labelSelector: 'app=web' });

    // scale to 1 through the scale subresource: the not-ready VMI goes first, then the newest ready one
    expect((await api.call('PATCH', `${SETS}/web/scale`, { spec: { replicas: 1 } }, MERGE)).status).toBe(200);
    const one = await waitCount('web', 1, '1 VMI');
    expect([three[0].metadata.name, three[1].metadata.name]).toContain(one[0].metadata.name);

    // a failed VMI is replaced, and then deleted
    await setPhase(one[0].metadata.name, 'Failed');
    await waitFor(async () => { const l = await vmisOf('web'); return l.length === 1 && l[0].metadata.name !== one[0].metadata.name ? l : undefined; }, 10_000, 'failed VMI replaced and deleted');

    const events = (await api.call('GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name=web`)).body.items as { reason: string; message: string }[];
    expect(events.map((e) => e.reason)).toEqual(expect.arrayContaining(['SuccessfulCreate', 'SuccessfulDelete']));
    expect(events.map((e) => e.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^Started the virtual machine by creating the new virtual machine instance web/)]));
  });

  it('adopts a matching orphan instead of creating, releases a VMI relabelled away, and does nothing while paused', async () => {
    const orphan = await api.call('POST', VMIS, { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'orphan', labels: { app: 'db' } }, spec: { domain: { memory: { guest: '64Mi' }, devices: {} } } });
    expect(orphan.status).toBe(201);
    const rs = (await api.call('POST', SETS, replicaSet('db', 2))).body as Obj;
    const two = await waitCount('db', 2, '2 VMIs for db');
    expect(two.find((v) => v.metadata.name === 'orphan')?.metadata.ownerReferences).toEqual([expect.objectContaining({ uid: rs.metadata.uid, controller: true })]);

    await api.call('PATCH', `${SETS}/db`, { spec: { paused: true } }, MERGE);
    await waitFor(async () => (await rsOf('db')).status?.conditions?.some((c) => c.type === 'ReplicaPaused'), 10_000, 'ReplicaPaused');
    await api.call('PATCH', `${VMIS}/orphan`, { metadata: { labels: { app: 'elsewhere' } } }, MERGE);
    const released = await waitFor(async () => { const v = (await api.call('GET', `${VMIS}/orphan`)).body as Obj; return (v.metadata.ownerReferences ?? []).length === 0 ? v : undefined; }, 10_000, 'orphan released') as Obj;
    expect(released.metadata.labels).toEqual({ app: 'elsewhere' });
    await new Promise((r) => setTimeout(r, 500));
    expect(await vmisOf('db')).toHaveLength(1); // paused: not replaced

    await api.call('PATCH', `${SETS}/db`, { spec: { paused: false } }, MERGE);
    await waitCount('db', 2, 'resumed: back to 2');
    expect((await rsOf('db')).status?.conditions ?? []).toEqual([]);

    // deleting the replica set deletes its VMIs (owner references, the garbage collector)
    expect((await api.call('DELETE', `${SETS}/db`)).status).toBe(200);
    await waitCount('db', 0, 'VMIs of a deleted replica set gone');
    expect((await api.call('GET', `${VMIS}/orphan`)).status).toBe(200); // released before: kept
  });
});
