/**
 * What a VirtualMachineInstanceReplicaSet sync does, decided from the caches alone (pure):
 * which VMIs of the namespace it owns, adopts (orphans its selector matches) or releases (owned
 * ones it no longer matches); which owned VMIs are active, ready or finished; how many VMIs to
 * create, and which to delete when there are too many.
 */
import { hasCondition, isVMIFinal, selectorMatches, VMIConditionType } from '../../../lib/kubevirt';
import type { OwnerReference, VirtualMachineInstance, VirtualMachineInstanceReplicaSet } from '../../../lib/kubevirt';
import { RS_KIND } from './constants';

/** KubeVirt's default burstReplicas: at most this many creates or deletes in one sync */
export const BURST_REPLICAS = 250;

export interface ReplicaPlan {
  /** orphans matching the selector: get our controller reference */
  adopt: VirtualMachineInstance[];
  /** owned VMIs whose labels no longer match: lose our reference */
  release: VirtualMachineInstance[];
  /** owned (after adopt/release), not final, not being deleted */
  active: VirtualMachineInstance[];
  /** owned and Succeeded/Failed: deleted once the set is whole again */
  finished: VirtualMachineInstance[];
  /** how many VMIs to create now */
  create: number;
  /** surplus VMIs to delete now */
  remove: VirtualMachineInstance[];
}

export function ownerRefOf(rs: VirtualMachineInstanceReplicaSet): OwnerReference {
  return { apiVersion: 'kubevirt.io/v1', kind: RS_KIND, name: rs.metadata.name!, uid: rs.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

const controllerRef = (vmi: VirtualMachineInstance) => vmi.metadata.ownerReferences?.find((r) => r.controller);

export const isVMIReady = (vmi: VirtualMachineInstance) => hasCondition(vmi, VMIConditionType.Ready, 'True');

export const wantedReplicas = (rs: VirtualMachineInstanceReplicaSet) => rs.spec.replicas ?? 1;

/**
 * Deletion order for surplus VMIs: not yet running before running, not ready before ready, newest
 * before oldest (kube's ReplicaSet order; KubeVirt itself takes the first ones it lists).
 */
export function surplusOrder(a: VirtualMachineInstance, b: VirtualMachineInstance): number {
  const running = (v: VirtualMachineInstance) => (v.status?.phase === 'Running' ? 1 : 0);
  const ready = (v: VirtualMachineInstance) => (isVMIReady(v) ? 1 : 0);
  if (running(a) !== running(b)) return running(a) - running(b);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  const created = (v: VirtualMachineInstance) => Date.parse(v.metadata.creationTimestamp ?? '') || 0;
  if (created(a) !== created(b)) return created(b) - created(a);
  return (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '');
}

/** the replica set's view of its namespace's VMIs; `scale` false (paused, deleting, expectations pending) plans no creates or deletes */
export function planReplicas(rs: VirtualMachineInstanceReplicaSet, vmis: VirtualMachineInstance[], scale: boolean): ReplicaPlan {
  const uid = rs.metadata.uid;
  const deleting = Boolean(rs.metadata.deletionTimestamp);
  const owned: VirtualMachineInstance[] = [];
  const adopt: VirtualMachineInstance[] = [];
  const release: VirtualMachineInstance[] = [];
  for (const vmi of vmis) {
    if (vmi.metadata.namespace !== rs.metadata.namespace) continue;
    const ref = controllerRef(vmi);
    const matches = selectorMatches(rs.spec.selector, vmi.metadata.labels);
    if (ref && ref.uid !== uid) continue;
    if (ref) {
      if (matches || deleting) owned.push(vmi); else release.push(vmi);
    } else if (matches && !deleting && !vmi.metadata.deletionTimestamp) {
      adopt.push(vmi);
      owned.push(vmi);
    }
  }
  const finished = owned.filter((v) => isVMIFinal(v));
  const active = owned.filter((v) => !isVMIFinal(v) && !v.metadata.deletionTimestamp);
  const diff = active.length - wantedReplicas(rs);
  const doScale = scale && !rs.spec.paused && !deleting;
  const n = Math.min(Math.abs(diff), BURST_REPLICAS);
  return {
    adopt, release, active, finished,
    create: doScale && diff < 0 ? n : 0,
    remove: doScale && diff > 0 ? [...active].sort(surplusOrder).slice(0, n) : [],
  };
}
