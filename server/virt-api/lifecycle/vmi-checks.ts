/**
 * PURE: preconditions of the VMI subresources virt-api forwards to virt-handler (§4.2/§4.3).
 * Each returns nothing or throws the ApiError KubeVirt answers with.
 */
import { VMIConditionType, VMIPhase, hasCondition, refusePause, refuseSoftReboot, refuseUnpause, type Refusal } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { VMI_RESOURCE, badRequest, conflict, refusalError } from '../api-error';

const phaseOf = (vmi: VirtualMachineInstance) => vmi.status?.phase;
const nameOf = (vmi: VirtualMachineInstance) => vmi.metadata.name ?? '';

/** throws KubeVirt's error for a refusal (lib/kubevirt/lifecycle-rules.ts, shared with the console) */
function enforce(refused: Refusal | undefined, vmi: VirtualMachineInstance): void {
  if (refused) throw refusalError(refused, nameOf(vmi));
}

export const checkPause = (vmi: VirtualMachineInstance): void => enforce(refusePause(vmi), vmi);
export const checkUnpause = (vmi: VirtualMachineInstance, vm: VirtualMachine | undefined): void => enforce(refuseUnpause(vmi, vm), vmi);
export const checkSoftReboot = (vmi: VirtualMachineInstance): void => enforce(refuseSoftReboot(vmi), vmi);

/**
 * Guest-agent GETs. Upstream answers these with 500 (quirk 5); a VMI that is not running or has
 * no agent is a state conflict, so we answer 409 (docs/differences.md).
 */
export function checkGuestAgent(vmi: VirtualMachineInstance): void {
  const name = nameOf(vmi);
  if (phaseOf(vmi) !== VMIPhase.Running) throw conflict(VMI_RESOURCE, name, 'VMI is not running');
  if (!hasCondition(vmi, VMIConditionType.AgentConnected, 'True')) throw conflict(VMI_RESOURCE, name, 'VMI does not have guest agent connected');
}

export function checkScreenshot(vmi: VirtualMachineInstance): void {
  if (phaseOf(vmi) !== VMIPhase.Running) throw conflict(VMI_RESOURCE, nameOf(vmi), 'VMI is not running');
  if (vmi.spec.domain.devices.autoattachGraphicsDevice === false) throw badRequest('No graphics devices are present.');
}

export type StreamKind = 'vnc' | 'console';

/** Console streams: the device must exist and the VMI must be Running or Scheduled. */
export function checkStream(vmi: VirtualMachineInstance, kind: StreamKind): void {
  const devices = vmi.spec.domain.devices;
  if (kind === 'console' && devices.autoattachSerialConsole === false) throw badRequest('No serial consoles are present.');
  if (kind === 'vnc' && devices.autoattachGraphicsDevice === false) throw badRequest('No graphics devices are present.');
  const phase = phaseOf(vmi);
  if (kind === 'console' && phase === VMIPhase.Failed) throw conflict(VMI_RESOURCE, nameOf(vmi), 'VMI is in failed status');
  if (phase !== VMIPhase.Running && phase !== VMIPhase.Scheduled) {
    throw badRequest(`Unable to connect to VirtualMachineInstance because phase is ${phase || 'Pending'} instead of Running or Scheduled`);
  }
}
