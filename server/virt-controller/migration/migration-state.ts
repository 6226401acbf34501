/** PURE: small predicates on a VMIM and its VMI's migrationState (KubeVirt's TargetIsCreated / TargetIsHandedOff). */
import type { V1Pod } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration, VMIMigrationState } from '../../../lib/kubevirt';
import { isPodDown } from '../vmi/pod-state';
import { Label, Phase } from './constants';

const NOT_CREATED = new Set<string>([Phase.Unset, Phase.Pending, Phase.WaitingForSync, Phase.Synchronizing]);
const NOT_HANDED_OFF = new Set<string>([...NOT_CREATED, Phase.Scheduling, Phase.Scheduled]);

export const phaseOf = (vmim: VirtualMachineInstanceMigration): string => vmim.status?.phase ?? Phase.Unset;

/** `namespace/vmiName` of the VMI a migration moves: the index key controllers look migrations up by. */
export const migrationVMIKey = (vmim: VirtualMachineInstanceMigration): string => `${vmim.metadata.namespace}/${vmim.spec?.vmiName}`;

export function isFinalPhase(phase: string | undefined): boolean {
  return phase === Phase.Succeeded || phase === Phase.Failed;
}

/** The target Pod was created: phase past Pending. */
export function isTargetCreated(phase: string): boolean {
  return !NOT_CREATED.has(phase) && !isFinalPhase(phase);
}

/** The VMI's migrationState belongs to this VMIM: past Scheduled. */
export function isHandedOff(phase: string): boolean {
  return !NOT_HANDED_OFF.has(phase) && !isFinalPhase(phase);
}

/** The VMI's migrationState when it belongs to `vmim`. */
export function ownState(vmim: VirtualMachineInstanceMigration, vmi: VirtualMachineInstance | undefined): VMIMigrationState | undefined {
  const s = vmi?.status?.migrationState;
  return s && s.migrationUid && s.migrationUid === vmim.metadata.uid ? s : undefined;
}

/** The guest now runs on the target: the source reported completion and the target took the VMI over. */
export function hasSucceeded(state: VMIMigrationState | undefined, vmi: VirtualMachineInstance | undefined): boolean {
  return Boolean(state?.completed && !state.failed && state.targetNode && vmi?.status?.nodeName === state.targetNode);
}

/** Target Pods of `vmim` (label `kubevirt.io/migrationJobUID`), the newest first. */
export function targetPodsOf(vmim: VirtualMachineInstanceMigration, pods: V1Pod[]): V1Pod[] {
  const uid = vmim.metadata.uid;
  const created = (p: V1Pod) => new Date(p.metadata?.creationTimestamp ?? 0).getTime();
  return pods.filter((p) => uid && p.metadata?.labels?.[Label.MigrationJobUID] === uid).sort((a, b) => created(b) - created(a));
}

export function isAlive(pod: V1Pod | undefined): pod is V1Pod {
  return Boolean(pod) && !isPodDown(pod!) && !pod!.metadata?.deletionTimestamp;
}
