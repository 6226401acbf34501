/** Names KubeVirt's replica set controller uses (kind, event reasons). */
export const RS_KIND = 'VirtualMachineInstanceReplicaSet';

export const RSEventReason = {
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
  SuccessfulPaused: 'SuccessfulPaused',
  SuccessfulResumed: 'SuccessfulResumed',
} as const;
