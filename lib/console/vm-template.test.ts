import { describe, expect, it } from 'vitest';
import { buildVirtualMachine, composeUserData, DEFAULT_CREATE_FORM, initialRunStrategy, needsStartAfterCreate, validateCreateForm } from './vm-template';

const form = { ...DEFAULT_CREATE_FORM, name: 'web-1' };

describe('buildVirtualMachine', () => {
  it('builds the VM the form describes', () => {
    const vm = buildVirtualMachine({ ...form, cores: 2, memory: '1Gi', image: 'demo:latest' });
    expect(vm.metadata).toEqual({ name: 'web-1', namespace: 'default' });
    expect(vm.spec.runStrategy).toBe('Always');
    expect(vm.spec.template.spec.domain).toMatchObject({ cpu: { cores: 2 }, memory: { guest: '1Gi' } });
    expect(vm.spec.template.spec.volumes?.[0]).toEqual({ name: 'root', containerDisk: { image: 'demo:latest' } });
    expect(vm.spec.template.spec.volumes?.[1].cloudInitNoCloud?.userData).toContain('hello from cloud-init');
  });

  it('leaves out the cloud-init disk when there is no user data', () => {
    const vm = buildVirtualMachine({ ...form, userData: '' });
    expect(vm.spec.template.spec.domain.devices.disks?.map((d) => d.name)).toEqual(['root']);
  });
});

describe('run strategy at create', () => {
  it.each([
    ['Always', true, 'Always', false], ['Always', false, 'Halted', false],
    ['Halted', true, 'Always', false], ['Manual', true, 'Manual', true],
    ['Manual', false, 'Manual', false], ['RerunOnFailure', false, 'Halted', false],
  ] as const)('%s, start now %s → %s (start request: %s)', (runStrategy, startNow, want, start) => {
    expect(initialRunStrategy({ runStrategy, startNow })).toBe(want);
    expect(needsStartAfterCreate({ runStrategy, startNow })).toBe(start);
  });
});

describe('composeUserData', () => {
  it.each([
    ['#cloud-config\nhostname: a\n', '#cloud-config\nhostname: a\nssh_authorized_keys:\n  - ssh-ed25519 AAA k\n'],
    ['#!/bin/sh\necho hi\n', "#!/bin/sh\necho hi\nmkdir -p /root/.ssh && echo 'ssh-ed25519 AAA k' >> /root/.ssh/authorized_keys\n"],
    ['', '#cloud-config\nssh_authorized_keys:\n  - ssh-ed25519 AAA k\n'],
  ])('folds the key into %j', (ud, want) => expect(composeUserData(ud, 'ssh-ed25519 AAA k')).toBe(want));
});

describe('validateCreateForm', () => {
  it.each([
    [{ name: '' }, 'name'], [{ name: 'Web_1' }, 'name'], [{ cores: 0 }, 'cores'], [{ memory: 'lots' }, 'memory'],
    [{ sshKey: 'not a key' }, 'sshKey'], [{ image: '' }, 'image'],
  ])('%j is refused at %s', (patch, field) => expect(Object.keys(validateCreateForm({ ...form, ...patch }))).toEqual([field]));
  it('accepts the defaults with a name', () => expect(validateCreateForm(form)).toEqual({}));
});

describe('create form: a data disk', () => {
  const base = { ...DEFAULT_CREATE_FORM, name: 'web' };
  it('a disk image from a URL becomes a dataVolumeTemplate, a dataVolume volume and a disk with serial data', () => {
    const vm = buildVirtualMachine({ ...base, dataDisk: 'url', dataDiskUrl: 'https://example.com/fedora.qcow2', dataDiskSize: '5Gi', dataDiskClass: 'shared' });
    expect(vm.spec.dataVolumeTemplates).toEqual([{ metadata: { name: 'web-data' }, spec: { source: { http: { url: 'https://example.com/fedora.qcow2' } }, storage: { resources: { requests: { storage: '5Gi' } }, storageClassName: 'shared' } } }]);
    expect(vm.spec.template.spec.volumes).toContainEqual({ name: 'data', dataVolume: { name: 'web-data' } });
    expect(vm.spec.template.spec.domain.devices.disks).toContainEqual({ name: 'data', disk: { bus: 'virtio' }, serial: 'data' });
  });

  it('a blank disk uses the default class when none is picked; none adds nothing', () => {
    expect(buildVirtualMachine({ ...base, dataDisk: 'blank' }).spec.dataVolumeTemplates?.[0].spec).toEqual({ source: { blank: {} }, storage: { resources: { requests: { storage: '1Gi' } } } });
    expect(buildVirtualMachine(base).spec.dataVolumeTemplates).toBeUndefined();
  });

  it('refuses a bad size or URL before the server does', () => {
    expect(validateCreateForm({ ...base, dataDisk: 'url', dataDiskUrl: 'ftp://x', dataDiskSize: 'big' })).toMatchObject({ dataDiskSize: 'A size like 1Gi or 512Mi.', dataDiskUrl: expect.stringContaining('http://') });
  });
});

describe('create form: sized by an instance type', () => {
  const typed = { ...DEFAULT_CREATE_FORM, name: 'web', sizing: 'instancetype' as const, instancetype: 'u1.small', preference: 'demo', cores: 4, memory: '8Gi' };
  it('names the instance type and preference and leaves CPU and memory out of the template', () => {
    const vm = buildVirtualMachine(typed);
    expect(vm.spec.instancetype).toEqual({ kind: 'VirtualMachineClusterInstancetype', name: 'u1.small' });
    expect(vm.spec.preference).toEqual({ kind: 'VirtualMachineClusterPreference', name: 'demo' });
    expect(vm.spec.template.spec.domain.cpu).toBeUndefined();
    expect(vm.spec.template.spec.domain.memory).toBeUndefined();
    expect(vm.spec.template.spec.domain.devices.disks?.map((d) => d.name)).toEqual(['root', 'cloudinit']);
  });

  it("a namespaced choice names the namespace's own kinds", () => {
    const vm = buildVirtualMachine({ ...typed, instancetype: 'VirtualMachineInstancetype/team-big', preference: 'VirtualMachinePreference/fedora' });
    expect(vm.spec.instancetype).toEqual({ kind: 'VirtualMachineInstancetype', name: 'team-big' });
    expect(vm.spec.preference).toEqual({ kind: 'VirtualMachinePreference', name: 'fedora' });
  });

  it('no preference picked → no preference matcher; custom sizing → no matchers at all', () => {
    expect(buildVirtualMachine({ ...typed, preference: '' }).spec.preference).toBeUndefined();
    const custom = buildVirtualMachine({ ...typed, sizing: 'custom' });
    expect(custom.spec.instancetype).toBeUndefined();
    expect(custom.spec.template.spec.domain.cpu).toEqual({ cores: 4 });
  });

  it('asks for a size, and ignores the custom CPU and memory fields', () => {
    expect(validateCreateForm({ ...typed, instancetype: '', cores: 0, memory: 'lots' })).toEqual({ instancetype: 'Pick a size from the catalogue.' });
    expect(validateCreateForm({ ...typed, cores: 0 })).toEqual({});
  });
});
