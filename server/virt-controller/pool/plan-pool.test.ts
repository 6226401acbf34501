import { describe, expect, it } from 'vitest';
import type { VirtualMachine, VirtualMachinePool } from '../../../lib/kubevirt';
import { newVMNames, ordinalOf, planPool } from './plan-pool';
import { computePoolStatus } from './pool-status';
import { renderPoolVM } from './render-pool-vm';

const UID = 'pool-uid';
interface Vol { dataVolume?: { name: string }; persistentVolumeClaim?: { claimName: string }; cloudInitNoCloud?: { secretRef: { name: string } }; configMap?: { name: string } }
function pool(over: Record<string, unknown> = {}): VirtualMachinePool {
  return {
    apiVersion: 'pool.kubevirt.io/v1beta1', kind: 'VirtualMachinePool',
    metadata: { name: 'pool', namespace: 'default', uid: UID },
    spec: {
      replicas: 3, selector: { matchLabels: { app: 'p' } },
      virtualMachineTemplate: {
        metadata: { labels: { app: 'p' }, annotations: { note: 'x' } },
        spec: {
          runStrategy: 'Always',
          dataVolumeTemplates: [{ metadata: { name: 'root' }, spec: { storage: {} } }],
          template: { metadata: {}, spec: { domain: { devices: {} }, volumes: [
            { name: 'root', dataVolume: { name: 'root' } },
            { name: 'claim', persistentVolumeClaim: { claimName: 'root' } },
            { name: 'shared', persistentVolumeClaim: { claimName: 'shared' } },
            { name: 'ci', cloudInitNoCloud: { secretRef: { name: 'userdata' } } },
            { name: 'cm', configMap: { name: 'cfg' } },
          ] } },
        },
      },
      ...over,
    },
  } as unknown as VirtualMachinePool;
}
function vm(name: string, o: { owner?: string; labels?: Record<string, string>; deleting?: boolean; created?: string; ready?: boolean } = {}): VirtualMachine {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine',
    metadata: {
      name, namespace: 'default', uid: `uid-${name}`, labels: o.labels ?? { app: 'p' }, creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
      ...(o.deleting ? { deletionTimestamp: '2026-01-02T00:00:00Z' } : {}),
      ownerReferences: [{ apiVersion: 'x', kind: 'VirtualMachinePool', name: 'pool', uid: o.owner ?? UID, controller: true }],
    },
    spec: {} as never,
    status: { conditions: o.ready ? [{ type: 'Ready', status: 'True' }] : [] },
  } as VirtualMachine;
}
const names = (l: VirtualMachine[]) => l.map((v) => v.metadata.name);

describe('planPool', () => {
  it('names new VMs by the lowest free ordinals, skipping names any VM of the namespace holds', () => {
    expect(newVMNames('pool', 3, new Set(['pool-0', 'pool-2']))).toEqual(['pool-1', 'pool-3', 'pool-4']);
    expect(planPool(pool(), [vm('pool-1'), vm('pool-0', { owner: 'someone-else' })], true).create).toEqual(['pool-2', 'pool-3']);
    expect(ordinalOf('my-pool-12')).toBe(12);
  });

  it('scales in highest ordinal first, counting VMs already being deleted', () => {
    const vms = ['pool-0', 'pool-1', 'pool-2', 'pool-10'].map((n) => vm(n));
    expect(names(planPool(pool({ replicas: 2 }), vms, true).remove)).toEqual(['pool-10', 'pool-2']);
    const oneDeleting = [vm('pool-0'), vm('pool-1'), vm('pool-2', { deleting: true })];
    expect(names(planPool(pool({ replicas: 1 }), oneDeleting, true).remove)).toEqual(['pool-1']);
    expect(names(planPool(pool({ replicas: 2 }), oneDeleting, true).remove)).toEqual([]);
  });

  it('follows scaleInStrategy sortPolicy', () => {
    const vms = [vm('pool-0', { created: '2026-01-03T00:00:00Z' }), vm('pool-1', { created: '2026-01-01T00:00:00Z' }), vm('pool-2', { created: '2026-01-02T00:00:00Z' })];
    const by = (sortPolicy: string) => names(planPool(pool({ replicas: 2, scaleInStrategy: { proactive: { selectionPolicy: { sortPolicy } } } }), vms, true).remove);
    expect(by('AscendingOrder')).toEqual(['pool-0']);
    expect(by('Newest')).toEqual(['pool-0']);
    expect(by('Oldest')).toEqual(['pool-1']);
  });

  it('releases VMs whose labels moved away; paused or unmet expectations change nothing', () => {
    const plan = planPool(pool(), [vm('pool-0', { labels: { app: 'other' } }), vm('pool-1')], true);
    expect(names(plan.release)).toEqual(['pool-0']);
    expect(plan.create).toEqual(['pool-2', 'pool-3']); // the released VM keeps its name
    expect(planPool(pool({ paused: true }), [], true).create).toEqual([]);
    expect(planPool(pool(), [], false).create).toEqual([]);
  });
});

describe('renderPoolVM', () => {
  it('suffixes dataVolumeTemplates and the volumes using them with the ordinal; keeps other claims; labels, annotations, owner', () => {
    const out = renderPoolVM(pool(), 'pool-4', 4);
    expect(out.metadata).toMatchObject({ name: 'pool-4', namespace: 'default', labels: { app: 'p' }, annotations: { note: 'x' } });
    expect(out.metadata.ownerReferences).toEqual([{ apiVersion: 'pool.kubevirt.io/v1beta1', kind: 'VirtualMachinePool', name: 'pool', uid: UID, controller: true, blockOwnerDeletion: true }]);
    expect(out.spec.dataVolumeTemplates?.[0].metadata?.name).toBe('root-4');
    const vols = out.spec.template.spec.volumes as unknown as Vol[];
    expect(vols.map((v) => v.dataVolume?.name ?? v.persistentVolumeClaim?.claimName ?? v.cloudInitNoCloud?.secretRef.name ?? v.configMap?.name))
      .toEqual(['root-4', 'root-4', 'shared', 'userdata', 'cfg']);
  });

  it('with nameGeneration, suffixes secret and config map references too', () => {
    const out = renderPoolVM(pool({ nameGeneration: { appendIndexToSecretRefs: true, appendIndexToConfigMapRefs: true } }), 'pool-1', 1);
    const vols = out.spec.template.spec.volumes as unknown as Vol[];
    expect(vols[3].cloudInitNoCloud?.secretRef.name).toBe('userdata-1');
    expect(vols[4].configMap?.name).toBe('cfg-1');
    expect((pool().spec.virtualMachineTemplate?.spec?.template.spec.volumes as unknown as Vol[])[3].cloudInitNoCloud?.secretRef.name).toBe('userdata');
  });
});

describe('computePoolStatus', () => {
  it('counts ready VMs, prints the selector and sets the paused condition with KubeVirt\'s reason', () => {
    const s = computePoolStatus(pool({ paused: true }), [vm('pool-0', { ready: true }), vm('pool-1')], { reason: 'FailedScaleOut', message: 'error during scale out: x' }, new Date());
    expect(s).toMatchObject({ replicas: 2, readyReplicas: 1, labelSelector: 'app=p' });
    expect(s.conditions?.map((c) => [c.type, c.reason, c.message])).toEqual([['ReplicaPaused', 'SuccessfulPaused', 'Pool controller is paused'], ['ReplicaFailure', 'FailedScaleOut', 'error during scale out: x']]);
  });
});
