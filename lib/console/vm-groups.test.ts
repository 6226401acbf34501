import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstanceReplicaSet, VirtualMachinePool } from '../kubevirt';
import { groupRows, scaleRequest } from './vm-groups';

const rs = { metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 3, paused: true }, status: { replicas: 2, readyReplicas: 1, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota exceeded' }] } } as VirtualMachineInstanceReplicaSet;
const pool = { metadata: { name: 'db', namespace: 'default' }, spec: {}, status: {} } as VirtualMachinePool;

describe('groupRows', () => {
  it('shows both kinds sorted by name, with counts, pause and the failure message', () => {
    const rows = groupRows([rs], [pool]);
    expect(rows.map((r) => [r.name, r.label, r.desired, r.current, r.ready, r.paused, r.failure])).toEqual([
      ['db', 'pool', 1, 0, 0, false, undefined],
      ['web', 'replica set', 3, 2, 1, true, 'quota exceeded'],
    ]);
    expect(rows[0].scalePath).toBe('/apis/pool.kubevirt.io/v1beta1/namespaces/default/virtualmachinepools/db/scale');
    expect(rows[1].scalePath).toBe('/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstancereplicasets/web/scale');
  });

  it('scales by one, never below zero', () => {
    const [db] = groupRows([], [pool]);
    expect(scaleRequest(db, 1)).toEqual({ spec: { replicas: 2 } });
    expect(scaleRequest(db, -1)).toEqual({ spec: { replicas: 0 } });
    expect(scaleRequest({ ...db, desired: 0 }, -1)).toBeUndefined();
  });
});
