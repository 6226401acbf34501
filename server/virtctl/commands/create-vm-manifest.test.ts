import { describe, expect, it } from 'vitest';
import { renderCreateVM, type CreateVMFlags } from './create-vm-manifest';

const base: CreateVMFlags = { name: 'web', runStrategy: 'Always', terminationGracePeriod: 180, containerdisks: [], pvcs: [], sshKeys: [] };

describe('virtctl create vm', () => {
  it('defaults as virtctl: Always, 180 s grace, 512Mi of memory when no instance type', () => {
    expect(renderCreateVM(base).spec).toEqual({ runStrategy: 'Always', template: { spec: { terminationGracePeriodSeconds: 180, domain: { memory: { guest: '512Mi' }, devices: {} } } } });
  });

  it('an instance type replaces the memory; kinds are checked', () => {
    const vm = renderCreateVM({ ...base, instancetype: 'virtualmachineinstancetype/mine', preference: 'demo' });
    expect(vm.spec.instancetype).toEqual({ name: 'mine', kind: 'virtualmachineinstancetype' });
    expect(vm.spec.preference).toEqual({ name: 'demo' });
    expect(vm.spec.template.spec.domain.memory).toBeUndefined();
    expect(() => renderCreateVM({ ...base, instancetype: 'pod/x' })).toThrow('failed to parse "--instancetype" flag: invalid instancetype kind "pod", supported values are: virtualmachineinstancetype, virtualmachineclusterinstancetype');
  });

  it('volumes: containerdisks then PVCs, generated names, boot order, and a cloud-init disk from --user/--ssh-key', () => {
    const vm = renderCreateVM({ ...base, containerdisks: ['src:demo', 'src:tools,name:tools,bootorder:2'], pvcs: ['src:data,bootorder:1'], user: 'alice', sshKeys: ['ssh-ed25519 AAAA k'] });
    expect(vm.spec.template.spec.volumes).toEqual([
      { name: 'web-containerdisk-0', containerDisk: { image: 'demo' } },
      { name: 'tools', containerDisk: { image: 'tools' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
      { name: 'cloudinitdisk', cloudInitNoCloud: { userData: '#cloud-config\nuser: alice\nssh_authorized_keys:\n  - ssh-ed25519 AAAA k\n' } },
    ]);
    expect(vm.spec.template.spec.domain.devices.disks).toEqual([{ name: 'tools', bootOrder: 2 }, { name: 'data', bootOrder: 1 }]);
  });

  it.each([
    [{ containerdisks: ['name:x'] }, 'failed to parse "--volume-containerdisk" flag: src must be specified'],
    [{ containerdisks: ['src:a,name:Bad_Name'] }, 'invalid name "Bad_Name"'],
    [{ containerdisks: ['src:a,name:x', 'src:b,name:x'] }, 'there is already a volume with name "x"'],
    [{ containerdisks: ['src:a,bootorder:0'] }, 'bootorder must be greater than 0'],
    [{ containerdisks: ['src:a,bootorder:1', 'src:b,bootorder:1'] }, 'bootorder 1 was specified multiple times'],
    [{ containerdisks: ['src:a,size:1Gi'] }, 'unknown param(s): size:1Gi'],
  ])('refuses %j', (flags, message) => {
    expect(() => renderCreateVM({ ...base, ...flags })).toThrow(message);
  });
});
