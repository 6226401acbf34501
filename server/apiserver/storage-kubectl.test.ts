import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlWithToken, type Kubectl } from '../../e2e/support/kubectl';
import { startTestServer, waitFor, type TestServer } from './testing/test-server';

let t: TestServer;
let k: Kubectl;
const kubectl = (...args: string[]) => k.run(...args);
const manifest = (name: string, text: string) => k.file(name, text);

const json = async (...args: string[]) => {
  const r = await kubectl('get', ...args, '-o', 'json');
  expect(r.err).toBe('');
  return JSON.parse(r.out);
};

const STORAGE = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: kubevirt-ts.io/hostpath
allowVolumeExpansion: true
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: slow
provisioner: kubevirt-ts.io/hostpath
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv1
spec:
  capacity: {storage: 2Gi}
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  hostPath: {path: /tmp/pv1}
  storageClassName: slow
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests: {storage: 1Gi}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: pinned
spec:
  storageClassName: slow
  accessModes: [ReadWriteOnce]
  resources:
    requests: {storage: 1Gi}
`;

/** what the binder would write: the claim is Bound to a volume of its requested size */
const bind = (name: string) => kubectl('patch', 'pvc', name, '--subresource=status', '--type=merge',
  '-p', '{"status":{"phase":"Bound","capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"]}}');

beforeAll(async () => {
  t = await startTestServer();
  k = kubectlWithToken(t.srv, t.srv.adminToken);
});
afterAll(async () => {
  await t?.close();
  k?.dispose();
});

describe('storage objects through kubectl 1.32', () => {
  it('applies StorageClasses, a PV and PVCs, and re-applies them unchanged', async () => {
    const path = manifest('storage.yaml', STORAGE);
    const first = await kubectl('apply', '-f', path);
    expect(first.err).toBe('');
    expect(first.out).toBe('storageclass.storage.k8s.io/fast created\nstorageclass.storage.k8s.io/slow created\npersistentvolume/pv1 created\npersistentvolumeclaim/data created\npersistentvolumeclaim/pinned created\n');
    expect((await kubectl('apply', '-f', path)).out).toMatch(/persistentvolumeclaim\/data unchanged\n/);
    const ssa = await kubectl('apply', '--server-side', '-f', path);
    expect(ssa.err).toBe('');
    expect(ssa.out).toMatch(/persistentvolume\/pv1 serverside-applied\npersistentvolumeclaim\/data serverside-applied\n/);
  });

  it('defaults a claim: the default class, Filesystem, Pending, the protection finalizer', async () => {
    const pvc = await json('pvc', 'data');
    expect(pvc.spec).toMatchObject({ storageClassName: 'fast', volumeMode: 'Filesystem' });
    expect(pvc.status).toEqual({ phase: 'Pending' });
    expect(pvc.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect((await json('pvc', 'pinned')).spec.storageClassName).toBe('slow');
  });

  it('defaults a volume and a class', async () => {
    const pv = await json('pv', 'pv1');
    expect(pv.spec).toMatchObject({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    expect(pv.status.phase).toBe('Pending');
    expect(pv.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect(await json('sc', 'fast')).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
  });

  it.each([
    [['get', 'pvc'], /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE\ndata\s+Pending\s+fast\s+<unset>\s+\d+s\npinned\s+Pending\s+slow\s+<unset>\s+\d+s\n$/],
    [['get', 'pv'], /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE\npv1\s+2Gi\s+RWO,ROX\s+Retain\s+Pending\s+slow\s+<unset>\s+\d+s\n$/],
    [['get', 'sc'], /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE\nfast \(default\)\s+kubevirt-ts.io\/hostpath\s+Delete\s+Immediate\s+true\s+\d+s\nslow\s+kubevirt-ts.io\/hostpath\s+Delete\s+WaitForFirstConsumer\s+false\s+\d+s\n$/],
    [['api-resources', '--api-group=storage.k8s.io'], /storageclasses\s+sc\s+storage.k8s.io\/v1\s+false\s+StorageClass/],
    [['api-resources', '--api-group='], /persistentvolumeclaims\s+pvc\s+v1\s+true\s+PersistentVolumeClaim[\s\S]*persistentvolumes\s+pv\s+v1\s+false\s+PersistentVolume/],
    [['describe', 'pvc', 'data'], /Name:\s+data\nNamespace:\s+default\nStorageClass:\s+fast\nStatus:\s+Pending[\s\S]*Finalizers:\s+\[kubernetes.io\/pvc-protection\][\s\S]*VolumeMode:\s+Filesystem/],
    [['describe', 'pv', 'pv1'], /Name:\s+pv1[\s\S]*StorageClass:\s+slow\nStatus:\s+Pending[\s\S]*Reclaim Policy:\s+Retain\nAccess Modes:\s+RWO,ROX[\s\S]*Type:\s+HostPath/],
    [['describe', 'sc', 'fast'], /Name:\s+fast\nIsDefaultClass:\s+Yes[\s\S]*Provisioner:\s+kubevirt-ts.io\/hostpath[\s\S]*AllowVolumeExpansion:\s+True[\s\S]*ReclaimPolicy:\s+Delete\nVolumeBindingMode:\s+Immediate/],
  ])('kubectl %j prints kube\'s columns', async (args, expected) => {
    const r = await kubectl(...args);
    expect(r.err).toBe('');
    expect(r.out).toMatch(expected);
  });

  it('refuses an invalid claim with kube\'s causes', async () => {
    const r = await kubectl('apply', '-f', manifest('bad.yaml', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: bad\nspec:\n  volumeMode: Raw\n  resources: {}\n'));
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('The PersistentVolumeClaim "bad" is invalid: \n');
    expect(r.err).toContain('* spec.accessModes: Required value: at least 1 access mode is required');
    expect(r.err).toContain('* spec.resources[storage]: Required value');
    expect(r.err).toContain('* spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"');
    expect((await kubectl('get', 'pvc', 'bad')).err).toMatch(/NotFound/);
  });

  it('keeps an unbound claim\'s spec immutable', async () => {
    const r = await kubectl('patch', 'pvc', 'data', '-p', '{"spec":{"resources":{"requests":{"storage":"3Gi"}}}}');
    expect(r.err).toContain('The PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
  });

  it('status writes change only status; spec writes keep it', async () => {
    expect((await bind('data')).code).toBe(0);
    expect((await bind('pinned')).code).toBe(0);
    expect((await kubectl('label', 'pvc', 'data', 'tier=gold')).code).toBe(0);
    const pvc = await json('pvc', 'data');
    expect(pvc.status.phase).toBe('Bound');
    expect(pvc.metadata.labels).toEqual({ tier: 'gold' });
    const statusWrite = await kubectl('patch', 'pvc', 'data', '--subresource=status', '--type=merge', '-p', '{"spec":{"volumeMode":"Block"},"status":{"conditions":[{"type":"Resizing","status":"False"}]}}');
    expect(statusWrite.code).toBe(0);
    const after = await json('pvc', 'data');
    expect(after.spec.volumeMode).toBe('Filesystem');
    expect(after.status.conditions).toEqual([{ type: 'Resizing', status: 'False' }]);
  });

  it('refuses to shrink a bound claim below its capacity', async () => {
    const r = await kubectl('patch', 'pvc', 'data', '-p', '{"spec":{"resources":{"requests":{"storage":"512Mi"}}}}');
    expect(r.err).toContain('The PersistentVolumeClaim "data" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity');
  });

  it('refuses to grow a claim whose class does not allow expansion, and grows one whose class does', async () => {
    const refused = await kubectl('patch', 'pvc', 'pinned', '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}');
    expect(refused.err).toBe('Error from server (Forbidden): persistentvolumeclaims "pinned" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize\n');
    expect((await kubectl('patch', 'pvc', 'data', '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}')).code).toBe(0);
    expect((await json('pvc', 'data')).spec.resources.requests.storage).toBe('2Gi');
  });

  it('keeps a class\'s provisioner and binding mode', async () => {
    const r = await kubectl('patch', 'sc', 'slow', '--type=merge', '-p', '{"provisioner":"other.io/x","volumeBindingMode":"Immediate"}');
    expect(r.err).toContain('provisioner: Forbidden: updates to provisioner are forbidden.');
    expect(r.err).toContain('volumeBindingMode: Invalid value: "Immediate": field is immutable');
  });

  it('watches claims', async () => {
    const w = k.start('get', 'pvc', '-w', '--no-headers');
    let out = '';
    w.stdout.on('data', (d) => { out += d; });
    try {
      await waitFor(() => out.includes('pinned'), 10_000, 'initial list');
      expect((await kubectl('create', '-f', manifest('w.yaml', STORAGE.split('---\n')[3].replace('name: data', 'name: watched')))).code).toBe(0);
      await waitFor(() => out.includes('watched'), 10_000, 'watch event');
    } finally {
      w.kill();
    }
  });

  it('deleting a claim or a volume leaves it Terminating until its protection finalizer is lifted', async () => {
    for (const [kind, name] of [['pvc', 'pinned'], ['pv', 'pv1']]) {
      expect((await kubectl('delete', kind, name, '--wait=false')).code).toBe(0);
      expect((await kubectl('get', kind, name, '-o', 'jsonpath={.metadata.deletionTimestamp}')).out).not.toBe('');
      expect((await kubectl('get', kind, name, '--no-headers')).out).toMatch(/\sTerminating\s/);
      expect((await kubectl('patch', kind, name, '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]')).code).toBe(0);
      expect((await kubectl('get', kind, name)).err).toMatch(/NotFound/);
    }
  });
});
