/**
 * What a VirtualMachinePool sync does, decided from the caches alone (pure): its VMs (controller
 * reference), the ones to release (labels no longer match), the ordinal names to create
 * (`<pool>-<index>`, lowest free index first), and the VMs to delete on scale-in (highest ordinal
 * first unless scaleInStrategy.proactive.selectionPolicy.sortPolicy says otherwise).
 */
import { hasCondition, selectorMatches } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachinePool } from '../../../lib/kubevirt';

export const BURST_REPLICAS = 250;

export interface PoolPlan {
  owned: VirtualMachine[];
  release: VirtualMachine[];
  create: string[];
  remove: VirtualMachine[];
}

export const isVMReady = (vm: VirtualMachine) => hasCondition(vm, 'Ready', 'True');

/** the ordinal at the end of `<pool>-<index>`, or undefined */
export function ordinalOf(name: string): number | undefined {
  const m = /-(\d+)$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** `count` names `<pool>-<i>` not taken by any VM of the namespace, lowest i first */
export function newVMNames(pool: string, count: number, taken: Set<string>): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const name = `${pool}-${i}`;
    if (!taken.has(name)) out.push(name);
  }
  return out;
}

type SortPolicy = 'AscendingOrder' | 'DescendingOrder' | 'Newest' | 'Oldest';

function scaleInOrder(pool: VirtualMachinePool): (a: VirtualMachine, b: VirtualMachine) => number {
  const spec = pool.spec as { scaleInStrategy?: { proactive?: { selectionPolicy?: { sortPolicy?: SortPolicy } } } };
  const policy = spec.scaleInStrategy?.proactive?.selectionPolicy?.sortPolicy ?? 'DescendingOrder';
  const ord = (v: VirtualMachine) => ordinalOf(v.metadata.name ?? '') ?? 0;
  const created = (v: VirtualMachine) => Date.parse(v.metadata.creationTimestamp ?? '') || 0;
  switch (policy) {
    case 'AscendingOrder': return (a, b) => ord(a) - ord(b);
    case 'Newest': return (a, b) => created(b) - created(a) || ord(b) - ord(a);
    case 'Oldest': return (a, b) => created(a) - created(b) || ord(a) - ord(b);
    default: return (a, b) => ord(b) - ord(a);
  }
}

/** `vms`: every VM of the pool's namespace; `scale` false (paused, deleting, expectations pending) plans no creates or deletes */
export function planPool(pool: VirtualMachinePool, vms: VirtualMachine[], scale: boolean): PoolPlan {
  const uid = pool.metadata.uid;
  const ns = pool.metadata.namespace;
  const inNamespace = vms.filter((v) => v.metadata.namespace === ns);
  const mine = inNamespace.filter((v) => v.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid));
  const deleting = Boolean(pool.metadata.deletionTimestamp);
  const release = deleting ? [] : mine.filter((v) => !selectorMatches(pool.spec.selector, v.metadata.labels));
  const owned = mine.filter((v) => !release.includes(v));
  const plan: PoolPlan = { owned, release, create: [], remove: [] };
  if (!scale || pool.spec.paused || deleting) return plan;
  const diff = owned.length - (pool.spec.replicas ?? 1);
  if (diff < 0) {
    plan.create = newVMNames(pool.metadata.name!, Math.min(-diff, BURST_REPLICAS), new Set(inNamespace.map((v) => v.metadata.name!)));
  } else if (diff > 0) {
    const eligible = owned.filter((v) => !v.metadata.deletionTimestamp);
    const count = Math.min(diff - (owned.length - eligible.length), BURST_REPLICAS);
    if (count > 0) plan.remove = [...eligible].sort(scaleInOrder(pool)).slice(0, count);
  }
  return plan;
}
