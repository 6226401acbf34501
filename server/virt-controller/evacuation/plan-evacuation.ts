/**
 * PURE: should the evacuation controller create a migration for this VMI now? (KubeVirt's
 * pkg/virt-controller/watch/drain/evacuation, reduced to the VMI marks the eviction interceptor
 * writes.) A VMI marked with `status.evacuationNodeName` equal to its node, running, migratable,
 * with one active Pod and no unfinished migration gets one — within the cluster's and the node's
 * migration limits; after a failed evacuation it waits for a backoff before trying again.
 */
import type { VirtualMachineInstance, VirtualMachineInstanceMigration } from '../../../lib/kubevirt';
import { hasCondition } from '../../../lib/kubevirt/conditions';
import { Annotation, EVACUATION_NAME_PREFIX, Label, Phase, VMIPhase } from '../migration/constants';
import { isFinalPhase, phaseOf } from '../migration/migration-state';

/** KubeVirt's evacuation migrations jump the queue (only virt-controller may set a priority). */
export const EVACUATION_PRIORITY = 'system-critical';

export interface EvacuationLimits {
  parallelMigrationsPerCluster: number;
  parallelOutboundMigrationsPerNode: number;
  /** after a failed evacuation migration, wait this long before the next one */
  failureBackoffMs: number;
  /** re-check this often while a limit holds the VMI back */
  throttleRequeueMs: number;
}

export const DEFAULT_EVACUATION_LIMITS: EvacuationLimits = {
  parallelMigrationsPerCluster: 5,
  parallelOutboundMigrationsPerNode: 2,
  failureBackoffMs: 20_000,
  throttleRequeueMs: 1_000,
};

export interface EvacuationInputs {
  vmi: VirtualMachineInstance;
  /** this VMI's migrations */
  own: VirtualMachineInstanceMigration[];
  /** every unfinished migration in the cluster with its source node */
  active: { vmim: VirtualMachineInstanceMigration; sourceNode?: string }[];
  limits: EvacuationLimits;
  now: Date;
}

export type EvacuationDecision =
  | { action: 'none'; why: string }
  | { action: 'wait'; why: string; retryAfterMs: number }
  | { action: 'create'; node: string };

const none = (why: string): EvacuationDecision => ({ action: 'none', why });

function lastFailedAt(own: VirtualMachineInstanceMigration[]): number | undefined {
  const times = own.filter((m) => phaseOf(m) === Phase.Failed).map((m) => {
    const t = m.status?.phaseTransitionTimestamps?.find((p) => p.phase === Phase.Failed)?.phaseTransitionTimestamp ?? m.metadata.creationTimestamp;
    return t ? Date.parse(t) : 0;
  });
  return times.length ? Math.max(...times) : undefined;
}

function checkLimits(node: string, inputs: EvacuationInputs): EvacuationDecision | undefined {
  const { active, limits } = inputs;
  if (active.length >= limits.parallelMigrationsPerCluster) {
    return { action: 'wait', why: `${active.length} migrations in the cluster`, retryAfterMs: limits.throttleRequeueMs };
  }
  const outbound = active.filter((m) => m.sourceNode === node).length;
  if (outbound >= limits.parallelOutboundMigrationsPerNode) {
    return { action: 'wait', why: `${outbound} outbound migrations from ${node}`, retryAfterMs: limits.throttleRequeueMs };
  }
  return undefined;
}

export function planEvacuation(inputs: EvacuationInputs): EvacuationDecision {
  const { vmi, own, limits, now } = inputs;
  const node = vmi.status?.nodeName;
  const marked = vmi.status?.evacuationNodeName;
  if (!marked) return none('not marked for evacuation');
  if (!node || marked !== node) return none('marked for another node');
  if (vmi.metadata.deletionTimestamp || vmi.status?.phase !== VMIPhase.Running) return none('not running');
  if (!hasCondition(vmi, 'LiveMigratable', 'True')) return none('not live-migratable');
  if (Object.keys(vmi.status?.activePods ?? {}).length > 1) return none('more than one active pod');
  if (own.some((m) => !isFinalPhase(phaseOf(m)))) return none('a migration is already running');
  const failedAt = lastFailedAt(own);
  const wait = failedAt === undefined ? 0 : failedAt + limits.failureBackoffMs - now.getTime();
  if (wait > 0) return { action: 'wait', why: 'backoff after a failed evacuation', retryAfterMs: wait };
  return checkLimits(node, inputs) ?? { action: 'create', node };
}

/** The evacuation VMIM (KubeVirt's: generateName, evacuation annotation, system-critical priority). */
export function renderEvacuationMigration(vmi: VirtualMachineInstance, node: string): VirtualMachineInstanceMigration {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration',
    metadata: {
      generateName: EVACUATION_NAME_PREFIX, namespace: vmi.metadata.namespace,
      annotations: { [Annotation.EvacuationMigration]: node },
      labels: { [Label.VMIName]: vmi.metadata.name ?? '' },
    },
    spec: { vmiName: vmi.metadata.name ?? '', priority: EVACUATION_PRIORITY },
  } as VirtualMachineInstanceMigration;
}
