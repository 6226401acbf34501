/** Labels, annotations, finalizers and reasons the VMI controller reads and writes (KubeVirt's names). */
export const LABEL_APP = 'kubevirt.io';
export const APP_VIRT_LAUNCHER = 'virt-launcher';
export const LABEL_CREATED_BY = 'kubevirt.io/created-by';
export const LABEL_VM_NAME = 'vm.kubevirt.io/name';
export const LABEL_VMI_ID = 'vmi.kubevirt.io/id';
export const LABEL_NODE_NAME = 'kubevirt.io/nodeName';
export const LABEL_SCHEDULABLE = 'kubevirt.io/schedulable';
export const ANNOTATION_DOMAIN = 'kubevirt.io/domain';
export const ANNOTATION_DEFAULT_CONTAINER = 'kubectl.kubernetes.io/default-container';
export const ANNOTATION_MEMORY_OVERHEAD = 'kubevirt.io/memory-overhead-bytes';
export const FINALIZER_FOREGROUND_DELETE = 'kubevirt.io/foregroundDeleteVirtualMachine';
export const COMPUTE_CONTAINER = 'compute';
export const DEFAULT_LAUNCHER_IMAGE = 'kubevirt-ts/virt-launcher:latest';
export const LAUNCHER_COMMAND = ['kv', 'launcher'];
export const DEFAULT_GRACE_PERIOD_SECONDS = 30;
export const LAUNCHER_GRACE_PADDING_SECONDS = 15;

export const Phase = {
  Pending: 'Pending',
  Scheduling: 'Scheduling',
  Scheduled: 'Scheduled',
  Running: 'Running',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
} as const;

export const Condition = {
  Ready: 'Ready',
  PodScheduled: 'PodScheduled',
  Synchronized: 'Synchronized',
  Paused: 'Paused',
  LiveMigratable: 'LiveMigratable',
  AgentConnected: 'AgentConnected',
} as const;

export const Reason = {
  PodNotExists: 'PodNotExists',
  PodTerminating: 'PodTerminating',
  GuestNotRunning: 'GuestNotRunning',
  PodConditionMissing: 'PodConditionMissing',
  FailedCreate: 'FailedCreate',
  FailedDelete: 'FailedDelete',
  ErrImagePull: 'ErrImagePull',
  SuccessfulCreate: 'SuccessfulCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  PodFailed: 'PodFailed',
  PodMissing: 'PodMissing',
  Deleted: 'Deleted',
} as const;
