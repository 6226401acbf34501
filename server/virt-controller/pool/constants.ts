/** Names KubeVirt's pool controller uses (kind, event and condition reasons). */
export const POOL_KIND = 'VirtualMachinePool';
export const POOL_API_VERSION = 'pool.kubevirt.io/v1beta1';

export const PoolReason = {
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
  FailedScaleOut: 'FailedScaleOut',
  FailedScaleIn: 'FailedScaleIn',
  SuccessfulPaused: 'SuccessfulPaused',
  SuccessfulResume: 'SuccessfulResume',
} as const;
