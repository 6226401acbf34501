/**
 * What the migration controller names: reasons, messages (KubeVirt's, verbatim where they exist),
 * the cluster's migration settings and their defaults (KubeVirt's virt-config.go).
 */
export { Annotation, Finalizer, Label, MigrationConditionType, MigrationPhase as Phase, VMIPhase } from '../../../lib/kubevirt';

export const Reason = {
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  SuccessfulHandOver: 'SuccessfulHandOver',
  FailedHandOver: 'FailedHandOver',
  SuccessfulMigration: 'SuccessfulMigration',
  FailedMigration: 'FailedMigration',
  SuccessfulAbortMigration: 'SuccessfulAbortMigration',
  MigrationTargetPodUnschedulable: 'migrationTargetPodUnschedulable',
  MigrationBackoff: 'MigrationBackoff',
  AbortRequested: 'MigrationAbortRequested',
} as const;

/** Why a VMIM failed, as the controller writes it (KubeVirt's migration.go messages). */
export const FailureMessage = {
  vmiMissing: 'Migration failed because vmi does not exist.',
  vmiFinal: 'Migration failed vmi shutdown during migration.',
  notEligible: 'VMI is not eligible for migration because another migration job is in progress.',
  targetPodDown: 'Migration failed because target pod shutdown during migration',
  targetPodMissing: 'Migration target pod was removed during active migration.',
  canceled: 'Migration failed due to being canceled',
  sourceReported: 'source node reported migration failed',
  stateTaken: 'Migration failed because the VMI migration state was cleared or taken by another migration.',
  targetPodDownReason: 'Target pod is down',
} as const;

export interface MigrationSettings {
  parallelMigrationsPerCluster: number;
  parallelOutboundMigrationsPerNode: number;
  /** quantity, '0Mi' = unlimited */
  bandwidthPerMigration: string;
  completionTimeoutPerGiB: number;
  progressTimeout: number;
  allowAutoConverge: boolean;
  allowPostCopy: boolean;
  allowWorkloadDisruption: boolean;
  maxDowntimeMs?: number;
  /** a target Pod that stays unschedulable this long is deleted (the migration fails) */
  unschedulableTimeoutMs: number;
  /** a target Pod pending for any reason this long is deleted */
  pendingTimeoutMs: number;
}

export const DEFAULT_MIGRATION_SETTINGS: MigrationSettings = {
  parallelMigrationsPerCluster: 5,
  parallelOutboundMigrationsPerNode: 2,
  bandwidthPerMigration: '0Mi',
  completionTimeoutPerGiB: 150,
  progressTimeout: 150,
  allowAutoConverge: false,
  allowPostCopy: false,
  allowWorkloadDisruption: false,
  /** QEMU's downtime-limit when no policy sets one (KubeVirt: 900 ms; ours keeps an idle guest's pause ≤ 50 ms, docs/migration.md) */
  maxDowntimeMs: 50,
  unschedulableTimeoutMs: 5 * 60_000,
  pendingTimeoutMs: 15 * 60_000,
};

/** Requeue delays while throttled (KubeVirt: 1/3/5 s by priority). */
export const THROTTLE_REQUEUE_MS = { 'system-critical': 1_000, 'user-triggered': 3_000, 'system-maintenance': 5_000 } as const;
/** Evacuation VMIMs are named `kubevirt-evacuation-xxxxx`. */
export const EVACUATION_NAME_PREFIX = 'kubevirt-evacuation-';
/** Per VMI, the number of finalized VMIMs kept (older ones are garbage-collected). */
export const FINALIZED_MIGRATIONS_KEPT = 5;
