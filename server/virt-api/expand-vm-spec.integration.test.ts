/**
 * The namespaced expand-vm-spec through the real API server (aggregation to virt-api): a VM that is
 * not stored goes in, the VM as it would start comes out with the instance type's CPU and memory
 * and the preference's devices; refusals are 400s with KubeVirt's messages; nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server';
import { writeAdminKubeconfig } from '../apiserver/testing/admin-kubeconfig';
import { startVirtApi, type VirtApi } from './virt-api-server';

let api: TestServer;
let virtApi: VirtApi;
const EXPAND = '/apis/subresources.kubevirt.io/v1/namespaces/default/expand-vm-spec';
const TYPES = '/apis/instancetype.kubevirt.io/v1beta1';

const draft = (spec: object, template: object = {}, metadata: object = { name: 'draft' }) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata,
  spec: {
    runStrategy: 'Halted', ...spec,
    template: { spec: { domain: { devices: { disks: [{ name: 'root', disk: {} }] }, ...template }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] } },
  },
});

beforeAll(async () => {
  api = await startTestServer();
  const kubeconfig = writeAdminKubeconfig(api);
  virtApi = await startVirtApi({ kubeconfig, dataDir: api.dataDir });
  const make = async (plural: string, kind: string, name: string, spec: object, ns?: string) => {
    const path = ns ? `${TYPES}/namespaces/${ns}/${plural}` : `${TYPES}/${plural}`;
    expect((await api.call('POST', path, { apiVersion: 'instancetype.kubevirt.io/v1beta1', kind, metadata: { name }, spec })).status).toBe(201);
  };
  await make('virtualmachineclusterinstancetypes', 'VirtualMachineClusterInstancetype', 'u1.small', { cpu: { guest: 1 }, memory: { guest: '2Gi' } });
  await make('virtualmachineclusterpreferences', 'VirtualMachineClusterPreference', 'demo', { devices: { preferredDiskBus: 'virtio' }, cpu: { preferredCPUTopology: 'preferCores' } });
  await make('virtualmachineinstancetypes', 'VirtualMachineInstancetype', 'team-big', { cpu: { guest: 4 }, memory: { guest: '3Gi' } }, 'default');
}, 60_000);

afterAll(async () => {
  await virtApi?.close();
  await api?.close();
});

describe('PUT …/namespaces/{ns}/expand-vm-spec', () => {
  it('expands a draft naming a cluster instance type and preference, drops the matchers, writes nothing', async () => {
    const res = await api.call('PUT', EXPAND, draft({ instancetype: { kind: 'VirtualMachineClusterInstancetype', name: 'u1.small' }, preference: { kind: 'VirtualMachineClusterPreference', name: 'demo' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.kind).toBe('VirtualMachine');
    expect(res.body.metadata.namespace).toBe('default');
    expect(res.body.spec.template.spec.domain.cpu).toMatchObject({ cores: 1, sockets: 1 });
    expect(res.body.spec.template.spec.domain.memory).toEqual({ guest: '2Gi' });
    expect(res.body.spec.template.spec.domain.devices.disks[0]).toEqual({ name: 'root', disk: { bus: 'virtio' } });
    expect(res.body.spec.instancetype).toBeUndefined();
    expect(res.body.spec.preference).toBeUndefined();
    expect((await api.call('GET', '/apis/kubevirt.io/v1/namespaces/default/virtualmachines/draft')).status).toBe(404);
  });

  it("a namespaced instance type is found in the endpoint's namespace", async () => {
    const res = await api.call('PUT', EXPAND, draft({ instancetype: { kind: 'VirtualMachineInstancetype', name: 'team-big' } }, {}, { name: 'x', namespace: 'default' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.spec.template.spec.domain.cpu).toMatchObject({ sockets: 4 });
    expect(res.body.spec.template.spec.domain.memory).toEqual({ guest: '3Gi' });
  });

  it.each([
    ['a conflicting domain.cpu', draft({ instancetype: { name: 'u1.small' } }, { cpu: { sockets: 2 } }), 'VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type'],
    ['a missing instance type', draft({ instancetype: { name: 'u9.huge' } }), 'Failure to find instancetype: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u9.huge" not found'],
    ['another namespace in the VM', draft({ instancetype: { name: 'u1.small' } }, {}, { name: 'x', namespace: 'elsewhere' }), 'VM namespace must be empty or default'],
    ['not a VM', { kind: 'Pod', spec: {} }, 'Object is not a valid VirtualMachine'],
  ])('refuses %s with 400 and KubeVirt\'s message', async (_n, body, message) => {
    const res = await api.call('PUT', EXPAND, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message });
  });

  it("a viewer may expand (KubeVirt's view role); a user without a role gets 403 naming the resource", async () => {
    const body = draft({ instancetype: { name: 'u1.small' } });
    expect((await api.call('PUT', EXPAND, body, { token: api.srv.viewerToken })).status).toBe(200);
    expect((await api.call('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'nobody' } })).status).toBe(201);
    const token = (await api.call('POST', '/api/v1/namespaces/default/serviceaccounts/nobody/token', { spec: {} })).body.status.token;
    const res = await api.call('PUT', EXPAND, body, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.message).toBe('expand-vm-spec.subresources.kubevirt.io is forbidden: User "system:serviceaccount:default:nobody" cannot update resource "expand-vm-spec" in API group "subresources.kubevirt.io" in the namespace "default"');
  });

  it('GET is not served; discovery lists expand-vm-spec', async () => {
    expect((await api.call('GET', EXPAND)).status).toBe(405);
    const list = await api.call('GET', '/apis/subresources.kubevirt.io/v1');
    expect(list.body.resources).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'expand-vm-spec', verbs: ['update'] })]));
  });
});
