import { describe, expect, it } from 'vitest';
import type { VirtualMachine } from '../kubevirt';
import { diskRows } from './disk-rows';

const vm = {
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'v', namespace: 'default' },
  spec: {
    template: {
      spec: {
        domain: { devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }, { name: 'data', disk: { bus: 'virtio' } }, { name: 'scratch', disk: { bus: 'scsi' } }] } },
        volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'data', dataVolume: { name: 'v-data' } }, { name: 'scratch', persistentVolumeClaim: { claimName: 'gone' } }],
      },
    },
  },
} as unknown as VirtualMachine;
const claim = { metadata: { name: 'v-data' }, spec: { storageClassName: 'local', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };

describe('VM page disk rows', () => {
  it('shows the claim, class, capacity and access of claim-backed disks; a missing claim says so', () => {
    const rows = diskRows(vm, undefined, [claim], [{ metadata: { name: 'v-data' }, status: { phase: 'Succeeded', progress: '100.0%' } }]);
    expect(rows[0]).toEqual({ name: 'root', type: 'disk', bus: 'virtio', source: 'containerDisk demo' });
    expect(rows[1]).toMatchObject({ source: 'DataVolume v-data', claim: 'v-data', storageClass: 'local', capacity: '1Gi', access: 'RWO' });
    expect(rows[1].state).toBeUndefined();
    expect(rows[2]).toMatchObject({ source: 'PVC gone', state: 'claim not found', failed: true });
  });

  it('shows a filling DataVolume with its progress, and a failed one with its reason', () => {
    expect(diskRows(vm, undefined, [claim], [{ metadata: { name: 'v-data' }, status: { phase: 'ImportInProgress', progress: '45.12%' } }])[1].state).toBe('ImportInProgress 45.12%');
    const failed = diskRows(vm, undefined, [], [{ metadata: { name: 'v-data' }, status: { phase: 'Failed', conditions: [{ type: 'Running', message: 'expected status code 200, got 404' }] } }])[1];
    expect(failed).toMatchObject({ state: 'Failed: expected status code 200, got 404', failed: true });
  });
});
