/**
 * inferFromVolume through the real path: the embedded API server calls virt-api's VM mutator,
 * which reads the labels of real PVCs and DataVolumes and stores the VM with the instance type
 * and preference they name; failures come back as the API server relays KubeVirt's refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server';
import { writeAdminKubeconfig } from '../apiserver/testing/admin-kubeconfig';
import { startVirtApi, type VirtApi } from './virt-api-server';

let api: TestServer;
let virtApi: VirtApi;
const VMS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachines';
const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';
const DVS = '/apis/cdi.kubevirt.io/v1beta1/namespaces/default/datavolumes';
const IT_LABEL = 'instancetype.kubevirt.io/default-instancetype';
const PREF_LABEL = 'instancetype.kubevirt.io/default-preference';

const pvc = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, labels },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});
const vm = (name: string, claim: { persistentVolumeClaim: { claimName: string } } | { dataVolume: { name: string } }, matchers: object, memory?: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name },
  spec: {
    runStrategy: 'Halted', ...matchers,
    template: { spec: { domain: { devices: { disks: [{ name: 'root', disk: {} }] }, ...(memory ? { memory: { guest: memory } } : {}) }, volumes: [{ name: 'root', ...claim }] } },
  },
});
const pvcVol = (claimName: string) => ({ persistentVolumeClaim: { claimName } });

beforeAll(async () => {
  api = await startTestServer();
  const kubeconfig = writeAdminKubeconfig(api);
  virtApi = await startVirtApi({ kubeconfig, dataDir: api.dataDir });
  const types = '/apis/instancetype.kubevirt.io/v1beta1';
  expect((await api.call('POST', `${types}/virtualmachineclusterinstancetypes`, { apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineClusterInstancetype', metadata: { name: 'u1.small' }, spec: { cpu: { guest: 1 }, memory: { guest: '2Gi' } } })).status).toBe(201);
  expect((await api.call('POST', `${types}/virtualmachineclusterpreferences`, { apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineClusterPreference', metadata: { name: 'demo' }, spec: { devices: { preferredDiskBus: 'virtio' } } })).status).toBe(201);
  expect((await api.call('POST', PVCS, pvc('fedora', { [IT_LABEL]: 'u1.small', [PREF_LABEL]: 'demo' }))).status).toBe(201);
  expect((await api.call('POST', PVCS, pvc('plain', {}))).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await virtApi?.close();
  await api?.close();
});

describe('inferFromVolume at VM creation', () => {
  it('a VM inferring from a labelled PVC is stored naming the instance type and preference', async () => {
    const res = await api.call('POST', VMS, vm('inferred', pvcVol('fedora'), { instancetype: { inferFromVolume: 'root' }, preference: { inferFromVolume: 'root' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.spec.instancetype).toEqual({ name: 'u1.small' });
    expect(res.body.spec.preference).toEqual({ name: 'demo' });
  });

  it('a DataVolume whose PVC source carries the labels', async () => {
    const dv = { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name: 'clone' }, spec: { source: { pvc: { name: 'fedora', namespace: 'default' } }, storage: { resources: { requests: { storage: '1Gi' } } } } };
    expect((await api.call('POST', DVS, dv)).status).toBe(201);
    const res = await api.call('POST', VMS, vm('from-dv', { dataVolume: { name: 'clone' } }, { instancetype: { inferFromVolume: 'root' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.spec.instancetype).toEqual({ name: 'u1.small' });
  });

  it("a DataVolumeTemplate's sourceRef DataSource: its own labels first, else its source PVC's", async () => {
    const DAS = '/apis/cdi.kubevirt.io/v1beta1/namespaces/default/datasources';
    const das = (name: string, labels: Record<string, string>, pvc: string) => ({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataSource', metadata: { name, labels }, spec: { source: { pvc: { name: pvc, namespace: 'default' } } } });
    expect((await api.call('POST', DAS, das('labelled-das', { [IT_LABEL]: 'u1.small', [PREF_LABEL]: 'demo' }, 'plain'))).status).toBe(201);
    expect((await api.call('POST', DAS, das('bare-das', {}, 'fedora'))).status).toBe(201);
    const withTemplate = (name: string, ds: string) => {
      const v = vm(name, { dataVolume: { name: `${name}-root` } }, { instancetype: { inferFromVolume: 'root' }, preference: { inferFromVolume: 'root' } });
      return { ...v, spec: { ...v.spec, dataVolumeTemplates: [{ metadata: { name: `${name}-root` }, spec: { sourceRef: { kind: 'DataSource', name: ds }, storage: { resources: { requests: { storage: '1Gi' } } } } }] } };
    };
    const own = await api.call('POST', VMS, withTemplate('from-das', 'labelled-das'));
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect([own.body.spec.instancetype, own.body.spec.preference]).toEqual([{ name: 'u1.small' }, { name: 'demo' }]);
    const viaPvc = await api.call('POST', VMS, withTemplate('from-das-pvc', 'bare-das'));
    expect(viaPvc.status, JSON.stringify(viaPvc.body)).toBe(201);
    expect(viaPvc.body.spec.instancetype).toEqual({ name: 'u1.small' });
    const missing = await api.call('POST', VMS, withTemplate('from-ghost', 'ghost-das'));
    expect([missing.status, missing.body.message]).toEqual([400, expect.stringContaining('datasources.cdi.kubevirt.io "ghost-das" not found')]);
  });

  it('a PVC without the label refuses the VM with KubeVirt message (400)', async () => {
    const res = await api.call('POST', VMS, vm('unlabelled', pvcVol('plain'), { instancetype: { inferFromVolume: 'root' } }));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`unable to find required ${IT_LABEL} label on the volume`);
    expect((await api.call('GET', `${VMS}/unlabelled`)).status).toBe(404);
  });

  it('a volume the VM does not have, or a PVC that does not exist, is refused even under Ignore', async () => {
    const noVolume = await api.call('POST', VMS, vm('novol', pvcVol('fedora'), { instancetype: { inferFromVolume: 'data', inferFromVolumeFailurePolicy: 'Ignore' } }, '1Gi'));
    expect([noVolume.status, noVolume.body.message]).toEqual([400, expect.stringContaining('unable to find volume data to infer defaults')]);
    const noPvc = await api.call('POST', VMS, vm('nopvc', pvcVol('ghost'), { preference: { inferFromVolume: 'root' } }, '1Gi'));
    expect([noPvc.status, noPvc.body.message]).toEqual([400, expect.stringContaining('persistentvolumeclaims "ghost" not found')]);
  });

  it('Ignore: no label → stored without the matcher, with the memory the user gave', async () => {
    const res = await api.call('POST', VMS, vm('ignored', pvcVol('plain'), { instancetype: { inferFromVolume: 'root', inferFromVolumeFailurePolicy: 'Ignore' } }, '1Gi'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.spec.instancetype).toBeUndefined();
    expect(res.body.spec.template.spec.domain.memory).toEqual({ guest: '1Gi' });
  });

  it('a matcher with both a name and inferFromVolume → 422 naming the field', async () => {
    const res = await api.call('POST', VMS, vm('both', pvcVol('fedora'), { instancetype: { name: 'u1.small', inferFromVolume: 'root' } }));
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('Name should not be provided when InferFromVolume is used within the InstancetypeMatcher');
    expect(res.body.details.causes).toEqual([expect.objectContaining({ field: 'spec.instancetype.name' })]);
  });
});
