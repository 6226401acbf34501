/**
 * PURE: may this Pending migration create its target Pod now? (KubeVirt's migration.go limits:
 * parallelMigrationsPerCluster running migrations, parallelOutboundMigrationsPerNode per source node).
 * "Running" = any unfinished VMIM whose target Pod exists (phase past Pending).
 */
import type { VirtualMachineInstanceMigration } from '../../../lib/kubevirt';
import { THROTTLE_REQUEUE_MS, type MigrationSettings } from './constants';
import { isTargetCreated, phaseOf } from './migration-state';

export interface ActiveMigration { vmim: VirtualMachineInstanceMigration; sourceNode?: string }

export type ThrottleDecision = { allowed: true } | { allowed: false; why: string; retryAfterMs: number };

export function decideThrottle(
  vmim: VirtualMachineInstanceMigration, sourceNode: string | undefined, all: ActiveMigration[],
  limits: Pick<MigrationSettings, 'parallelMigrationsPerCluster' | 'parallelOutboundMigrationsPerNode'>,
): ThrottleDecision {
  const retryAfterMs = THROTTLE_REQUEUE_MS[vmim.spec.priority ?? 'user-triggered'] ?? THROTTLE_REQUEUE_MS['user-triggered'];
  const running = all.filter((m) => m.vmim.metadata.uid !== vmim.metadata.uid && isTargetCreated(phaseOf(m.vmim)));
  if (running.length >= limits.parallelMigrationsPerCluster) {
    return { allowed: false, why: `${running.length} migrations running in the cluster (limit ${limits.parallelMigrationsPerCluster})`, retryAfterMs };
  }
  const outbound = running.filter((m) => sourceNode && m.sourceNode === sourceNode).length;
  if (outbound >= limits.parallelOutboundMigrationsPerNode) {
    return { allowed: false, why: `${outbound} outbound migrations from node ${sourceNode} (limit ${limits.parallelOutboundMigrationsPerNode})`, retryAfterMs };
  }
  return { allowed: true };
}
