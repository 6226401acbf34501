import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance, VirtualMachineInstanceReplicaSet } from '../../../lib/kubevirt';
import { BURST_REPLICAS, planReplicas } from './plan-replicas';
import { computeRSStatus, pauseTransition } from './replicaset-status';
import { renderReplica } from './sync-replicaset';

const RS_UID = 'rs-uid';
function rs(over: Partial<VirtualMachineInstanceReplicaSet['spec']> = {}, meta: Record<string, unknown> = {}): VirtualMachineInstanceReplicaSet {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceReplicaSet',
    metadata: { name: 'web', namespace: 'default', uid: RS_UID, ...meta },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { domain: { devices: {} } } as never }, ...over },
  };
}
interface VmiOpts { labels?: Record<string, string>; owner?: string; phase?: string; ready?: boolean; created?: string; deleting?: boolean; ns?: string }
function vmi(name: string, o: VmiOpts = {}): VirtualMachineInstance {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: {
      name, namespace: o.ns ?? 'default', uid: `uid-${name}`, labels: o.labels ?? { app: 'web' },
      creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
      ...(o.deleting ? { deletionTimestamp: '2026-01-02T00:00:00Z' } : {}),
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'X', name: 'o', uid: o.owner, controller: true }] } : {}),
    },
    spec: { domain: { devices: {} } } as never,
    status: { phase: (o.phase ?? 'Running') as never, conditions: o.ready === false ? [] : [{ type: 'Ready', status: 'True' }] } as never,
  };
}
const names = (l: VirtualMachineInstance[]) => l.map((v) => v.metadata.name);

describe('planReplicas', () => {
  it.each([
    { name: 'none yet: create all', vmis: [], create: 3, remove: [] as string[] },
    { name: 'one owned: create two', vmis: [vmi('a', { owner: RS_UID })], create: 2, remove: [] },
    { name: 'exact: nothing', vmis: ['a', 'b', 'c'].map((n) => vmi(n, { owner: RS_UID })), create: 0, remove: [] },
    { name: 'a VMI being deleted does not count', vmis: [vmi('a', { owner: RS_UID }), vmi('b', { owner: RS_UID, deleting: true })], create: 2, remove: [] },
    { name: 'a failed VMI is replaced', vmis: [vmi('a', { owner: RS_UID }), vmi('b', { owner: RS_UID }), vmi('c', { owner: RS_UID, phase: 'Failed' })], create: 1, remove: [] },
    { name: 'another controller\'s VMI is not counted', vmis: [vmi('a', { owner: 'other' })], create: 3, remove: [] },
    { name: 'a VMI in another namespace is not counted', vmis: [vmi('a', { ns: 'other' })], create: 3, remove: [] },
  ])('$name', ({ vmis, create, remove }) => {
    const plan = planReplicas(rs(), vmis, true);
    expect(plan.create).toBe(create);
    expect(names(plan.remove)).toEqual(remove);
  });

  it('adopts a matching orphan and releases an owned VMI whose labels no longer match', () => {
    const plan = planReplicas(rs(), [vmi('orphan'), vmi('moved', { owner: RS_UID, labels: { app: 'db' } }), vmi('foreign-orphan', { labels: { app: 'db' } })], true);
    expect(names(plan.adopt)).toEqual(['orphan']);
    expect(names(plan.release)).toEqual(['moved']);
    expect(names(plan.active)).toEqual(['orphan']);
    expect(plan.create).toBe(2);
  });

  it('deletes surplus VMIs not running first, then not ready, then newest', () => {
    const vmis = [
      vmi('old-ready', { owner: RS_UID, created: '2026-01-01T00:00:00Z' }),
      vmi('new-ready', { owner: RS_UID, created: '2026-01-03T00:00:00Z' }),
      vmi('old-unready', { owner: RS_UID, ready: false, created: '2026-01-01T00:00:00Z' }),
      vmi('pending', { owner: RS_UID, phase: 'Scheduling', ready: false, created: '2026-01-01T00:00:00Z' }),
    ];
    expect(names(planReplicas(rs({ replicas: 1 }), vmis, true).remove)).toEqual(['pending', 'old-unready', 'new-ready']);
    expect(names(planReplicas(rs({ replicas: 3 }), vmis, true).remove)).toEqual(['pending']);
  });

  it('a missing replicas means 1; paused, deleting or unmet expectations plan no creates or deletes', () => {
    expect(planReplicas(rs({ replicas: undefined }), [], true).create).toBe(1);
    expect(planReplicas(rs({ paused: true }), [], true).create).toBe(0);
    expect(planReplicas(rs({}, { deletionTimestamp: '2026-01-01T00:00:00Z' }), [], true).create).toBe(0);
    expect(planReplicas(rs(), [], false).create).toBe(0);
    expect(planReplicas(rs({ replicas: 0 }), [vmi('a', { owner: RS_UID })], false).remove).toEqual([]);
  });

  it('creates at most the burst in one sync', () => {
    expect(planReplicas(rs({ replicas: 1000 }), [], true).create).toBe(BURST_REPLICAS);
  });
});

describe('renderReplica', () => {
  it('uses the replica set name as generateName, the template labels and a controller reference', () => {
    const out = renderReplica(rs());
    expect(out.metadata).toMatchObject({ generateName: 'web', namespace: 'default', labels: { app: 'web' } });
    expect(out.metadata.name).toBeUndefined();
    expect(out.metadata.ownerReferences).toEqual([{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceReplicaSet', name: 'web', uid: RS_UID, controller: true, blockOwnerDeletion: true }]);
  });
});

describe('computeRSStatus', () => {
  const now = new Date('2026-01-05T00:00:00Z');
  it('counts active and ready replicas and prints the selector', () => {
    const s = computeRSStatus(rs({ selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] } }), [vmi('a'), vmi('b', { ready: false })], undefined, now);
    expect(s).toEqual({ replicas: 2, readyReplicas: 1, labelSelector: 'app=web,tier in (a,b)' });
  });
  it('sets ReplicaPaused while paused and ReplicaFailure while scaling fails, keeping the first failure', () => {
    const paused = rs({ paused: true });
    const s = computeRSStatus(paused, [], { reason: 'FailedCreate', message: 'quota' }, now);
    expect(s.conditions?.map((c) => [c.type, c.reason, c.message])).toEqual([['ReplicaPaused', 'Paused', 'Controller got paused'], ['ReplicaFailure', 'FailedCreate', 'quota']]);
    expect(pauseTransition(paused, s)).toBe('paused');
    const again = computeRSStatus({ ...paused, status: s }, [], { reason: 'FailedDelete', message: 'other' }, now);
    expect(again.conditions?.find((c) => c.type === 'ReplicaFailure')?.message).toBe('quota');
    const resumed = computeRSStatus({ ...rs(), status: s }, [], undefined, now);
    expect(resumed.conditions).toBeUndefined();
    expect(pauseTransition({ ...rs(), status: s }, resumed)).toBe('resumed');
  });
});
