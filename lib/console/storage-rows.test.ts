import { describe, expect, it } from 'vitest';
import type { VirtualMachine } from '../kubevirt';
import { claimRows, classRows, snapshotRows, type StorageClaim } from './storage-rows';

const claim = (name: string, over: Partial<StorageClaim> = {}): StorageClaim => ({
  metadata: { name, namespace: 'default', creationTimestamp: '2026-11-25T00:00:00Z' },
  spec: { storageClassName: 'local', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  status: { phase: 'Bound', capacity: { storage: '1Gi' } },
  ...over,
});
const vm = (name: string, volumes: object[], dvts: object[] = []) => ({ metadata: { name, namespace: 'default' }, spec: { dataVolumeTemplates: dvts, template: { spec: { domain: { devices: {} }, volumes } } } }) as unknown as VirtualMachine;

describe('the Storage page', () => {
  it('shows each claim with its state, size, access, class and the VMs that use it', () => {
    const rows = claimRows(
      [claim('web-data'), claim('filling', { status: { phase: 'Pending' } }), claim('broken'), claim('spare', { metadata: { name: 'spare', namespace: 'default', deletionTimestamp: '2026-11-25T01:00:00Z' } })],
      [{ metadata: { name: 'filling', namespace: 'default' }, status: { phase: 'ImportInProgress', progress: '42.0%' } },
        { metadata: { name: 'broken', namespace: 'default' }, status: { phase: 'Failed', conditions: [{ type: 'Running', message: 'HTTP 404' }] } }],
      [vm('web', [{ name: 'd', persistentVolumeClaim: { claimName: 'web-data' } }]), vm('db', [{ name: 'd', dataVolume: { name: 'filling' } }], [{ metadata: { name: 'filling' } }])],
    );
    expect(rows.map((r) => [r.name, r.status, r.failed, r.usedBy])).toEqual([
      ['broken', 'Failed: HTTP 404', true, []],
      ['filling', 'ImportInProgress 42.0%', false, ['db']],
      ['spare', 'Terminating', false, []],
      ['web-data', 'Bound', false, ['web']],
    ]);
    expect(rows[3]).toMatchObject({ capacity: '1Gi', access: 'RWO', storageClass: 'local', volumeMode: 'Filesystem' });
  });

  it('lists classes with the default first and how many claims each has', () => {
    const rows = classRows([
      { metadata: { name: 'shared' }, provisioner: 'kubevirt-ts.io/shared', volumeBindingMode: 'Immediate' },
      { metadata: { name: 'local', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'kubevirt-ts.io/local-path', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true },
    ], [claim('a'), claim('b')]);
    expect(rows.map((r) => [r.name, r.isDefault, r.binding, r.expansion, r.claims])).toEqual([['local', true, 'WaitForFirstConsumer', true, 2], ['shared', false, 'Immediate', false, 0]]);
  });

  it('says how each snapshot was taken', () => {
    const rows = snapshotRows([
      { metadata: { name: 's1', namespace: 'default', creationTimestamp: '2026-11-25T01:00:00Z' }, spec: { source: { name: 'web' } }, status: { phase: 'Succeeded', readyToUse: true, indications: ['Online', 'GuestAgent'] } },
      { metadata: { name: 's0', namespace: 'default', creationTimestamp: '2026-11-25T00:00:00Z' }, spec: { source: { name: 'web' } }, status: { phase: 'Succeeded', readyToUse: true, indications: [] } },
    ]);
    expect(rows.map((r) => [r.name, r.kind])).toEqual([['s1', 'online, filesystems frozen'], ['s0', 'offline']]);
  });
});
