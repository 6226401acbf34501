/** What the VM controller names: event reasons, messages, condition reasons, tunables (KubeVirt's vm.go). */
export { Annotation, Finalizer, Label, Reason, VMConditionType } from '../../../lib/kubevirt';

export const VM_KIND = 'VirtualMachine';
export const VMI_KIND = 'VirtualMachineInstance';

export const EventReason = {
  SuccessfulCreate: 'SuccessfulCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedCreate: 'FailedCreate',
  FailedDelete: 'FailedDelete',
  FailedUpdate: 'FailedUpdate',
} as const;

export const startedMessage = (vmiName: string) =>
  `Started the virtual machine by creating the new virtual machine instance ${vmiName}`;
export const stoppedMessage = (vmiUID: string) =>
  `Stopped the virtual machine by deleting the virtual machine instance ${vmiUID}`;

export const VMI_NOT_EXISTS_MESSAGE = 'VMI does not exist';
export const VMI_CONDITION_MISSING_MESSAGE = 'VMI is missing the Ready condition';
export const FailureReason = {
  FailedCreate: 'FailedCreate',
  FailedDelete: 'FailedDelete',
  FailedUpdate: 'FailedUpdateError',
  InvalidRunStrategy: 'FailedRunStrategy',
} as const;

/** KubeVirt's start backoff (calculateStartBackoffTime): 10·n² s, jitter up to half, capped at 300 s. */
export const START_BACKOFF_INTERVAL_SECONDS = 10;
export const START_BACKOFF_MAX_SECONDS = 300;

/** The ControllerRevision that snapshots the VM spec a VMI was started from. */
export const revisionNameFor = (vmUID: string, generation: number) => `revision-start-vm-${vmUID}-${generation}`;

/** Data key of a Start request that asks for a paused start. */
export const START_PAUSED_KEY = 'paused';
