/** Names the storage component shares with kube's PV controller, the scheduler and the kubelet. */
export const PROVISIONER = 'kubevirt-ts.io/local-path';
/** StorageClass parameter: `local` (a directory on the volume's node) or `shared` (seen by every node). */
export const PARAM_VOLUME_TYPE = 'volumeType';

export const StorageAnnotation = {
  SelectedNode: 'volume.kubernetes.io/selected-node',
  StorageProvisioner: 'volume.kubernetes.io/storage-provisioner',
  BetaStorageProvisioner: 'volume.beta.kubernetes.io/storage-provisioner',
  BindCompleted: 'pv.kubernetes.io/bind-completed',
  BoundByController: 'pv.kubernetes.io/bound-by-controller',
  ProvisionedBy: 'pv.kubernetes.io/provisioned-by',
  DefaultClass: 'storageclass.kubernetes.io/is-default-class',
} as const;

export const Finalizer = { PVC: 'kubernetes.io/pvc-protection', PV: 'kubernetes.io/pv-protection' } as const;

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';

/** kube's event reasons, as `kubectl describe pvc` shows them */
export const StorageReason = {
  WaitForFirstConsumer: 'WaitForFirstConsumer',
  ExternalProvisioning: 'ExternalProvisioning',
  Provisioning: 'Provisioning',
  ProvisioningSucceeded: 'ProvisioningSucceeded',
  ProvisioningFailed: 'ProvisioningFailed',
  VolumeResizeSuccessful: 'VolumeResizeSuccessful',
  VolumeResizeFailed: 'VolumeResizeFailed',
  ClaimLost: 'ClaimLost',
  VolumeFailedDelete: 'VolumeFailedDelete',
} as const;
