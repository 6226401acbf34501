/** PURE: the `stop` subresource (KubeVirt's StopVMRequestHandler, §4.3). */
import { RunStrategy, isVMIFinal, refuseStop, runStrategyOf } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { internal, refusalError } from '../api-error';
import type { StopOptions } from './options';
import { gracePeriodPatch, runStrategyPatch, stateChangePatch, type Write } from './writes';

export { HALTED_STOP_MESSAGE } from '../../../lib/kubevirt/lifecycle-rules';

/**
 * With `gracePeriod` and a live VMI, the VMI's grace period is patched first (KubeVirt does this
 * before its checks, even when it then answers 409: quirk 4, kept — a shorter grace is what a
 * force stop asks for). Then: Always/Once → Halted; Manual/RerunOnFailure → Stop request; Halted →
 * only a shorter grace speeds up a stop already under way.
 */
export function planStop(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: StopOptions): Write[] {
  const name = vm.metadata.name ?? '';
  const live = vmi && !isVMIFinal(vmi) ? vmi : undefined;
  const writes: Write[] = [];
  const oldGrace = live?.spec.terminationGracePeriodSeconds;
  if (opts.gracePeriod !== undefined && live) {
    writes.push({ kind: 'patch-vmi', ops: gracePeriodPatch(oldGrace, opts.gracePeriod) });
  }
  const rs = runStrategyOf(vm);
  if (!rs.ok) throw internal(rs.error);
  const refused = refuseStop(vm, vmi, opts.gracePeriod);
  if (refused) throw refusalError(refused, name);
  switch (rs.strategy) {
    case RunStrategy.Halted:
    case RunStrategy.Manual:
    case RunStrategy.RerunOnFailure:
      return [...writes, stateChangePatch(vm, [{ action: 'Stop', uid: live!.metadata.uid }])];
    default:
      return [...writes, runStrategyPatch(vm, false)];
  }
}
