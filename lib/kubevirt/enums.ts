/**
 * KubeVirt's enumerations (kubevirt.io/api core/v1 types.go), values verbatim.
 * Each is a const object plus a union type of its values.
 */

export const RunStrategy = {
  Always: 'Always',
  RerunOnFailure: 'RerunOnFailure',
  Manual: 'Manual',
  Halted: 'Halted',
  Once: 'Once',
  WaitAsReceiver: 'WaitAsReceiver',
} as const;
export type RunStrategy = (typeof RunStrategy)[keyof typeof RunStrategy];

export const VMIPhase = {
  Unset: '',
  Pending: 'Pending',
  Scheduling: 'Scheduling',
  Scheduled: 'Scheduled',
  Running: 'Running',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
  WaitingForSync: 'WaitingForSync',
  Unknown: 'Unknown',
} as const;
export type VMIPhase = (typeof VMIPhase)[keyof typeof VMIPhase];

export const MigrationPhase = {
  Unset: '',
  Pending: 'Pending',
  Scheduling: 'Scheduling',
  Scheduled: 'Scheduled',
  PreparingTarget: 'PreparingTarget',
  TargetReady: 'TargetReady',
  Running: 'Running',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
  WaitingForSync: 'WaitingForSync',
  Synchronizing: 'Synchronizing',
} as const;
export type MigrationPhase = (typeof MigrationPhase)[keyof typeof MigrationPhase];

export const PrintableStatus = {
  Stopped: 'Stopped',
  Provisioning: 'Provisioning',
  Starting: 'Starting',
  Running: 'Running',
  Paused: 'Paused',
  Stopping: 'Stopping',
  Terminating: 'Terminating',
  CrashLoopBackOff: 'CrashLoopBackOff',
  Migrating: 'Migrating',
  Unknown: 'Unknown',
  ErrorUnschedulable: 'ErrorUnschedulable',
  ErrImagePull: 'ErrImagePull',
  ImagePullBackOff: 'ImagePullBackOff',
  ErrorPvcNotFound: 'ErrorPvcNotFound',
  DataVolumeError: 'DataVolumeError',
  WaitingForVolumeBinding: 'WaitingForVolumeBinding',
  WaitingForReceiver: 'WaitingForReceiver',
} as const;
export type PrintableStatus = (typeof PrintableStatus)[keyof typeof PrintableStatus];

export const StateChangeAction = { Start: 'Start', Stop: 'Stop' } as const;
export type StateChangeAction = (typeof StateChangeAction)[keyof typeof StateChangeAction];

/** VMI condition types (and the VM conditions copied from them). */
export const VMIConditionType = {
  Ready: 'Ready',
  PodScheduled: 'PodScheduled',
  Synchronized: 'Synchronized',
  Provisioning: 'Provisioning',
  DataVolumesReady: 'DataVolumesReady',
  Paused: 'Paused',
  AgentConnected: 'AgentConnected',
  AgentVersionNotSupported: 'AgentVersionNotSupported',
  AccessCredentialsSynchronized: 'AccessCredentialsSynchronized',
  LiveMigratable: 'LiveMigratable',
  StorageLiveMigratable: 'StorageLiveMigratable',
  HotVCPUChange: 'HotVCPUChange',
  HotMemoryChange: 'HotMemoryChange',
  VolumesChange: 'VolumesChange',
  MigrationRequired: 'MigrationRequired',
  EvictionRequested: 'EvictionRequested',
  SoftwareEmulation: 'SoftwareEmulation',
} as const;
export type VMIConditionType = (typeof VMIConditionType)[keyof typeof VMIConditionType];

export const VMConditionType = {
  Ready: 'Ready',
  Failure: 'Failure',
  Paused: 'Paused',
  RestartRequired: 'RestartRequired',
  ManualRecoveryRequired: 'ManualRecoveryRequired',
} as const;
export type VMConditionType = (typeof VMConditionType)[keyof typeof VMConditionType];

export const MigrationConditionType = {
  AbortRequested: 'migrationAbortRequested',
  RejectedByResourceQuota: 'migrationRejectedByResourceQuota',
} as const;

/** Condition reasons used across components. */
export const Reason = {
  // VMI Ready
  PodNotExists: 'PodNotExists',
  PodTerminating: 'PodTerminating',
  GuestNotRunning: 'GuestNotRunning',
  PodConditionMissing: 'PodConditionMissing',
  // VM Ready
  VMINotExists: 'VMINotExists',
  VMIConditionMissing: 'VMIConditionMissing',
  // scheduling / sync
  Unschedulable: 'Unschedulable',
  FailedCreate: 'FailedCreate',
  FailedDelete: 'FailedDelete',
  FailedPvcNotFound: 'FailedPvcNotFound',
  ErrImagePull: 'ErrImagePull',
  ImagePullBackOff: 'ImagePullBackOff',
  // pause
  PausedByUser: 'PausedByUser',
  PausedByMigrationMonitor: 'PausedByMigrationMonitor',
  PausedIOError: 'PausedIOError',
  // failure
  NodeUnresponsive: 'NodeUnresponsive',
  // live migration
  DisksNotLiveMigratable: 'DisksNotLiveMigratable',
  InterfaceNotLiveMigratable: 'InterfaceNotLiveMigratable',
  EvictionRequested: 'EvictionRequested',
} as const;

export const MigrationPriority = {
  SystemCritical: 'system-critical',
  UserTriggered: 'user-triggered',
  SystemMaintenance: 'system-maintenance',
} as const;

export const EvictionStrategy = {
  None: 'None',
  LiveMigrate: 'LiveMigrate',
  LiveMigrateIfPossible: 'LiveMigrateIfPossible',
  External: 'External',
} as const;
export type EvictionStrategy = (typeof EvictionStrategy)[keyof typeof EvictionStrategy];

/** `terminationGracePeriodSeconds` when the VMI leaves it unset (KubeVirt's DefaultGracePeriodSeconds). */
export const DEFAULT_GRACE_PERIOD_SECONDS = 30;
