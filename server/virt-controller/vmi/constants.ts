/**
 * What the VMI controller names beyond lib/kubevirt's shared constants (which it re-exports).
 */
import { Label, LAUNCHER_APP_VALUE, LAUNCHER_CONTAINER, Reason as SharedReason, VMIConditionType, VMIPhase } from '../../../lib/kubevirt';

export { Annotation, Finalizer, Label } from '../../../lib/kubevirt';
export const LABEL_APP = Label.App;
export const APP_VIRT_LAUNCHER = LAUNCHER_APP_VALUE;
export const COMPUTE_CONTAINER = LAUNCHER_CONTAINER;
export const DEFAULT_LAUNCHER_IMAGE = 'kubevirt-ts/virt-launcher:latest';
export const LAUNCHER_COMMAND = ['kv', 'launcher'];
/** KubeVirt's serial-console log container (its virt-tail); here the launcher writes the log itself */
export const GUEST_CONSOLE_LOG_CONTAINER = 'guest-console-log';
export const GUEST_CONSOLE_LOG_COMMAND = ['kv', 'guest-console-log'];
export const LAUNCHER_GRACE_PADDING_SECONDS = 15;
export { DEFAULT_GRACE_PERIOD_SECONDS } from '../../../lib/kubevirt';

export const Phase = VMIPhase;
export const Condition = VMIConditionType;

export const Reason = {
  ...SharedReason,
  PodNotReady: 'PodNotReady',
  PodMissing: 'PodMissing',
  PodFailed: 'PodFailed',
  Deleted: 'Deleted',
  SuccessfulCreate: 'SuccessfulCreate',
  SuccessfulDelete: 'SuccessfulDelete',
} as const;
