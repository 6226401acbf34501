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

export interface VirtualMachineSpec {
  /** Deprecated alias of runStrategy (true ≡ Always, false ≡ Halted). */
  running?: boolean;
  runStrategy?: RunStrategy;
  template: VirtualMachineInstanceTemplateSpec;
  dataVolumeTemplates?: DataVolumeTemplateSpec[];
  instancetype?: { name: string; kind?: string; revisionName?: string };
  preference?: { name: string; kind?: string; revisionName?: string };
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
