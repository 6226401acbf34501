/**
 * PURE: crash-loop backoff (KubeVirt's syncStartFailureStatus / calculateStartBackoffTime, §1.7).
 * A VMI that became final without ever reaching Running is a start failure, counted once per UID.
 */
import { RunStrategy, VMIPhase, isVMIFinal, runStrategyOf } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance, VirtualMachineStartFailure } from '../../../lib/kubevirt';
import { formatKubeTime } from '../../kube/time';
import { START_BACKOFF_INTERVAL_SECONDS, START_BACKOFF_MAX_SECONDS } from './constants';

export interface BackoffSettings {
  intervalSeconds: number;
  maxSeconds: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = {
  intervalSeconds: START_BACKOFF_INTERVAL_SECONDS,
  maxSeconds: START_BACKOFF_MAX_SECONDS,
};

const BACKOFF_STRATEGIES: readonly string[] = [RunStrategy.Always, RunStrategy.RerunOnFailure, RunStrategy.Once];

/** Delay before start attempt n (n ≥ 1): interval·n² plus jitter in [0, half of it], capped. `random` in [0, 1). */
export function startBackoffSeconds(failCount: number, random: number, s: BackoffSettings = DEFAULT_BACKOFF): number {
  const base = s.intervalSeconds * failCount * failCount;
  return Math.min(s.maxSeconds, base + random * (base / 2));
}

/** KubeVirt's vmiFailedEarly: final, and no Running entry in its phase transitions. */
export function isVMIFailedEarly(vmi: VirtualMachineInstance | undefined): boolean {
  if (!vmi || !isVMIFinal(vmi)) return false;
  return !(vmi.status?.phaseTransitionTimestamps ?? []).some((t) => t.phase === VMIPhase.Running);
}

export interface StartFailureInputs {
  now: Date;
  random: number;
  backoff?: BackoffSettings;
}

/** The VM's next `status.startFailure` (undefined clears it). */
export function computeStartFailure(
  vm: VirtualMachine,
  vmi: VirtualMachineInstance | undefined,
  inputs: StartFailureInputs,
): VirtualMachineStartFailure | undefined {
  const current = vm.status?.startFailure;
  const rs = runStrategyOf(vm);
  if (!rs.ok || !BACKOFF_STRATEGIES.includes(rs.strategy)) return undefined;
  if (vmi?.status?.phase === VMIPhase.Running) return undefined;
  if (!isVMIFailedEarly(vmi)) return current;
  const uid = vmi!.metadata.uid;
  if (current?.lastFailedVMIUID === uid) return current;
  const count = (current?.consecutiveFailCount ?? 0) + 1;
  const delayMs = startBackoffSeconds(count, inputs.random, inputs.backoff) * 1000;
  return {
    consecutiveFailCount: count,
    lastFailedVMIUID: uid,
    retryAfterTimestamp: formatKubeTime(new Date(Math.ceil((inputs.now.getTime() + delayMs) / 1000) * 1000)),
  };
}

/** Milliseconds until a VMI may be created again (0 when not backing off). */
export function backoffRemainingMs(vm: VirtualMachine, now: Date): number {
  const ts = vm.status?.startFailure?.retryAfterTimestamp;
  if (!ts) return 0;
  const ms = Date.parse(ts) - now.getTime();
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** Test clusters may shorten the base interval (`KV_VM_START_BACKOFF_INTERVAL_SECONDS`); production keeps 10 s. */
export function backoffSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): BackoffSettings {
  const interval = Number(env.KV_VM_START_BACKOFF_INTERVAL_SECONDS);
  return Number.isFinite(interval) && interval > 0 ? { ...DEFAULT_BACKOFF, intervalSeconds: interval } : DEFAULT_BACKOFF;
}
