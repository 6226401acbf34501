import { describe, expect, it } from 'vitest';
import { newVM } from '../../../lib/kubevirt/test-builders';
import { renderControllerRevision, renderVMI } from './render-vmi';
import { stableFirmwareUUID } from './firmware-uuid';

const vm = newVM((v) => {
  v.metadata.generation = 3;
  v.spec.template = {
    metadata: { labels: { app: 'demo' }, annotations: { note: 'x' } },
    spec: {
      domain: { devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
      volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'ci', cloudInitNoCloud: { userData: '#!/bin/sh' } }],
    },
  };
});

describe('renderVMI', () => {
  const vmi = renderVMI(vm, { paused: false });
  it('is named after the VM, owned by it and carries its finalizer', () => {
    expect(vmi.metadata).toMatchObject({
      name: 'vm1', namespace: 'default', labels: { app: 'demo' },
      ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: 'vm1', uid: 'vm-uid', controller: true, blockOwnerDeletion: true }],
      finalizers: ['kubevirt.io/virtualMachineControllerFinalize'],
    });
  });
  it('records the VM generation it came from', () => {
    expect(vmi.metadata.annotations).toEqual({ note: 'x', 'kubevirt.io/vm-generation': '3' });
  });
  it('adds a disk for every volume without one', () => {
    expect(vmi.spec.domain.devices.disks?.map((d) => d.name)).toEqual(['root', 'ci']);
  });
  it('gives a stable firmware UUID derived from the VM name', () => {
    expect(vmi.spec.domain.firmware?.uuid).toBe(stableFirmwareUUID('vm1'));
    expect(stableFirmwareUUID('vm1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableFirmwareUUID('vm2')).not.toBe(stableFirmwareUUID('vm1'));
  });
  it('keeps a firmware UUID the template sets', () => {
    const own = newVM((v) => { v.spec.template.spec.domain.firmware = { uuid: 'abc' }; });
    expect(renderVMI(own, { paused: false }).spec.domain.firmware?.uuid).toBe('abc');
  });
  it.each([[true, 'Paused'], [false, undefined]])('paused=%s → startStrategy %s', (paused, want) => {
    expect(renderVMI(vm, { paused }).spec.startStrategy).toBe(want);
  });
  it('does not modify the VM', () => {
    expect(vm.spec.template.spec.domain.devices.disks).toHaveLength(1);
  });
});

describe('renderControllerRevision', () => {
  it('snapshots the VM spec under revision-start-vm-<uid>-<generation>', () => {
    const rev = renderControllerRevision(vm);
    expect(rev.metadata.name).toBe('revision-start-vm-vm-uid-3');
    expect(rev.data.spec).toEqual(vm.spec);
    expect(rev.revision).toBe(3);
  });
});
