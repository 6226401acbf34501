import { describe, expect, it } from 'vitest';
import { applyRestorePatches, renderRestoredClaim, renderRestoredVM, restoredClaimName, RestorePatchError } from './restore-new-vm';
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

describe('restore patches', () => {
  it('applies KubeVirt-style JSON patch strings to the new VM and refuses bad ones clearly', () => {
    const vm = { metadata: { name: 'x' }, spec: { runStrategy: 'Always' } };
    expect(applyRestorePatches(vm, ['{"op":"replace","path":"/spec/runStrategy","value":"Halted"}'])).toMatchObject({ spec: { runStrategy: 'Halted' } });
    expect(() => applyRestorePatches(vm, ['not json'])).toThrow(RestorePatchError);
    expect(() => applyRestorePatches(vm, ['{"op":"replace","path":"/spec/missing/deep","value":1}'])).toThrow(/spec.patches/);
  });
});

describe('restored claim names (volumeRestorePolicy, volumeRestoreOverrides)', () => {
  const with_ = (spec: Partial<VMRestore['spec']>): VMRestore => ({ ...r, spec: { ...r.spec, ...spec } });
  it.each<[string, Partial<VMRestore['spec']>, string]>([
    ['RandomizeNames (the default)', {}, 'restore-u1-data'],
    ['RandomizeNames', { volumeRestorePolicy: 'RandomizeNames' }, 'restore-u1-data'],
    ['PrefixTargetName', { volumeRestorePolicy: 'PrefixTargetName' }, 'copy-data'],
    ['InPlace: the source claim\'s name', { volumeRestorePolicy: 'InPlace' }, 'orig-data'],
    ['an override\'s restoreName wins', { volumeRestorePolicy: 'PrefixTargetName', volumeRestoreOverrides: [{ volumeName: 'other', restoreName: 'no' }, { volumeName: 'data', restoreName: 'mine' }] }, 'mine'],
  ])('%s', (_n, spec, want) => {
    expect(restoredClaimName(with_(spec), 'data', 'orig-data')).toBe(want);
    const vm = renderRestoredVM(with_(spec), content) as { spec: { template: { spec: { volumes: { persistentVolumeClaim?: { claimName: string } }[] } } } };
    expect(vm.spec.template.spec.volumes[1].persistentVolumeClaim?.claimName).toBe(want);
    expect(renderRestoredClaim(with_(spec), content.spec.volumeBackups![0]).metadata?.name).toBe(want);
  });

  it('keeps a prefixed name within 63 characters and distinct', () => {
    const long = with_({ volumeRestorePolicy: 'PrefixTargetName', target: { kind: 'VirtualMachine', name: 'v'.repeat(60) } });
    const a = restoredClaimName(long, 'data-a');
    const b = restoredClaimName(long, 'data-b');
    expect(a.length).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
  });

  it('puts an override\'s labels and annotations on the new claim', () => {
    const claim = renderRestoredClaim(with_({ volumeRestoreOverrides: [{ volumeName: 'data', labels: { tier: 'gold' }, annotations: { note: 'x' } }] }), content.spec.volumeBackups![0]);
    expect(claim.metadata).toMatchObject({ name: 'restore-u1-data', labels: { tier: 'gold', 'restore.kubevirt.io/source-vm-name': 'copy' }, annotations: { note: 'x' } });
  });
});
