/**
 * PURE: KubeVirt's migrationRejectedByResourceQuota condition. When the target Pod's create is
 * refused by a ResourceQuota (`exceeded quota`) while the VMIM is Pending, the VMIM gets the
 * condition (status True, a probe time, no reason or message, as KubeVirt sets it) and the create
 * is retried with backoff and whenever a quota in the namespace changes; the condition goes away
 * once a target Pod exists (Scheduling).
 */
import type { Condition, VirtualMachineInstanceMigration, VirtualMachineInstanceMigrationStatus } from '../../../lib/kubevirt';
import { MigrationConditionType, Phase } from './constants';

const TYPE = MigrationConditionType.RejectedByResourceQuota;

export const isQuotaRejection = (message: string) => message.includes('exceeded quota');

export const hasQuotaRejection = (vmim: Pick<VirtualMachineInstanceMigration, 'status'>) => (vmim.status?.conditions ?? []).some((c) => c.type === TYPE);

/** the status with the condition added, or undefined when there is nothing to add */
export function withQuotaRejection(vmim: VirtualMachineInstanceMigration, createError: string, now: Date): VirtualMachineInstanceMigrationStatus | undefined {
  if (!isQuotaRejection(createError) || vmim.status?.phase !== Phase.Pending || hasQuotaRejection(vmim)) return undefined;
  const condition = { type: TYPE, status: 'True', lastProbeTime: now.toISOString(), lastTransitionTime: null } as Condition;
  return { ...structuredClone(vmim.status), conditions: [...(vmim.status?.conditions ?? []), condition] };
}

/** the conditions without the quota rejection once the migration got past Pending */
export function dropQuotaRejection(status: VirtualMachineInstanceMigrationStatus, phase: string): void {
  if (phase === Phase.Pending || phase === Phase.Unset || !status.conditions?.some((c) => c.type === TYPE)) return;
  status.conditions = status.conditions.filter((c) => c.type !== TYPE);
}
