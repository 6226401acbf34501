/**
 * PURE: the source side's view of a running migration. The launcher's MigrationInfo (QMP
 * query-migrate) becomes the progress record virt-handler publishes on the VMIM, the resolved
 * migrationConfiguration becomes QEMU parameters, and the monitor decides when to give up
 * (KubeVirt's live-migration-source.go: completion timeout per GiB, progress timeout).
 */
import { parseQuantity, type VirtualMachineInstance } from '../../../lib/kubevirt';
import type { MigrationInfo, MigrationParams } from '../../virt-launcher/protocol';

/** Annotation on the VMIM, JSON `MigrationProgress`, refreshed at least every second while it runs. */
export const ANNOTATION_MIGRATION_PROGRESS = 'kubevirt-ts.io/migration-progress';

/** Field names match lib/console's MigrationMetrics so the console can use it as is. */
export interface MigrationProgress {
  status: string;
  processedBytes?: number;
  remainingBytes?: number;
  totalBytes?: number;
  /** bytes/s */
  transferRate?: number;
  /** bytes/s the guest dirties */
  dirtyRate?: number;
  expectedDowntimeMs?: number;
  /** measured by QEMU once completed */
  downtimeMs?: number;
  totalTimeMs?: number;
  updatedAt: string;
}

const PAGE_SIZE = 4096;

export function toMigrationProgress(info: MigrationInfo, now: Date): MigrationProgress {
  const out: MigrationProgress = {
    status: info.status,
    processedBytes: info.transferredBytes,
    remainingBytes: info.remainingBytes,
    totalBytes: info.totalBytes,
    transferRate: info.mbps !== undefined ? Math.round((info.mbps * 1e6) / 8) : undefined,
    dirtyRate: info.dirtyPagesRate !== undefined ? info.dirtyPagesRate * PAGE_SIZE : undefined,
    expectedDowntimeMs: info.expectedDowntimeMs,
    downtimeMs: info.downtimeMs,
    totalTimeMs: info.totalTimeMs,
    updatedAt: now.toISOString(),
  };
  for (const k of Object.keys(out) as (keyof MigrationProgress)[]) if (out[k] === undefined) delete out[k];
  return out;
}

export interface ResolvedConfig {
  bandwidthPerMigration?: string | number;
  completionTimeoutPerGiB?: number;
  progressTimeout?: number;
  allowAutoConverge?: boolean;
  allowPostCopy?: boolean;
  maxDowntimeMs?: number;
}

/** QEMU parameters: `max-bandwidth` (0 = unlimited → not set), capabilities, `downtime-limit`. */
export function toMigrationParams(config: ResolvedConfig | undefined): MigrationParams {
  const c = config ?? {};
  const params: MigrationParams = { allowAutoConverge: c.allowAutoConverge === true, allowPostCopy: c.allowPostCopy === true };
  const bw = parseQuantity(c.bandwidthPerMigration ?? 0);
  if (bw && bw > 0) params.bandwidthBytesPerSec = Math.round(bw);
  if (c.maxDowntimeMs !== undefined) params.downtimeMs = c.maxDowntimeMs;
  return params;
}

/** Guest memory (what KubeVirt calls the migrated data size, local disks aside). */
export function migratedBytes(vmi: VirtualMachineInstance): number {
  const mem = vmi.spec.domain.memory?.guest ?? vmi.spec.domain.resources?.requests?.memory;
  return parseQuantity(mem ?? 0) || 128 * 2 ** 20;
}

export interface MonitorState {
  startedAt: number;
  /** lowest remaining bytes seen, and when */
  bestRemaining?: number;
  bestAt: number;
}

export const DEFAULT_COMPLETION_TIMEOUT_PER_GIB = 150;
export const DEFAULT_PROGRESS_TIMEOUT = 150;

/** What the monitor does about a migration that takes too long (KubeVirt's handleLegacyConvergence). */
export type ConvergenceStep = { action: 'abort'; reason: string } | { action: 'postcopy' };

/**
 * Track progress and decide: stuck past the progress timeout → abort (a network or QEMU problem,
 * post-copy would not help); past the completion timeout → switch to post-copy when the policy
 * allows it, else abort. Abort reasons are KubeVirt's messages.
 */
export function decideConvergence(m: MonitorState, info: MigrationInfo, config: ResolvedConfig | undefined, dataBytes: number, now: number): ConvergenceStep | undefined {
  const remaining = info.remainingBytes;
  if (remaining !== undefined && (m.bestRemaining === undefined || remaining < m.bestRemaining)) {
    m.bestRemaining = remaining;
    m.bestAt = now;
  }
  const progressTimeout = config?.progressTimeout ?? DEFAULT_PROGRESS_TIMEOUT;
  const stuckFor = (now - m.bestAt) / 1000;
  if (progressTimeout > 0 && stuckFor > progressTimeout) return { action: 'abort', reason: `Live migration stuck for ${Math.round(stuckFor)} sec and has been aborted` };
  const perGiB = config?.completionTimeoutPerGiB ?? DEFAULT_COMPLETION_TIMEOUT_PER_GIB;
  const acceptable = Math.max(1, perGiB * (dataBytes / 2 ** 30));
  const elapsed = (now - m.startedAt) / 1000;
  if (!(perGiB > 0 && elapsed > acceptable)) return undefined;
  if (config?.allowPostCopy) return { action: 'postcopy' };
  return { action: 'abort', reason: `Live migration is not completed after ${Math.round(acceptable)} sec and has been aborted` };
}

/** Track progress; returns an abort reason once a timeout is exceeded (KubeVirt's messages). */
export function checkMigrationTimeouts(m: MonitorState, info: MigrationInfo, config: ResolvedConfig | undefined, dataBytes: number, now: number): string | undefined {
  const step = decideConvergence(m, info, config, dataBytes, now);
  return step?.action === 'abort' ? step.reason : undefined;
}
