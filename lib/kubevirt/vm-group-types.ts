/** VM groups and presets: VirtualMachineInstanceReplicaSet, VirtualMachinePool, VirtualMachineInstancePreset. */
import type { Condition, KubeObject, ObjectMeta } from './meta';
import type { LabelSelector } from './label-selector';
import type { DomainSpec } from './vmi-spec-types';
import type { VirtualMachineInstanceTemplateSpec, VirtualMachineSpec } from './vm-types';

export interface VirtualMachineInstanceReplicaSet extends KubeObject {
  metadata: ObjectMeta;
  spec: { replicas?: number; selector?: LabelSelector; template?: VirtualMachineInstanceTemplateSpec; paused?: boolean };
  status?: { replicas?: number; readyReplicas?: number; labelSelector?: string; conditions?: Condition[] };
}

export interface VirtualMachinePool extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    selector?: LabelSelector;
    virtualMachineTemplate?: { metadata?: ObjectMeta; spec?: VirtualMachineSpec };
    paused?: boolean;
  };
  status?: { replicas?: number; readyReplicas?: number; labelSelector?: string; conditions?: Condition[] };
}

export interface VirtualMachineInstancePreset extends KubeObject {
  metadata: ObjectMeta;
  spec: { selector?: LabelSelector; domain?: Partial<DomainSpec> };
}

/** conditions of a replica set (KubeVirt's VirtualMachineInstanceReplicaSetConditionType) */
export const ReplicaSetConditionType = { ReplicaFailure: 'ReplicaFailure', ReplicaPaused: 'ReplicaPaused' } as const;
