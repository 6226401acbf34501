/**
 * Instance types and preferences as a KubeVirt user writes them, with the real kubectl on a
 * `kv up` cluster: the common types are there; a VM naming only u1.small, the demo preference and a
 * containerDisk runs with the type's CPU and memory; expand-spec shows the expanded VM; an edit of
 * the type leaves the running VMI alone until a restart, which moves revisionName; a VM that sets
 * what its type sets, or names a type that does not exist, is refused with KubeVirt's message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callAction, isRunning } from './support/lifecycle-table';
import { callRest, subresource, until } from './support/rest';
import { NS, readState, readVM, readVMI } from './support/vm-fixtures';

const BOOT_MS = 120_000;
let c: LifecycleCluster;
let kubectl: Kubectl;

beforeAll(async () => {
  c = await startLifecycleCluster({ nodes: 1 });
  kubectl = makeKubectl(c.cluster.kubeconfig);
});
afterAll(async () => {
  kubectl?.dispose();
  await c?.stop();
});

const vmYaml = (name: string, instancetype: string, extra = '') => `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: ${name}
spec:
  runStrategy: Always
  instancetype: ${instancetype}
  preference: {name: demo}
  template:
    spec:
      domain:
        devices: {}${extra}
      volumes:
        - {name: root, containerDisk: {image: demo}}
`;

describe('instance types and preferences', () => {
  it('kv up installs the common instance types and the demo preference', async () => {
    const types = await kubectl.run('get', 'vmcf', '-o', 'name');
    expect(types.out).toContain('virtualmachineclusterinstancetype.instancetype.kubevirt.io/u1.small\n');
    expect(types.out).toContain('virtualmachineclusterinstancetype.instancetype.kubevirt.io/o1.medium\n');
    expect((await kubectl.run('get', 'vmcp', 'demo', '-o', 'name')).out).toBe('virtualmachineclusterpreference.instancetype.kubevirt.io/demo\n');
  });

  it('a VM naming u1.small runs with its CPU and memory; expand-spec shows the expanded VM', async () => {
    const applied = await kubectl.run('apply', '-f', kubectl.file('small.yaml', vmYaml('small', '{name: u1.small}')));
    expect(applied.out, applied.err).toBe('virtualmachine.kubevirt.io/small created\n');
    await until('small Running', async () => isRunning(await readState(c.admin, 'small')), BOOT_MS);
    const vmi = await readVMI(c.admin, 'small');
    expect(vmi.spec.domain.cpu).toMatchObject({ sockets: 1, cores: 1, threads: 1 });
    expect(vmi.spec.domain.memory.guest).toBe('2Gi');
    expect(vmi.spec.domain.devices.disks[0].disk.bus).toBe('virtio');
    const vm = await readVM(c.admin, 'small');
    expect(vm.spec.instancetype.revisionName).toMatch(/^small-u1\.small-[0-9a-f-]+-1$/);
    expect((await callRest(c.admin, 'GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions/${vm.spec.instancetype.revisionName}`)).status).toBe(200);
    const expanded = (await callRest(c.admin, 'GET', subresource(NS, 'virtualmachines', 'small', 'expand-spec'))).body;
    expect(expanded.spec.template.spec.domain).toMatchObject({ cpu: { sockets: 1 }, memory: { guest: '2Gi' } });
  });

  it('editing the type leaves the running VMI as it was; a restart picks the new revision', async () => {
    const it1 = `apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineInstancetype
metadata: {name: mine}
spec: {cpu: {guest: 1}, memory: {guest: 256Mi}}
`;
    expect((await kubectl.run('apply', '-f', kubectl.file('mine.yaml', it1))).code).toBe(0);
    expect((await kubectl.run('apply', '-f', kubectl.file('mine-vm.yaml', vmYaml('mine-vm', '{name: mine, kind: VirtualMachineInstancetype}')))).code).toBe(0);
    await until('mine-vm Running', async () => isRunning(await readState(c.admin, 'mine-vm')), BOOT_MS);
    const before = await readVM(c.admin, 'mine-vm');
    const firstVMI = await readVMI(c.admin, 'mine-vm');
    expect(firstVMI.spec.domain.memory.guest).toBe('256Mi');

    expect((await kubectl.run('patch', 'vmf', 'mine', '--type', 'merge', '-p', '{"spec":{"memory":{"guest":"512Mi"}}}')).code).toBe(0);
    await new Promise((r) => setTimeout(r, 2000));
    expect((await readVMI(c.admin, 'mine-vm')).spec.domain.memory.guest).toBe('256Mi');
    expect((await readVM(c.admin, 'mine-vm')).spec.instancetype.revisionName).toBe(before.spec.instancetype.revisionName);

    expect((await callAction(c.admin, 'mine-vm', 'restart')).status).toBe(202);
    const second = await until('a new mine-vm VMI Running', async () => { const v = await readVMI(c.admin, 'mine-vm'); return v?.metadata.uid !== firstVMI.metadata.uid && v?.status?.phase === 'Running' && v; }, BOOT_MS);
    expect(second.spec.domain.memory.guest).toBe('512Mi');
    expect((await readVM(c.admin, 'mine-vm')).spec.instancetype.revisionName).not.toBe(before.spec.instancetype.revisionName);
  });

  it('a VM setting what its type sets, or naming a type that does not exist, is refused', async () => {
    const conflicting = await kubectl.run('apply', '-f', kubectl.file('bad.yaml', vmYaml('bad', '{name: u1.small}', '\n        cpu: {sockets: 2}')));
    expect(conflicting.code).toBe(1);
    expect(conflicting.err).toContain('VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type');
    const missing = await kubectl.run('apply', '-f', kubectl.file('missing.yaml', vmYaml('missing', '{name: u9.huge}')));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('Failure to find instancetype: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "u9.huge" not found');
  });
});
