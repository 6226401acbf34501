/** VirtualMachine: persistent intent for a guest. */
import type { Condition, KubeObject, ObjectMeta } from './meta';
import type { PrintableStatus, RunStrategy, StateChangeAction } from './enums';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';

export interface VirtualMachineInstanceTemplateSpec {
  metadata?: ObjectMeta;
  spec: VirtualMachineInstanceSpec;
}

export interface DataVolumeTemplateSpec {
  metadata?: ObjectMeta;
  spec: Record<string, unknown>;
}

/**
 * `spec.instancetype` / `spec.preference`. `name` is empty only while `inferFromVolume` is set,
 * and virt-api's mutator replaces such a matcher before the VM is stored.
 */
export interface InstancetypeMatcher {
  name: string;
  kind?: string;
  revisionName?: string;
  inferFromVolume?: string;
  inferFromVolumeFailurePolicy?: 'Reject' | 'Ignore';
}

export interface VirtualMachineSpec {
  /** Deprecated alias of runStrategy (true ≡ Always, false ≡ Halted). */
  running?: boolean;
  runStrategy?: RunStrategy;
  template: VirtualMachineInstanceTemplateSpec;
  dataVolumeTemplates?: DataVolumeTemplateSpec[];
  instancetype?: InstancetypeMatcher;
  preference?: InstancetypeMatcher;
}

export interface VirtualMachineStateChangeRequest {
  action: StateChangeAction;
  data?: Record<string, string>;
  uid?: string;
}

export interface VirtualMachineStartFailure {
  consecutiveFailCount?: number;
  lastFailedVMIUID?: string;
  retryAfterTimestamp?: string;
}

export interface VirtualMachineStatus {
  created?: boolean;
  ready?: boolean;
  printableStatus?: PrintableStatus;
  conditions?: Condition[];
  stateChangeRequests?: VirtualMachineStateChangeRequest[];
  startFailure?: VirtualMachineStartFailure;
  runStrategy?: RunStrategy;
  observedGeneration?: number;
  desiredGeneration?: number;
  volumeRequests?: Record<string, unknown>[];
  snapshotInProgress?: string;
  /** the VirtualMachineRestore writing into this VM; its run strategy cannot change meanwhile */
  restoreInProgress?: string;
}

export interface VirtualMachine extends KubeObject {
  metadata: ObjectMeta;
  spec: VirtualMachineSpec;
  status?: VirtualMachineStatus;
}
