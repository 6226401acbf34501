/**
 * PURE: what virt-handler reports in the VMI status, from the launcher's DomainStatus, the guest
 * agent and the outcome of the last sync (KubeVirt's pkg/virt-handler/vm.go updateVMIStatus).
 * The handler owns the phase from Scheduled on, and the conditions Paused, LiveMigratable,
 * AgentConnected, SoftwareEmulation, AccessCredentialsSynchronized, (after hand-over) Synchronized,
 * and Ready while the VMI is Running (vmi-handler.ts withReady, lib/kubevirt/vmi-ready.ts).
 */
import type { Condition as VMICondition, VirtualMachineInstance, VirtualMachineInstanceStatus, VMIMigrationState, VMIPhase } from '../../lib/kubevirt';
import { POSTCOPY_FAILED_MESSAGE, type DomainStatus, type GuestInfo } from '../virt-launcher/protocol';
import { Condition, Phase, Reason } from './constants';
import { computeLiveMigratable, migrationMethodOf } from './live-migratable';
import { removeCondition, setCondition } from '../../lib/kubevirt/conditions';
import { computeInterfaces, computeGuestOSInfo } from './guest-status';

export interface Observed {
  domain?: DomainStatus;
  guest?: GuestInfo;
  /** the launcher is gone (socket refused / pod down) and said why, if it could. */
  launcherGone?: { reason: string; message: string };
  syncError?: { reason: string; message: string };
  /** the last attempt to propagate accessCredentials through the agent (access-credentials.ts) */
  accessCredentials?: Omit<VMICondition, 'lastTransitionTime'>;
  node: string;
  now: Date;
}

type Outcome = { phase: VMIPhase; reason?: string };

const FINAL = new Set<string>([Phase.Succeeded, Phase.Failed]);
/** termination.json reasons of a launcher whose guest shut down cleanly. */
const CLEAN_EXIT_REASONS = new Set(['Completed', 'Shutdown']);
const MIGRATED = 'Migrated';
/** the Node's condition type, reused on the VMI (KubeVirt has no pod-less mode to name) */
export const NETWORK_UNAVAILABLE = 'NetworkUnavailable';
/** our own condition (KubeVirt has none): the launcher kept QEMU as root, and why (server/virt-launcher/qemu-user.ts) */
export const QEMU_RUNS_AS_ROOT = 'QEMURunsAsRoot';

/** Domain state → VMI phase (calculateVmPhaseForStatusReason). */
export function phaseFromDomain(domain: DomainStatus, deleting: boolean): Outcome | undefined {
  switch (domain.state) {
    case 'running': case 'paused': case 'migrating':
      return { phase: Phase.Running };
    case 'shutdown': case 'shutoff': case 'crashed':
      return phaseFromShutoff(domain, deleting);
    default: // starting, incoming, migrated: nothing to report yet
      return undefined;
  }
}

function phaseFromShutoff(domain: DomainStatus, deleting: boolean): Outcome | undefined {
  switch (domain.reason) {
    case 'Shutdown': return { phase: Phase.Succeeded };
    case 'Migrated': return undefined;
    // killed: after an ACPI attempt that ran out of grace → Failed; an immediate kill (grace 0) → Succeeded
    case 'Destroyed': return domain.acpiAttempted ? { phase: Phase.Failed, reason: 'Destroyed' } : { phase: Phase.Succeeded };
    default:
      if (domain.state === 'shutdown' && deleting) return { phase: Phase.Succeeded };
      return { phase: Phase.Failed, reason: domain.reason ?? 'Crashed' };
  }
}

/** The launcher exited without telling us the domain stopped: trust what it left behind. */
function phaseFromExit(gone: { reason: string }): Outcome {
  return CLEAN_EXIT_REASONS.has(gone.reason) ? { phase: Phase.Succeeded } : { phase: Phase.Failed, reason: gone.reason };
}

function computePhase(vmi: VirtualMachineInstance, o: Observed): Outcome {
  const keep: Outcome = { phase: (vmi.status?.phase ?? Phase.Scheduled) as VMIPhase, reason: vmi.status?.reason };
  if (FINAL.has(keep.phase)) return keep;
  const fromDomain = o.domain ? phaseFromDomain(o.domain, Boolean(vmi.metadata.deletionTimestamp)) : undefined;
  if (fromDomain && FINAL.has(fromDomain.phase)) return fromDomain;
  // the guest moved to the migration target: the source launcher's exit ends nothing
  const migrated = o.launcherGone?.reason === MIGRATED || o.domain?.reason === MIGRATED;
  if (migrated) return keep;
  if (o.launcherGone) return phaseFromExit(o.launcherGone);
  return fromDomain ?? keep;
}

function pausedCondition(domain: DomainStatus | undefined): Omit<VMICondition, 'lastTransitionTime'> | undefined {
  if (domain?.state !== 'paused') return undefined;
  if (domain.reason === 'PausedIOError') return { type: Condition.Paused, status: 'True', reason: Reason.PausedIOError, message: 'VMI was paused, IO error' };
  if (domain.reason === 'StartStrategyPaused') return { type: Condition.Paused, status: 'True', reason: Reason.PausedStartStrategy, message: 'VMI was paused, start strategy Paused' };
  if (domain.reason === 'Migration') return undefined;
  return { type: Condition.Paused, status: 'True', reason: Reason.PausedByUser, message: 'VMI was paused by user' };
}

type NewCondition = Omit<VMICondition, 'lastTransitionTime'>;

/** the agent answers: what the last guest-info query said, else QEMU's view of the channel */
export function isAgentConnected(o: Pick<Observed, 'guest' | 'domain'>): boolean {
  return Boolean(o.guest?.connected ?? o.domain?.agentConnected);
}

function agentCondition(o: Observed, alive: boolean): NewCondition | undefined {
  return alive && isAgentConnected(o) ? { type: Condition.AgentConnected, status: 'True' } : undefined;
}

/** the Node's NetworkUnavailable, said on the VMI where it costs the guest something */
function networkCondition(o: Observed, phase: VMIPhase): NewCondition | undefined {
  if (!o.domain?.noPodNetwork || FINAL.has(phase)) return undefined;
  return {
    type: NETWORK_UNAVAILABLE, status: 'True', reason: 'NoPodNetwork',
    message: `${o.node} has no pod network: the guest sits behind QEMU's user network, so other Pods, Services and NetworkPolicies do not reach it (docs/networking.md)`,
  };
}

function qemuRootCondition(o: Observed, phase: VMIPhase): NewCondition | undefined {
  const u = o.domain?.qemuUser;
  if (!u?.reason || FINAL.has(phase)) return undefined;
  return { type: QEMU_RUNS_AS_ROOT, status: 'True', reason: u.reason, message: u.message ?? 'QEMU runs as root' };
}

function emulationCondition(o: Observed, phase: VMIPhase): NewCondition | undefined {
  if (o.domain?.accel !== 'tcg' || FINAL.has(phase)) return undefined;
  return { type: Condition.SoftwareEmulation, status: 'True', reason: Reason.UseEmulation, message: `KVM is not usable on ${o.node}; the guest runs under QEMU TCG software emulation` };
}

/** the launcher stopped a guest it could not keep (a broken post-copy migration) and said why */
const LAUNCHER_FAILED_REASONS = new Set(['PostcopyFailed']);

function domainFailure(domain: DomainStatus | undefined): { reason: string; message: string } | undefined {
  return domain?.reason && domain.message && LAUNCHER_FAILED_REASONS.has(domain.reason) ? { reason: domain.reason, message: domain.message } : undefined;
}

function syncCondition(o: Observed, phase: VMIPhase): NewCondition | undefined {
  const failure = o.syncError ?? (phase === Phase.Failed ? o.launcherGone ?? domainFailure(o.domain) : undefined);
  return failure ? { type: Condition.Synchronized, status: 'False', reason: failure.reason, message: failure.message } : undefined;
}

function computeConditions(vmi: VirtualMachineInstance, o: Observed, phase: VMIPhase): VMICondition[] {
  const alive = phase === Phase.Running;
  const wanted: [string, NewCondition | undefined][] = [
    [Condition.Paused, pausedCondition(o.domain)],
    [Condition.LiveMigratable, alive ? computeLiveMigratable(vmi) : undefined],
    [Condition.AgentConnected, agentCondition(o, alive)],
    [Condition.SoftwareEmulation, emulationCondition(o, phase)],
    [NETWORK_UNAVAILABLE, networkCondition(o, phase)],
    [QEMU_RUNS_AS_ROOT, qemuRootCondition(o, phase)],
    [Condition.Synchronized, syncCondition(o, phase)],
    [Condition.AccessCredentialsSynchronized, alive ? o.accessCredentials : undefined],
  ];
  return wanted.reduce((conds, [type, c]) => (c ? setCondition(conds, c, o.now) : removeCondition(conds, type)), vmi.status?.conditions ?? []);
}

/**
 * The guest ended on this node while it was migrating away: the migration ends with it, in the
 * same write as the Failed phase (KubeVirt copies the domain's migration metadata in the same
 * update), so nobody sees a Failed VMI with a migration still running, even if it is replaced at once.
 */
function endedMigration(vmi: VirtualMachineInstance, o: Observed, phase: VMIPhase): VMIMigrationState | undefined {
  const m = vmi.status?.migrationState;
  if (phase !== Phase.Failed || !m?.migrationUid || m.completed || m.sourceNode !== o.node || !m.startTimestamp) return undefined;
  const lost = domainFailure(o.domain);
  const stopped = `the source domain stopped (${o.domain?.reason ?? o.launcherGone?.reason ?? 'unknown'})`;
  const failureReason = lost?.message ?? (m.mode === 'PostCopy' ? `${POSTCOPY_FAILED_MESSAGE}: ${stopped}` : stopped);
  return { ...m, completed: true, failed: true, endTimestamp: o.now.toISOString(), failureReason, ...(lost ? { mode: 'PostCopy' as const } : {}) };
}

export function computeDomainStatus(vmi: VirtualMachineInstance, o: Observed): VirtualMachineInstanceStatus {
  const status: VirtualMachineInstanceStatus = structuredClone(vmi.status ?? {});
  const { phase, reason } = computePhase(vmi, o);
  if (phase !== status.phase) {
    status.phase = phase;
    if (!status.phaseTransitionTimestamps?.some((t) => t.phase === phase)) {
      status.phaseTransitionTimestamps = [...(status.phaseTransitionTimestamps ?? []), { phase, phaseTransitionTimestamp: o.now.toISOString() }];
    }
  }
  if (reason) status.reason = reason;
  const migration = endedMigration(vmi, o, phase);
  if (migration) status.migrationState = migration;
  status.conditions = computeConditions(vmi, o, phase);
  if (phase === Phase.Running) status.migrationMethod = migrationMethodOf(vmi);
  if (o.domain?.machine) status.machine = { type: o.domain.machine };
  if (o.domain?.fsFrozen && phase === Phase.Running) status.fsFreezeStatus = 'frozen';
  else if (o.domain) delete status.fsFreezeStatus;
  const interfaces = computeInterfaces(vmi, o.domain, o.guest);
  if (interfaces.length && !FINAL.has(phase)) status.interfaces = interfaces;
  const os = computeGuestOSInfo(o.guest);
  if (os) status.guestOSInfo = os;
  return status;
}
