/**
 * Rows of the console's VM groups page: replica sets and pools side by side with desired,
 * current and ready counts, whether they are paused or failing, and the scale request a
 * − / + click sends (a merge patch on the `scale` subresource).
 */
import { findCondition, objectSubresourcePath, VirtualMachineInstanceReplicaSetResource, VirtualMachinePoolResource } from '../kubevirt';
import type { VirtualMachineInstanceReplicaSet, VirtualMachinePool } from '../kubevirt';

export interface GroupRow {
  key: string;
  kind: 'VirtualMachineInstanceReplicaSet' | 'VirtualMachinePool';
  /** what a user calls it: "replica set" or "pool" */
  label: string;
  namespace: string;
  name: string;
  desired: number;
  current: number;
  ready: number;
  paused: boolean;
  /** the ReplicaFailure condition's message, when scaling fails */
  failure?: string;
  scalePath: string;
}

function row(kind: GroupRow['kind'], obj: VirtualMachineInstanceReplicaSet | VirtualMachinePool): GroupRow {
  const namespace = obj.metadata.namespace ?? 'default';
  const name = obj.metadata.name ?? '';
  const isPool = kind === 'VirtualMachinePool';
  const failure = findCondition(obj, 'ReplicaFailure');
  return {
    key: `${kind}/${namespace}/${name}`, kind, label: isPool ? 'pool' : 'replica set', namespace, name,
    desired: obj.spec?.replicas ?? 1, current: obj.status?.replicas ?? 0, ready: obj.status?.readyReplicas ?? 0,
    paused: Boolean(obj.spec?.paused),
    ...(failure?.status === 'True' ? { failure: failure.message ?? failure.reason ?? 'scaling failed' } : {}),
    scalePath: objectSubresourcePath(isPool ? VirtualMachinePoolResource : VirtualMachineInstanceReplicaSetResource, { namespace, name }, 'scale'),
  };
}

/** replica sets and pools, sorted by namespace and name */
export function groupRows(sets: VirtualMachineInstanceReplicaSet[], pools: VirtualMachinePool[]): GroupRow[] {
  return [...sets.map((s) => row('VirtualMachineInstanceReplicaSet', s)), ...pools.map((p) => row('VirtualMachinePool', p))]
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name) || a.kind.localeCompare(b.kind));
}

/** the merge patch for the scale subresource, or undefined when the count would go below 0 */
export function scaleRequest(r: GroupRow, delta: number): { spec: { replicas: number } } | undefined {
  const replicas = r.desired + delta;
  return replicas < 0 ? undefined : { spec: { replicas } };
}
