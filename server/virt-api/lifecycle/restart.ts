/** PURE: the `restart` subresource (KubeVirt's RestartVMRequestHandler, §4.3). */
import { refuseRestart, runStrategyOf, VMIConditionType, hasCondition } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { VM_RESOURCE, badRequest, conflict, internal, refusalError } from '../api-error';
import type { RestartOptions } from './options';
import { MANUAL_RECOVERY_MESSAGE } from './start';
import { gracePeriodPatch, stateChangePatch, type Write } from './writes';

/** A force restart lowers the grace period to this before the Stop (KubeVirt uses 1 s). */
const FORCE_GRACE_SECONDS = 1;

export function planRestart(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: RestartOptions): Write[] {
  const name = vm.metadata.name ?? '';
  const grace = opts.gracePeriodSeconds;
  if (grace !== undefined && grace > 0) throw badRequest('For force restart, only gracePeriod=0 is supported for now');
  if (grace !== undefined && grace < 0) throw badRequest('gracePeriod has to be greater or equal to 0');
  if (hasCondition(vm, VMIConditionType.VolumesChange, 'True')) throw conflict(VM_RESOURCE, name, MANUAL_RECOVERY_MESSAGE);
  const rs = runStrategyOf(vm);
  if (!rs.ok) throw internal(rs.error);
  const refused = refuseRestart(vm, vmi);
  if (refused || !vmi) throw refusalError(refused ?? { code: 409, resource: 'vm', message: 'VM is not running: Halted' }, name);
  const writes: Write[] = [];
  if (grace === 0) {
    const old = vmi.spec.terminationGracePeriodSeconds;
    const rollback = old === undefined
      ? [{ op: 'remove' as const, path: '/spec/terminationGracePeriodSeconds' }]
      : gracePeriodPatch(FORCE_GRACE_SECONDS, old);
    writes.push({ kind: 'patch-vmi', ops: gracePeriodPatch(old, FORCE_GRACE_SECONDS), rollback });
  }
  return [...writes, stateChangePatch(vm, [{ action: 'Stop', uid: vmi.metadata.uid }, { action: 'Start' }])];
}
