/**
 * PURE: preconditions of the VMI subresources virt-api forwards to virt-handler (§4.2/§4.3).
 * Each returns nothing or throws the ApiError KubeVirt answers with.
 */
import { VMIConditionType, VMIPhase, hasCondition } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { VMI_RESOURCE, VM_RESOURCE, badRequest, conflict, forbidden } from '../api-error';

const phaseOf = (vmi: VirtualMachineInstance) => vmi.status?.phase;
const nameOf = (vmi: VirtualMachineInstance) => vmi.metadata.name ?? '';

export function checkPause(vmi: VirtualMachineInstance): void {
  const name = nameOf(vmi);
  // upstream answers on the VMI resource here (unlike the VM lifecycle verbs)
  if (phaseOf(vmi) !== VMIPhase.Running) throw conflict(VMI_RESOURCE, name, 'VM is not running');
  const probe = vmi.spec.livenessProbe;
  if (probe && !probe.guestAgentPing) throw forbidden(VMI_RESOURCE, name, 'Pausing VMIs with a non-GuestAgentPing LivenessProbe is not supported');
  if (hasCondition(vmi, VMIConditionType.Paused, 'True')) throw conflict(VMI_RESOURCE, name, 'VMI is already paused');
  const migration = vmi.status?.migrationState;
  if (migration && !migration.completed && !migration.failed) throw conflict(VMI_RESOURCE, name, `Cannot pause VM '${name}' because it is currently being migrated`);
}

export function checkUnpause(vmi: VirtualMachineInstance, vm: VirtualMachine | undefined): void {
  const name = nameOf(vmi);
  if (vm?.status?.snapshotInProgress) throw conflict(VM_RESOURCE, name, 'VM snapshot is in progress');
  if (phaseOf(vmi) !== VMIPhase.Running) throw conflict(VMI_RESOURCE, name, 'VMI is not running');
  if (!hasCondition(vmi, VMIConditionType.Paused, 'True')) throw conflict(VMI_RESOURCE, name, 'VMI is not paused');
}

export function checkSoftReboot(vmi: VirtualMachineInstance): void {
  const name = nameOf(vmi);
  if (phaseOf(vmi) !== VMIPhase.Running) throw conflict(VMI_RESOURCE, name, 'VM is not running');
  if (hasCondition(vmi, VMIConditionType.Paused, 'True')) throw conflict(VMI_RESOURCE, name, 'VMI is paused');
  const agent = hasCondition(vmi, VMIConditionType.AgentConnected, 'True');
  const acpiOff = (vmi.spec.domain.features as { acpi?: { enabled?: boolean } } | undefined)?.acpi?.enabled === false;
  if (!agent && acpiOff) throw conflict(VMI_RESOURCE, name, 'VMI neither have the agent connected nor the ACPI feature enabled');
}

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
