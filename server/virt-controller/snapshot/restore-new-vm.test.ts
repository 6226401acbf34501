import { describe, expect, it } from 'vitest';
import { renderRestoredClaim, renderRestoredVM } from './restore-new-vm';
import type { VMRestore, VMSnapshotContent } from './snapshot-types';

const r: VMRestore = { metadata: { name: 'r1', namespace: 'ns', uid: 'u1' }, spec: { target: { kind: 'VirtualMachine', name: 'copy' }, virtualMachineSnapshotName: 's1' } };
const content: VMSnapshotContent = {
  metadata: { name: 'c1', namespace: 'ns' },
  spec: {
    virtualMachineSnapshotName: 's1',
    source: { virtualMachine: { metadata: { name: 'orig', labels: { app: 'web' } }, spec: {
      runStrategy: 'Always',
      dataVolumeTemplates: [{ metadata: { name: 'orig-data' } }],
      template: { spec: {
        domain: { firmware: { uuid: 'abc', serial: 's', bootloader: { bios: {} } }, devices: { interfaces: [{ name: 'default', masquerade: {}, macAddress: '02:00:00:00:00:01' }] } },
        volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'data', dataVolume: { name: 'orig-data' } }],
      } },
    } } },
    volumeBackups: [{ volumeName: 'data', persistentVolumeClaim: { metadata: { name: 'orig-data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'local', volumeMode: 'Filesystem', volumeName: 'pv-x' } }, volumeSnapshotName: 'vmsnapshot-u0-volume-data' }],
  },
};

describe('restore to a new VM', () => {
  it('makes a claim per volume, filled from its VolumeSnapshot, without the old volume binding', () => {
    expect(renderRestoredClaim(r, content.spec.volumeBackups![0])).toMatchObject({
      metadata: { name: 'restore-u1-data', namespace: 'ns' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'local', resources: { requests: { storage: '1Gi' } }, dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'vmsnapshot-u0-volume-data' } },
    });
    expect(renderRestoredClaim(r, content.spec.volumeBackups![0]).spec).not.toHaveProperty('volumeName');
  });

  it('makes the VM under the new name on the new claims, without what would clash with the source', () => {
    const vm = renderRestoredVM(r, content) as { metadata: { name: string; labels?: object }; spec: { dataVolumeTemplates?: unknown; runStrategy: string; template: { spec: { volumes: unknown[]; domain: { firmware: object; devices: { interfaces: object[] } } } } } };
    expect(vm.metadata).toMatchObject({ name: 'copy', labels: { app: 'web' } });
    expect(vm.spec.runStrategy).toBe('Always');
    expect(vm.spec.dataVolumeTemplates).toBeUndefined();
    expect(vm.spec.template.spec.volumes).toEqual([{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'data', persistentVolumeClaim: { claimName: 'restore-u1-data' } }]);
    expect(vm.spec.template.spec.domain.firmware).toEqual({ bootloader: { bios: {} } });
    expect(vm.spec.template.spec.domain.devices.interfaces[0]).not.toHaveProperty('macAddress');
    // the content itself is untouched
    expect((content.spec.source.virtualMachine.spec as { dataVolumeTemplates?: unknown }).dataVolumeTemplates).toBeDefined();
  });
});
