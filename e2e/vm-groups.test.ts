/**
 * VM groups and presets on a `kv up` cluster with real guests and the real kubectl: a replica set
 * of 3 runs 3 guests, `kubectl scale` takes it to 1, a deleted VMI and one whose QEMU is killed are replaced; a pool of 2 runs
 * pool-0 and pool-1 and `kubectl scale` adds pool-2; a preset gives a new VMI its memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, until, VMIS } from './support/rest';
import { NS, readVMI } from './support/vm-fixtures';
import { qemuPidOn } from './migration-helpers';

const BOOT_MS = 120_000;
let c: LifecycleCluster;
let kubectl: Kubectl;

interface VMI { metadata: { name: string; uid: string; deletionTimestamp?: string; annotations?: Record<string, string> }; spec: { domain: { resources?: { requests?: Record<string, string> } } }; status?: { phase?: string } }

beforeAll(async () => {
  c = await startLifecycleCluster({ nodes: 2 });
  kubectl = makeKubectl(c.cluster.kubeconfig);
});
afterAll(async () => {
  kubectl?.dispose();
  await c?.stop();
});

const guestSpec = `
      domain:
        memory: {guest: 128Mi}
        devices: {disks: [{name: root, disk: {bus: virtio}}]}
      volumes: [{name: root, containerDisk: {image: demo}}]`;

const live = async (app: string) => ((await callRest(c.admin, 'GET', `${VMIS(NS)}?labelSelector=app=${app}`)).body.items as VMI[]).filter((v) => !v.metadata.deletionTimestamp);
const running = async (app: string, n: number) => { const l = await live(app); return l.length === n && l.every((v) => v.status?.phase === 'Running') ? l : undefined; };

async function apply(name: string, yaml: string): Promise<void> {
  const r = await kubectl.run('apply', '-f', kubectl.file(`${name}.yaml`, yaml));
  expect(r.code, r.err).toBe(0);
}

describe('VM groups and presets', () => {
  it('a replica set of 3 runs 3 guests; kubectl scale to 1 leaves 1; a deleted VMI and a killed guest are replaced', async () => {
    await apply('web', `apiVersion: kubevirt.io/v1
kind: VirtualMachineInstanceReplicaSet
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:${guestSpec}
`);
    await until('3 web VMIs Running', () => running('web', 3), BOOT_MS);
    await until('web readyReplicas 3', async () => / 3 +3 +3 +/.test((await kubectl.run('get', 'vmirs', 'web')).out), BOOT_MS);

    const scaled = await kubectl.run('scale', 'vmirs', 'web', '--replicas', '1');
    expect(scaled.out, scaled.err).toBe('virtualmachineinstancereplicaset.kubevirt.io/web scaled\n');
    const [one] = await until('1 web VMI', () => running('web', 1), 60_000);

    expect((await kubectl.run('delete', 'vmi', one.metadata.name, '--wait=false')).code).toBe(0);
    const [replacement] = await until('a new web VMI Running', async () => {
      const l = await running('web', 1);
      return l && l[0].metadata.uid !== one.metadata.uid ? l : undefined;
    }, BOOT_MS);
    expect(replacement.metadata.name).toMatch(/^web[a-z0-9]{5}$/);

    // kill -9 of its QEMU: the VMI fails, a new one takes its place and the failed one is deleted
    const full = await readVMI(c.admin, replacement.metadata.name);
    const pid = qemuPidOn(c.cluster, full, full.status.nodeName);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await until('the killed guest replaced', async () => {
      const l = await running('web', 1);
      return l && l[0].metadata.uid !== replacement.metadata.uid && !(await readVMI(c.admin, replacement.metadata.name));
    }, BOOT_MS);
  });

  it('a pool of 2 runs pool-0 and pool-1; kubectl scale to 3 adds pool-2, back to 1 removes the highest', async () => {
    await apply('pool', `apiVersion: pool.kubevirt.io/v1beta1
kind: VirtualMachinePool
metadata: {name: pool}
spec:
  replicas: 2
  selector: {matchLabels: {app: pool}}
  virtualMachineTemplate:
    metadata: {labels: {app: pool}}
    spec:
      runStrategy: Always
      template:
        metadata: {labels: {app: pool}}
        spec:${guestSpec.replace(/\n {6}/g, '\n          ')}
`);
    const names = async () => (await running('pool', (await live('pool')).length))?.map((v) => v.metadata.name).sort().join(',');
    await until('pool-0 and pool-1 Running', async () => (await names()) === 'pool-0,pool-1', BOOT_MS);
    const scaled = await kubectl.run('scale', 'vmpool', 'pool', '--replicas', '3');
    expect(scaled.out, scaled.err).toBe('virtualmachinepool.pool.kubevirt.io/pool scaled\n');
    await until('pool-2 Running', async () => (await names()) === 'pool-0,pool-1,pool-2', BOOT_MS);
    const vms = await kubectl.run('get', 'vm', '-l', 'app=pool', '-o', 'name');
    expect(vms.out).toBe('virtualmachine.kubevirt.io/pool-0\nvirtualmachine.kubevirt.io/pool-1\nvirtualmachine.kubevirt.io/pool-2\n');

    // and back: the highest indexes go, their guests stop
    expect((await kubectl.run('scale', 'vmpool', 'pool', '--replicas', '1')).code).toBe(0);
    await until('only pool-0 left', async () => (await kubectl.run('get', 'vm', '-l', 'app=pool', '-o', 'name')).out === 'virtualmachine.kubevirt.io/pool-0\n', BOOT_MS);
    await until('only pool-0 guest left', async () => (await names()) === 'pool-0', BOOT_MS);
  });

  it('a preset selected by label gives a new VMI its memory and names itself in an annotation', async () => {
    await apply('preset', `apiVersion: kubevirt.io/v1
kind: VirtualMachineInstancePreset
metadata: {name: small}
spec:
  selector: {matchLabels: {flavor: small}}
  domain:
    devices: {}
    resources: {requests: {memory: 128Mi}}
`);
    await apply('preset-vmi', `apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata: {name: preset-vmi, labels: {flavor: small}}
spec:
  domain:
    devices: {disks: [{name: root, disk: {bus: virtio}}]}
  volumes: [{name: root, containerDisk: {image: demo}}]
`);
    const vmi = await until('preset-vmi Running', async () => { const v = await readVMI(c.admin, 'preset-vmi') as VMI | undefined; return v?.status?.phase === 'Running' ? v : undefined; }, BOOT_MS);
    expect(vmi.metadata.annotations?.['virtualmachinepreset.kubevirt.io/small']).toBe('kubevirt.io/v1');
    expect(vmi.spec.domain.resources?.requests?.memory).toBe('128Mi');
    expect((await kubectl.run('get', 'vmipreset', 'small')).err).toContain('kubevirt.io/v1 VirtualMachineInstancePresets is now deprecated');
  });

  it('a preset that conflicts with the VMI is skipped with a Warning event', async () => {
    await apply('preset-cpu', `apiVersion: kubevirt.io/v1
kind: VirtualMachineInstancePreset
metadata: {name: two-cores}
spec:
  selector: {matchLabels: {flavor: cores}}
  domain:
    devices: {}
    cpu: {cores: 2}
`);
    const created = await kubectl.run('apply', '-f', kubectl.file('cores-vmi.yaml', `apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata: {name: cores-vmi, labels: {flavor: cores}}
spec:
  domain:
    cpu: {cores: 1}
    memory: {guest: 128Mi}
    devices: {disks: [{name: root, disk: {bus: virtio}}]}
  volumes: [{name: root, containerDisk: {image: demo}}]
`));
    expect(created.code, created.err).toBe(0);
    expect(created.err).toContain("Unable to apply VirtualMachineInstancePreset 'two-cores'");
    const vmi = await readVMI(c.admin, 'cores-vmi') as VMI & { spec: { domain: { cpu?: { cores?: number } } } };
    expect(vmi.spec.domain.cpu?.cores).toBe(1);
    expect(vmi.metadata.annotations?.['virtualmachinepreset.kubevirt.io/two-cores']).toBeUndefined();
    const events = await until('PresetFailed event', async () => {
      const list = (await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name=cores-vmi`)).body.items as { reason: string; type: string; message: string }[];
      return list.find((e) => e.reason === 'PresetFailed');
    }, 30_000);
    expect(events).toMatchObject({ type: 'Warning', message: expect.stringContaining('spec.cpu: {"cores":2} != {"cores":1}') });
  });
});
