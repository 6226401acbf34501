/**
 * The migration settings the KubeVirt CR's spec.configuration.migrations sets; what it leaves out
 * keeps our default (DEFAULT_MIGRATION_SETTINGS). Read on every sync, so a patch of the CR changes
 * the next decision.
 */
import type { KubeVirtConfiguration } from '../../../lib/kubevirt/kubevirt-cr';
import type { MigrationSettings } from './constants';

export function migrationSettingsFrom(cfg: KubeVirtConfiguration): Partial<MigrationSettings> {
  const m = cfg.migrations ?? {};
  const out: Partial<MigrationSettings> = {};
  if (m.parallelMigrationsPerCluster !== undefined) out.parallelMigrationsPerCluster = m.parallelMigrationsPerCluster;
  if (m.parallelOutboundMigrationsPerNode !== undefined) out.parallelOutboundMigrationsPerNode = m.parallelOutboundMigrationsPerNode;
  if (m.bandwidthPerMigration !== undefined) out.bandwidthPerMigration = String(m.bandwidthPerMigration);
  if (m.completionTimeoutPerGiB !== undefined) out.completionTimeoutPerGiB = m.completionTimeoutPerGiB;
  if (m.progressTimeout !== undefined) out.progressTimeout = m.progressTimeout;
  if (m.allowAutoConverge !== undefined) out.allowAutoConverge = m.allowAutoConverge;
  if (m.allowPostCopy !== undefined) out.allowPostCopy = m.allowPostCopy;
  if (m.allowWorkloadDisruption !== undefined) out.allowWorkloadDisruption = m.allowWorkloadDisruption;
  return out;
}
