/**
 * What a lifecycle handler decided to write: intent only (a VM spec patch, a VM status patch with
 * stateChangeRequests, a VMI grace-period patch, a new migration). Planners are pure and return these.
 */
import type { VirtualMachine, VirtualMachineStateChangeRequest } from '../../../lib/kubevirt';
import type { JsonPatchOperation } from '../../kube/clients';
import { VM_RESOURCE, conflict } from '../api-error';

export type Write =
  | { kind: 'patch-vm'; ops: JsonPatchOperation[] }
  | { kind: 'patch-vm-status'; ops: JsonPatchOperation[] }
  /** `rollback` undoes it when a later write fails (restart's grace period). */
  | { kind: 'patch-vmi'; ops: JsonPatchOperation[]; rollback?: JsonPatchOperation[] }
  | { kind: 'create-migration'; body: Record<string, unknown> };

export const ALREADY_UNDERWAY = 'unable to complete request: stop/start already underway';

/**
 * KubeVirt's getChangeRequestJson: queue requests on the VM status with a `test` op on the current
 * array, so a concurrent change makes the patch fail (→ 409). A single Stop replaces whatever is
 * queued; anything else while requests are pending is refused. Also clears `startFailure`.
 * Upstream answers "already underway" with 500; we answer 409 (docs/differences.md).
 */
export function stateChangePatch(vm: VirtualMachine, reqs: VirtualMachineStateChangeRequest[]): Write {
  const status = vm.status ?? {};
  const queued = status.stateChangeRequests ?? [];
  const rvTest: JsonPatchOperation = { op: 'test', path: '/metadata/resourceVersion', value: vm.metadata.resourceVersion };
  if (Object.keys(status).length === 0) {
    return { kind: 'patch-vm-status', ops: [rvTest, { op: 'add', path: '/status', value: { stateChangeRequests: reqs } }] };
  }
  const replaceAll = reqs.length === 1 && reqs[0].action === 'Stop';
  if (queued.length && !replaceAll) throw conflict(VM_RESOURCE, vm.metadata.name ?? '', ALREADY_UNDERWAY);
  const ops: JsonPatchOperation[] = status.stateChangeRequests
    ? [{ op: 'test', path: '/status/stateChangeRequests', value: queued }, { op: 'replace', path: '/status/stateChangeRequests', value: reqs }]
    : [rvTest, { op: 'add', path: '/status/stateChangeRequests', value: reqs }];
  if (status.startFailure) ops.push({ op: 'remove', path: '/status/startFailure' });
  return { kind: 'patch-vm-status', ops };
}

/** Flip the run strategy (or the legacy `running` flag), guarded by a `test` of the current value. */
export function runStrategyPatch(vm: VirtualMachine, running: boolean): Write {
  if (vm.spec.running !== undefined) {
    return { kind: 'patch-vm', ops: [{ op: 'test', path: '/spec/running', value: vm.spec.running }, { op: 'replace', path: '/spec/running', value: running }] };
  }
  const value = running ? 'Always' : 'Halted';
  const ops: JsonPatchOperation[] = vm.spec.runStrategy === undefined
    ? [{ op: 'test', path: '/metadata/resourceVersion', value: vm.metadata.resourceVersion }, { op: 'add', path: '/spec/runStrategy', value }]
    : [{ op: 'test', path: '/spec/runStrategy', value: vm.spec.runStrategy }, { op: 'replace', path: '/spec/runStrategy', value }];
  return { kind: 'patch-vm', ops };
}

/** Set the VMI's terminationGracePeriodSeconds, testing the old value. */
export function gracePeriodPatch(old: number | undefined, next: number): JsonPatchOperation[] {
  const path = '/spec/terminationGracePeriodSeconds';
  return old === undefined
    ? [{ op: 'add', path, value: next }]
    : [{ op: 'test', path, value: old }, { op: 'replace', path, value: next }];
}
