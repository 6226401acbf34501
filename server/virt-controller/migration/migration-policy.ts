/**
 * PURE: MigrationPolicy selection and the resolved migration configuration (KubeVirt's
 * migrationpolicy.go). A policy matches when every label of its namespaceSelector is on the
 * VMI's namespace and every label of its virtualMachineInstanceSelector is on the VMI; a policy
 * without selectors never matches. Most matched labels wins, then most matched VMI labels, then
 * the smallest name. The policy's fields overlay the cluster settings.
 */
import type { MigrationPolicy, VirtualMachineInstance } from '../../../lib/kubevirt';
import type { MigrationSettings } from './constants';

type Labels = Record<string, string> | undefined;

function countMatches(selector: Labels, labels: Labels): number | undefined {
  const entries = Object.entries(selector ?? {});
  return entries.every(([k, v]) => labels?.[k] === v) ? entries.length : undefined;
}

interface Scored { policy: MigrationPolicy; total: number; vmiLabels: number }

function score(policy: MigrationPolicy, vmi: VirtualMachineInstance, namespaceLabels: Labels): Scored | undefined {
  const sel = policy.spec?.selectors;
  if (!sel || (!sel.namespaceSelector && !sel.virtualMachineInstanceSelector)) return undefined;
  const ns = countMatches(sel.namespaceSelector, namespaceLabels);
  const v = countMatches(sel.virtualMachineInstanceSelector, vmi.metadata.labels);
  if (ns === undefined || v === undefined) return undefined;
  return { policy, total: ns + v, vmiLabels: v };
}

export function selectMigrationPolicy(policies: MigrationPolicy[], vmi: VirtualMachineInstance, namespaceLabels: Labels): MigrationPolicy | undefined {
  const scored = policies.map((p) => score(p, vmi, namespaceLabels)).filter((s): s is Scored => !!s);
  scored.sort((a, b) => b.total - a.total || b.vmiLabels - a.vmiLabels || (a.policy.metadata.name ?? '').localeCompare(b.policy.metadata.name ?? ''));
  return scored[0]?.policy;
}

/** `migrationState.migrationConfiguration` as KubeVirt writes it (cluster settings overlaid by the policy). */
export type MigrationConfiguration = Omit<MigrationSettings, 'unschedulableTimeoutMs' | 'pendingTimeoutMs'>;

export function resolveMigrationConfiguration(settings: MigrationSettings, policy?: MigrationPolicy): MigrationConfiguration {
  const p = policy?.spec ?? {};
  const out: MigrationConfiguration = {
    bandwidthPerMigration: String(p.bandwidthPerMigration ?? settings.bandwidthPerMigration),
    completionTimeoutPerGiB: p.completionTimeoutPerGiB ?? settings.completionTimeoutPerGiB,
    // not a MigrationPolicy field in KubeVirt's CRD; honoured if a policy carries it anyway
    progressTimeout: (p as { progressTimeout?: number }).progressTimeout ?? settings.progressTimeout,
    allowAutoConverge: p.allowAutoConverge ?? settings.allowAutoConverge,
    allowPostCopy: p.allowPostCopy ?? settings.allowPostCopy,
    allowWorkloadDisruption: p.allowWorkloadDisruption ?? settings.allowWorkloadDisruption,
    parallelMigrationsPerCluster: settings.parallelMigrationsPerCluster,
    parallelOutboundMigrationsPerNode: settings.parallelOutboundMigrationsPerNode,
  };
  const downtime = p.maxDowntimeMs ?? settings.maxDowntimeMs;
  if (downtime !== undefined) out.maxDowntimeMs = downtime;
  return out;
}
