import { describe, expect, it } from 'vitest';
import { conflictsMessage, cpuTopology, expandSpec, type InstancetypeSpec, type PreferenceSpec } from './instancetype';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';

const F = 'spec.template.spec';
const u1small: InstancetypeSpec = { cpu: { guest: 1 }, memory: { guest: '2Gi' } };
const u1large: InstancetypeSpec = { cpu: { guest: 2 }, memory: { guest: '8Gi' } };
const bare = (): VirtualMachineInstanceSpec => ({ domain: { devices: { disks: [{ name: 'root' }], interfaces: [{ name: 'default', masquerade: {} }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] });

describe('expandSpec: the instance type sets, the VM may not', () => {
  it('sets CPU topology and guest memory on a VM that names only the type', () => {
    const e = expandSpec(F, bare(), u1small, undefined);
    expect(e.conflicts).toEqual([]);
    expect(e.spec.domain.cpu).toEqual({ sockets: 1, cores: 1, threads: 1 });
    expect(e.spec.domain.memory).toEqual({ guest: '2Gi' });
  });

  it.each([
    ['domain.cpu.sockets', (s: VirtualMachineInstanceSpec) => { s.domain.cpu = { sockets: 2 }; }],
    ['domain.memory.guest', (s: VirtualMachineInstanceSpec) => { s.domain.memory = { guest: '1Gi' }; }],
    ['domain.resources.requests.memory', (s: VirtualMachineInstanceSpec) => { s.domain.resources = { requests: { memory: '1Gi' } }; }],
    ['domain.resources.limits.cpu', (s: VirtualMachineInstanceSpec) => { s.domain.resources = { limits: { cpu: '1' } }; }],
  ])('a VM setting %s conflicts', (path, set) => {
    const spec = bare();
    set(spec);
    const e = expandSpec(F, spec, u1small, undefined);
    expect(e.conflicts).toEqual([`${F}.${path}`]);
    expect(e.spec).toBe(spec);
  });

  it('reports every CPU conflict at once, in KubeVirt\'s words', () => {
    const spec = bare();
    spec.domain.cpu = { sockets: 2, cores: 2 };
    const e = expandSpec(F, spec, u1small, undefined);
    expect(conflictsMessage(e.conflicts)).toBe('VM field(s) spec.template.spec.domain.cpu.sockets, spec.template.spec.domain.cpu.cores conflicts with selected instance type');
  });

  it('never mutates the VM\'s spec', () => {
    const spec = bare();
    const before = structuredClone(spec);
    expandSpec(F, spec, u1large, { devices: { preferredDiskBus: 'sata' } });
    expect(spec).toEqual(before);
  });
});

describe('expandSpec: the preference only fills gaps', () => {
  const pref: PreferenceSpec = {
    cpu: { preferredCPUTopology: 'cores' }, devices: { preferredDiskBus: 'virtio', preferredInterfaceModel: 'virtio', preferredRng: {} },
    machine: { preferredMachineType: 'q35' }, preferredTerminationGracePeriodSeconds: 15,
  };

  it('fills unset fields and leaves set ones', () => {
    const spec = bare();
    spec.domain.devices.disks!.push({ name: 'data', disk: { bus: 'sata' } });
    spec.terminationGracePeriodSeconds = 0;
    const e = expandSpec(F, spec, u1large, pref);
    expect(e.spec.domain.cpu).toEqual({ sockets: 1, cores: 2, threads: 1 });
    expect(e.spec.domain.devices.disks).toEqual([{ name: 'root', disk: { bus: 'virtio' } }, { name: 'data', disk: { bus: 'sata' } }]);
    expect(e.spec.domain.devices.interfaces?.[0].model).toBe('virtio');
    expect(e.spec.domain.devices.rng).toEqual({});
    expect(e.spec.domain.machine).toEqual({ type: 'q35' });
    expect(e.spec.terminationGracePeriodSeconds).toBe(0);
  });

  it.each([
    [1, undefined, { sockets: 1, cores: 1, threads: 1 }],
    [4, undefined, { sockets: 4, cores: 1, threads: 1 }],
    [4, 'cores', { sockets: 1, cores: 4, threads: 1 }],
    [4, 'preferThreads', { sockets: 1, cores: 1, threads: 4 }],
    [4, 'spread', { sockets: 2, cores: 2, threads: 1 }],
  ] as const)('%i vCPUs with topology %s', (n, topo, want) => {
    expect(cpuTopology(n, topo)).toEqual(want);
  });
});
