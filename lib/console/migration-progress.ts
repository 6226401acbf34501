/**
 * A migration's progress for the progress bar: phase steps from the VMIM, bytes from the source
 * node's kubevirt_vmi_migration_* metrics when they are there (% = processed / (processed + remaining)),
 * and the result (duration, downtime when reported, failure reason).
 */
import { MigrationPhase, type VMIMigrationState, type VirtualMachineInstanceMigration } from '../kubevirt';

export interface MigrationMetrics {
  processedBytes?: number;
  remainingBytes?: number;
  /** bytes/s */
  transferRate?: number;
  dirtyRate?: number;
}

export interface MigrationProgress {
  phase: string;
  /** 0-100 */
  percent: number;
  /** True when the bar reflects bytes moved, not only the phase. */
  measured: boolean;
  done: boolean;
  succeeded: boolean;
  label: string;
  etaSeconds?: number;
  durationMs?: number;
  downtimeMs?: number;
  failureReason?: string;
  sourceNode?: string;
  targetNode?: string;
}

const PHASE_PERCENT: Record<string, number> = {
  [MigrationPhase.Unset]: 2, [MigrationPhase.Pending]: 5, [MigrationPhase.Scheduling]: 10, [MigrationPhase.Scheduled]: 20,
  [MigrationPhase.PreparingTarget]: 30, [MigrationPhase.TargetReady]: 40, [MigrationPhase.Running]: 50,
  [MigrationPhase.Succeeded]: 100, [MigrationPhase.Failed]: 100,
};
const RUNNING_SPAN = 48; // Running fills 50 → 98 as bytes move

const PHASE_LABEL: Record<string, string> = {
  [MigrationPhase.Pending]: 'Waiting to start', [MigrationPhase.Scheduling]: 'Finding a target node', [MigrationPhase.Scheduled]: 'Target node chosen',
  [MigrationPhase.PreparingTarget]: 'Preparing the target', [MigrationPhase.TargetReady]: 'Target ready', [MigrationPhase.Running]: 'Copying memory',
  [MigrationPhase.Succeeded]: 'Migrated', [MigrationPhase.Failed]: 'Failed',
};

const ms = (t?: string) => (t ? Date.parse(t) : NaN);

/** Progress virt-handler publishes on the VMIM (QMP query-migrate), same field names as MigrationMetrics. */
export const ANNOTATION_MIGRATION_PROGRESS = 'kubevirt-ts.io/migration-progress';

function annotatedProgress(vmim: VirtualMachineInstanceMigration): (MigrationMetrics & { downtimeMs?: number }) | undefined {
  const raw = vmim.metadata.annotations?.[ANNOTATION_MIGRATION_PROGRESS];
  if (!raw) return undefined;
  try { return JSON.parse(raw); } catch { return undefined; }
}

/** The VMI's migrationState when it belongs to this VMIM. */
function stateFor(vmim: VirtualMachineInstanceMigration, vmiState?: VMIMigrationState): VMIMigrationState | undefined {
  const own = vmim.status?.migrationState;
  if (vmiState?.migrationUid && vmiState.migrationUid === vmim.metadata.uid) return { ...own, ...vmiState };
  return own;
}

function downtimeOf(state: VMIMigrationState | undefined): number | undefined {
  const d = (state as { downtimeMs?: unknown } | undefined)?.downtimeMs;
  return typeof d === 'number' ? d : undefined;
}

export function computeMigrationProgress(vmim: VirtualMachineInstanceMigration, vmiState?: VMIMigrationState, given?: MigrationMetrics): MigrationProgress {
  const annotated = annotatedProgress(vmim);
  const metrics = given ?? annotated;
  const phase = vmim.status?.phase ?? MigrationPhase.Pending;
  const state = stateFor(vmim, vmiState);
  const done = phase === MigrationPhase.Succeeded || phase === MigrationPhase.Failed;
  const succeeded = phase === MigrationPhase.Succeeded;
  const total = (metrics?.processedBytes ?? 0) + (metrics?.remainingBytes ?? 0);
  const measured = !done && phase === MigrationPhase.Running && total > 0;
  let percent = PHASE_PERCENT[phase] ?? 5;
  if (measured) percent = 50 + Math.round((RUNNING_SPAN * metrics!.processedBytes!) / total);
  const rate = metrics?.transferRate;
  const etaSeconds = measured && rate && rate > 0 ? Math.ceil(metrics!.remainingBytes! / rate) : undefined;
  const duration = ms(state?.endTimestamp) - ms(state?.startTimestamp);
  const aborted = state?.abortStatus === 'Succeeded';
  return {
    phase, percent, measured, done, succeeded, etaSeconds,
    label: aborted && done ? 'Cancelled' : PHASE_LABEL[phase] ?? phase,
    durationMs: Number.isFinite(duration) ? duration : undefined,
    downtimeMs: downtimeOf(state) ?? annotated?.downtimeMs,
    failureReason: phase === MigrationPhase.Failed ? state?.failureReason ?? vmim.status?.conditions?.find((c) => c.status === 'True')?.message : undefined,
    sourceNode: state?.sourceNode,
    targetNode: state?.targetNode,
  };
}

/** Migrations of one VMI, newest first (the per-VM history). */
export function migrationsOfVMI(vmims: VirtualMachineInstanceMigration[], namespace: string, vmiName: string): VirtualMachineInstanceMigration[] {
  return vmims
    .filter((m) => m.metadata.namespace === namespace && m.spec.vmiName === vmiName)
    .sort((a, b) => (ms(b.metadata.creationTimestamp) || 0) - (ms(a.metadata.creationTimestamp) || 0));
}

/** Nodes a VMI may move to: Ready, schedulable, not the one it is on. */
export function migrationTargets(nodes: { metadata: { name?: string }; spec?: { unschedulable?: boolean }; status?: { conditions?: { type: string; status: string }[] } }[], currentNode?: string): string[] {
  return nodes
    .filter((n) => !n.spec?.unschedulable && n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') && n.metadata.name !== currentNode)
    .map((n) => n.metadata.name ?? '')
    .sort();
}
