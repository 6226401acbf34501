import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withCondition, withPhase, withRunStrategy } from '../kubevirt/test-builders';
import { commonInstancetypes, type VirtualMachine } from '../kubevirt';
import { buildVMRows, countByStatus, filterVMRows, instancetypeSizes, sortVMRows } from './vm-row';

const now = new Date('2026-01-01T00:00:00Z');
const named = (name: string, ns = 'default'): ((vm: VirtualMachine) => void) => (vm) => { vm.metadata = { ...vm.metadata, name, namespace: ns, uid: `${ns}-${name}` }; };

describe('buildVMRows', () => {
  it('joins a VM with its VMI: node, IP, status', () => {
    const vm = newVM(withRunStrategy('Always'));
    const vmi = newVMI(withPhase('Running'));
    vmi.status!.nodeName = 'node-2';
    vmi.status!.interfaces = [{ name: 'default', ipAddress: '10.0.2.15' }];
    const [row] = buildVMRows([vm], [vmi], now);
    expect(row).toMatchObject({ status: 'Running', node: 'node-2', ip: '10.0.2.15', reason: '' });
  });

  it('says why an unschedulable VM is not running', () => {
    const vmi = newVMI(withPhase('Pending'), withCondition({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/2 nodes are available: 2 Insufficient memory.' }));
    const [row] = buildVMRows([newVM(withRunStrategy('Always'))], [vmi], now);
    expect(row.status).toBe('ErrorUnschedulable');
    expect(row.reason).toBe('Unschedulable: 0/2 nodes are available: 2 Insufficient memory.');
  });

  it('prefers the printable status the controller wrote', () => {
    const vm = newVM(withRunStrategy('Halted'));
    vm.status = { printableStatus: 'Stopping' };
    expect(buildVMRows([vm], [], now)[0].status).toBe('Stopping');
  });

  it('an instance-typed VM: CPUs and memory from its running VMI (the template has none)', () => {
    const vm = newVM(withRunStrategy('Always'));
    vm.spec.instancetype = { name: 'u1.nano' };
    vm.spec.template.spec.domain = { devices: {} };
    const vmi = newVMI(withPhase('Running'));
    vmi.spec.domain = { cpu: { sockets: 2, cores: 1, threads: 1 }, memory: { guest: '512Mi' }, devices: {} };
    const [row] = buildVMRows([vm], [vmi], now);
    expect([row.cpus, row.memoryBytes]).toEqual([2, 512 * 1024 * 1024]);
  });

  it('a stopped instance-typed VM: CPUs and memory of its cluster instance type', () => {
    const vm = newVM(withRunStrategy('Halted'));
    vm.spec.instancetype = { name: 'u1.large' };
    vm.spec.template.spec.domain = { devices: {} };
    const sizes = instancetypeSizes(commonInstancetypes());
    expect(buildVMRows([vm], [], now, sizes)[0]).toMatchObject({ cpus: 2, memoryBytes: 8 * 2 ** 30 });
    vm.spec.instancetype = { name: 'u1.large', kind: 'VirtualMachineInstancetype' }; // namespaced: not in the cluster map
    expect(buildVMRows([vm], [], now, sizes)[0]).toMatchObject({ cpus: 1, memoryBytes: 0 });
  });

  it("a stopped VM naming its namespace's own instance type gets that type's size, not another namespace's", () => {
    const own = (ns: string, cpus: number, memory: string) => ({ apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineInstancetype', metadata: { name: 'team', namespace: ns }, spec: { cpu: { guest: cpus }, memory: { guest: memory } } });
    const sizes = instancetypeSizes(commonInstancetypes(), [own('default', 3, '3Gi'), own('elsewhere', 8, '8Gi')]);
    const vm = newVM(withRunStrategy('Halted'));
    vm.spec.instancetype = { name: 'team', kind: 'VirtualMachineInstancetype' };
    vm.spec.template.spec.domain = { devices: {} };
    expect(buildVMRows([vm], [], now, sizes)[0]).toMatchObject({ cpus: 3, memoryBytes: 3 * 2 ** 30 });
    vm.spec.instancetype = { name: 'team' }; // the cluster kind: no cluster type of that name
    expect(buildVMRows([vm], [], now, sizes)[0]).toMatchObject({ cpus: 1, memoryBytes: 0 });
  });

  it('reads CPUs and memory from the template', () => {
    const vm = newVM((v) => { v.spec.template.spec.domain.cpu = { cores: 2, sockets: 2 }; v.spec.template.spec.domain.memory = { guest: '1Gi' }; });
    expect(buildVMRows([vm], [], now)[0]).toMatchObject({ cpus: 4, memoryBytes: 2 ** 30 });
  });
});

describe('filter and sort', () => {
  const rows = buildVMRows([
    newVM(named('web-10'), withRunStrategy('Halted')),
    newVM(named('web-9', 'prod'), withRunStrategy('Halted')),
    newVM(named('db-1', 'prod'), withRunStrategy('Halted')),
  ], [], now);

  it.each([
    [{ search: 'web' }, ['web-10', 'web-9']],
    [{ namespace: 'prod' }, ['web-9', 'db-1']],
    [{ namespace: 'prod', search: 'DB' }, ['db-1']],
    [{ status: 'Running' }, []],
  ])('filter %j', (f, names) => expect(filterVMRows(rows, f).map((r) => r.name)).toEqual(names));

  it('sorts names numerically, both ways', () => {
    expect(sortVMRows(rows, 'name', 'asc').map((r) => r.name)).toEqual(['db-1', 'web-9', 'web-10']);
    expect(sortVMRows(rows, 'name', 'desc').map((r) => r.name)).toEqual(['web-10', 'web-9', 'db-1']);
  });

  it('counts by status', () => expect(countByStatus(rows)).toEqual({ Stopped: 3 }));
});
