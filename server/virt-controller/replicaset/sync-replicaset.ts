/**
 * One replica set sync's writes: adopt and release VMIs, create missing VMIs from the template
 * (generateName `<rs-name>`, controller reference), delete surplus ones, then delete finished
 * ones once the set is whole; every create and delete is counted in the expectations first so
 * a sync on a lagging cache never creates twice. Returns the first scaling failure, if any.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ObjectMeta, VirtualMachineInstance, VirtualMachineInstanceReplicaSet } from '../../../lib/kubevirt';
import { messageOf, isNotFound } from '../../kube/api-errors';
import type { CustomResourceClient } from '../../kube/clients';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import type { Expectations } from '../../kube/expectations';
import { ownerRefOf, type ReplicaPlan } from './plan-replicas';
import type { ScaleFailure } from './replicaset-status';
import { RSEventReason } from './constants';

const kube = (o: object) => o as unknown as KubernetesObject;

export interface SyncDeps {
  vmis: CustomResourceClient<KubernetesObject>;
  recorder: EventRecorder;
  expectations: Expectations;
}

/** the VMI a replica set creates: the template's metadata and spec, its labels, our controller reference */
export function renderReplica(rs: VirtualMachineInstanceReplicaSet): VirtualMachineInstance {
  const t = rs.spec.template;
  const meta: ObjectMeta = { ...(t?.metadata ?? {}) };
  const base = meta.name || meta.generateName || rs.metadata.name!;
  delete meta.name;
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: { ...meta, generateName: base, namespace: rs.metadata.namespace, labels: t?.metadata?.labels, ownerReferences: [ownerRefOf(rs)] },
    spec: structuredClone(t?.spec ?? {}),
  } as VirtualMachineInstance;
}

async function claim(deps: SyncDeps, rs: VirtualMachineInstanceReplicaSet, plan: ReplicaPlan): Promise<void> {
  const ns = rs.metadata.namespace!;
  for (const vmi of plan.adopt) {
    const refs = [...(vmi.metadata.ownerReferences ?? []), ownerRefOf(rs)];
    await deps.vmis.mergePatch(ns, vmi.metadata.name!, { metadata: { ownerReferences: refs, uid: vmi.metadata.uid } });
  }
  for (const vmi of plan.release) {
    const refs = (vmi.metadata.ownerReferences ?? []).filter((r) => r.uid !== rs.metadata.uid);
    await deps.vmis.mergePatch(ns, vmi.metadata.name!, { metadata: { ownerReferences: refs, uid: vmi.metadata.uid } })
      .catch((err) => { if (!isNotFound(err)) throw err; });
  }
}

async function createReplicas(deps: SyncDeps, key: string, rs: VirtualMachineInstanceReplicaSet, n: number): Promise<ScaleFailure | undefined> {
  deps.expectations.expectCreations(key, n);
  const results = await Promise.all(Array.from({ length: n }, async () => {
    try {
      const created = await deps.vmis.create(rs.metadata.namespace!, kube(renderReplica(rs)));
      void deps.recorder.record(kube(rs), EventTypeNormal, RSEventReason.SuccessfulCreate, `Started the virtual machine by creating the new virtual machine instance ${created.metadata?.name}`);
      return undefined;
    } catch (err) {
      deps.expectations.lowerExpectations(key, 1);
      void deps.recorder.record(kube(rs), EventTypeWarning, RSEventReason.FailedCreate, `Error creating virtual machine instance: ${messageOf(err)}`);
      return { reason: 'FailedCreate', message: messageOf(err) } as ScaleFailure;
    }
  }));
  return results.find(Boolean);
}

async function deleteReplicas(deps: SyncDeps, key: string, rs: VirtualMachineInstanceReplicaSet, victims: VirtualMachineInstance[], message: (v: VirtualMachineInstance) => string): Promise<ScaleFailure | undefined> {
  deps.expectations.expectDeletions(key, victims.map((v) => v.metadata.uid!));
  const results = await Promise.all(victims.map(async (v) => {
    try {
      await deps.vmis.delete(rs.metadata.namespace!, v.metadata.name!);
      void deps.recorder.record(kube(rs), EventTypeNormal, RSEventReason.SuccessfulDelete, message(v));
      return undefined;
    } catch (err) {
      deps.expectations.deletionObserved(key, v.metadata.uid);
      if (isNotFound(err)) return undefined;
      void deps.recorder.record(kube(rs), EventTypeWarning, RSEventReason.FailedDelete, `Error deleting virtual machine instance ${v.metadata.name}: ${messageOf(err)}`);
      return { reason: 'FailedDelete', message: messageOf(err) } as ScaleFailure;
    }
  }));
  return results.find(Boolean);
}

/** performs the plan; the failure (if any) becomes the ReplicaFailure condition */
export async function syncReplicaSet(deps: SyncDeps, key: string, rs: VirtualMachineInstanceReplicaSet, plan: ReplicaPlan): Promise<ScaleFailure | undefined> {
  await claim(deps, rs, plan);
  if (plan.create > 0) return createReplicas(deps, key, rs, plan.create);
  if (plan.remove.length > 0) {
    return deleteReplicas(deps, key, rs, plan.remove, (v) => `Stopped the virtual machine by deleting the virtual machine instance ${v.metadata.uid}`);
  }
  const canClean = !rs.spec.paused && !rs.metadata.deletionTimestamp && deps.expectations.satisfied(key);
  if (canClean && plan.finished.length > 0) {
    return deleteReplicas(deps, key, rs, plan.finished, (v) => `Deleted finished virtual machine: ${v.metadata.uid}`);
  }
  return undefined;
}
