import { describe, expect, it } from 'vitest';
import jsonpatch from 'fast-json-patch';
import { mutateVMICreate, mutateVMIUpdate } from './vmi-mutator';
import { mutateVM, RUNNING_DEPRECATED_WARNING } from './vm-mutator';
import { mutateMigrationCreate } from './migration-mutator';
import { stableFirmwareUUID, uuidV5 } from './firmware-uuid';
import { config, validVM, validVMI } from '../test-fixtures';
import type { Mutation } from './mutation';

const now = new Date('2026-06-01T12:00:00Z');
const ctx = { config, now };
const apply = (obj: unknown, m: Mutation) => jsonpatch.applyPatch(structuredClone(obj), m.patch, true).newDocument as any;

describe('uuidV5', () => {
  it('matches the RFC 4122 test vector (DNS namespace, "www.example.com")', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
  it('is stable for a VM name', () => {
    expect(stableFirmwareUUID('vm1')).toBe(stableFirmwareUUID('vm1'));
    expect(stableFirmwareUUID('vm1')).not.toBe(stableFirmwareUUID('vm2'));
  });
});

describe('mutateVMICreate', () => {
  const minimal = () => ({
    metadata: { name: 'v', namespace: 'd' },
    spec: {
      domain: { resources: { requests: { memory: '256Mi' }, limits: { cpu: '1500m' } }, devices: { disks: [{ name: 'cd', cdrom: {} }] } },
      volumes: [{ name: 'root', containerDisk: { image: 'img' } }, { name: 'cd', containerDisk: { image: 'img:v1' } }],
    },
  });

  it.each<[string, (v: any) => unknown, unknown]>([
    ['machine type q35', (v) => v.spec.domain.machine, { type: 'q35' }],
    ['architecture', (v) => v.spec.architecture, 'amd64'],
    ['CPU topology from the limit, rounded up', (v) => v.spec.domain.cpu, { sockets: 2, cores: 1, threads: 1, model: 'host-model' }],
    ['cpu request from the limit', (v) => v.spec.domain.resources.requests.cpu, '1500m'],
    ['memory.guest from requests', (v) => v.spec.domain.memory, { guest: '256Mi' }],
    ['volume without disk gets a virtio disk', (v) => v.spec.domain.devices.disks[1], { name: 'root', disk: { bus: 'virtio' } }],
    ['cdrom defaults', (v) => v.spec.domain.devices.disks[0], { name: 'cd', cdrom: { bus: 'sata', readonly: true, tray: 'closed' } }],
    ['pull policy of an untagged image', (v) => v.spec.volumes[0].containerDisk.imagePullPolicy, 'Always'],
    ['pull policy of a tagged image', (v) => v.spec.volumes[1].containerDisk.imagePullPolicy, 'IfNotPresent'],
    ['default pod network', (v) => v.spec.networks, [{ name: 'default', pod: {} }]],
    ['masquerade interface', (v) => v.spec.domain.devices.interfaces, [{ name: 'default', masquerade: {} }]],
    ['phase Pending', (v) => v.status.phase, 'Pending'],
    ['phase timestamp', (v) => v.status.phaseTransitionTimestamps, [{ phase: 'Pending', phaseTransitionTimestamp: now.toISOString() }]],
    ['memory status', (v) => v.status.memory, { guestAtBoot: '256Mi', guestCurrent: '256Mi', guestRequested: '256Mi' }],
    ['finalizer', (v) => v.metadata.finalizers, ['kubevirt.io/foregroundDeleteVirtualMachine']],
    ['features object', (v) => v.spec.domain.features, {}],
  ])('sets %s', (_n, pick, want) => {
    expect(pick(apply(minimal(), mutateVMICreate(minimal(), ctx)))).toEqual(want);
  });

  it('gives a standalone VMI a random firmware UUID', () => {
    const a = apply(minimal(), mutateVMICreate(minimal(), ctx)).spec.domain.firmware.uuid;
    const b = apply(minimal(), mutateVMICreate(minimal(), ctx)).spec.domain.firmware.uuid;
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });

  it('gives a VM-owned VMI the stable UUID of the VM name', () => {
    const v: any = minimal();
    v.metadata.ownerReferences = [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: 'myvm', uid: 'u', controller: true }];
    expect(apply(v, mutateVMICreate(v, ctx)).spec.domain.firmware.uuid).toBe(stableFirmwareUUID('myvm'));
  });

  it('keeps user choices', () => {
    const v = validVMI();
    v.spec.domain.firmware = { uuid: 'fixed' };
    v.spec.domain.cpu = { cores: 2 };
    const out = apply(v, mutateVMICreate(v, ctx));
    expect(out.spec.domain.firmware.uuid).toBe('fixed');
    expect(out.spec.domain.cpu).toEqual({ cores: 2, model: 'host-model' });
    expect(out.spec.networks).toEqual(v.spec.networks);
  });

  it('does not add a pod network when autoattachPodInterface is false', () => {
    const v: any = minimal();
    v.spec.domain.devices.autoattachPodInterface = false;
    expect(apply(v, mutateVMICreate(v, ctx)).spec.networks).toBeUndefined();
  });

  it('leaves a malformed VMI to the validator', () => {
    expect(mutateVMICreate({ spec: { domain: { devices: { disks: 'x' } } } }, ctx).patch).toEqual([]);
  });
});

describe('mutateVMIUpdate', () => {
  it('reverts a status change by a user', () => {
    const old = { ...validVMI(), status: { phase: 'Running' } };
    const changed = { ...validVMI(), status: { phase: 'Failed' } };
    expect(apply(changed, mutateVMIUpdate(changed, old, ctx)).status).toEqual({ phase: 'Running' });
  });
  it('keeps a status change by virt-handler', () => {
    const user = { username: 'system:serviceaccount:kubevirt:kubevirt-handler' };
    expect(mutateVMIUpdate({ status: { phase: 'Failed' } }, { status: { phase: 'Running' } }, { ...ctx, user }).patch).toEqual([]);
  });
});

describe('mutateVM', () => {
  it('sets machine type and a random firmware uuid and serial on create', () => {
    const out = apply(validVM(), mutateVM(validVM(), undefined, ctx));
    expect(out.spec.template.spec.domain.machine).toEqual({ type: 'q35' });
    expect(out.spec.template.spec.domain.firmware.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.spec.template.spec.domain.firmware.serial).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.spec.template.spec.domain.devices).toEqual(validVM().spec.template.spec.domain.devices);
  });
  it('does not add a firmware uuid on update', () => {
    const out = apply(validVM(), mutateVM(validVM(), validVM(), ctx));
    expect(out.spec.template.spec.domain.firmware).toBeUndefined();
  });
  it('warns that spec.running is deprecated', () => {
    const vm = validVM();
    delete vm.spec.runStrategy;
    vm.spec.running = true;
    expect(mutateVM(vm, undefined, ctx).warnings).toEqual([RUNNING_DEPRECATED_WARNING]);
  });
});

describe('mutateMigrationCreate', () => {
  it('adds the VMI label and the finalizer', () => {
    const m = { metadata: { name: 'm' }, spec: { vmiName: 'vm1' } };
    const out = apply(m, mutateMigrationCreate(m, ctx));
    expect(out.metadata).toEqual({ name: 'm', labels: { 'kubevirt.io/vmi-name': 'vm1' }, finalizers: ['kubevirt.io/migrationJobFinalize'] });
  });
});
